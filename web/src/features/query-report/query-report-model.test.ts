import { describe, expect, it } from 'vitest';
import type { SearchConsolePoint } from '../../api/query-report.ts';
import {
  codeLabel,
  datedValues,
  measureSeries,
  measureTitle,
  monthlyValues,
  periodText,
  searchConsoleTotals,
} from './query-report-model.ts';

describe('searchConsoleTotals', () => {
  it('sums clicks and impressions and weights position by impressions', () => {
    const totals = searchConsoleTotals([
      { date: '2025-03-01', clicks: 3, impressions: 100, ctr: 0.03, position: 2, period: null },
      { date: '2025-03-02', clicks: 1, impressions: 300, ctr: 0.0033, position: 6, period: null },
      { date: '2025-03-03', clicks: 0, impressions: 0, ctr: 0, position: null, period: null },
    ]);
    expect(totals).toEqual({ clicks: 4, impressions: 400, ctr: 0.01, position: 5 });
  });

  it('has no position and a zero CTR without impressions', () => {
    expect(searchConsoleTotals([])).toEqual({ clicks: 0, impressions: 0, ctr: 0, position: null });
  });
});

describe('datedValues', () => {
  it('orders days oldest first and drops missing values', () => {
    const rows: { date: string; v: number | null }[] = [
      { date: '2025-03-02', v: 2 },
      { date: '2025-03-01', v: 1 },
      { date: '2025-03-03', v: null },
      { date: 'not a day', v: 4 },
    ];
    const points = datedValues(rows, (r) => r.v);
    expect(points.map((p) => [p.date.toISOString().slice(0, 10), p.value])).toEqual([
      ['2025-03-01', 1],
      ['2025-03-02', 2],
    ]);
  });
});

describe('measureSeries', () => {
  const point = (date: string, clicks: number, period: SearchConsolePoint['period'] = null): SearchConsolePoint => ({
    date,
    clicks,
    impressions: clicks * 10,
    ctr: 0.1,
    position: 3,
    period,
  });
  const day = (d: Date) => d.toISOString().slice(0, 10);

  it('turns a period total placed on its last day into a period across its days, never a daily point', () => {
    const series = measureSeries(
      [
        point('2026-11-16', 4),
        point('2026-11-14', 90, { start: '2026-11-01', end: '2026-11-14' }),
        point('2026-11-15', 5),
      ],
      (p) => p.clicks,
    );
    expect(series.days.map((p) => [day(p.date), p.value])).toEqual([
      ['2026-11-15', 5],
      ['2026-11-16', 4],
    ]);
    expect(series.periods.map((p) => [day(p.start), day(p.end), p.value, p.label])).toEqual([
      ['2026-11-01', '2026-11-15', 90, 'total for 1–14 Nov'],
    ]);
    expect(measureTitle('Clicks', series)).toBe('Clicks per day and totals per period');
  });

  it('keeps daily rows as days and names a chart of periods only as totals', () => {
    const daily = measureSeries([point('2026-11-02', 1), point('2026-11-01', 2)], (p) => p.clicks);
    expect(daily.periods).toEqual([]);
    expect(measureTitle('Clicks', daily)).toBe('Clicks per day');
    const single = measureSeries([point('2026-11-07', 7, { start: '2026-11-01', end: '2026-11-07' })], (p) => p.clicks);
    expect(single.days).toEqual([]);
    expect(measureTitle('Impressions', single)).toBe('Impressions, totals per period');
  });
});

describe('periodText', () => {
  it('names months and years only where the ends differ', () => {
    expect(periodText('2026-11-01', '2026-11-14')).toBe('1–14 Nov');
    expect(periodText('2026-10-28', '2026-11-03')).toBe('28 Oct – 3 Nov');
    expect(periodText('2025-12-29', '2026-01-04')).toBe('29 Dec 2025 – 4 Jan 2026');
    expect(periodText('2026-11-14', '2026-11-14')).toBe('14 Nov');
  });
});

describe('monthlyValues', () => {
  it('dates each month at its first day and sorts them', () => {
    const points = monthlyValues([
      { year: 2025, month: 1, search_volume: 20 },
      { year: 2024, month: 12, search_volume: 10 },
      { year: 2024, month: 13, search_volume: 99 },
    ]);
    expect(points.map((p) => [p.date.toISOString().slice(0, 10), p.value])).toEqual([
      ['2024-12-01', 10],
      ['2025-01-01', 20],
    ]);
  });
});

describe('codeLabel', () => {
  it('turns upper snake codes into a capitalised phrase', () => {
    expect(codeLabel('GOOGLE_SEARCH_AND_PARTNERS')).toBe('Google search and partners');
    expect(codeLabel('HIGH')).toBe('High');
  });
});
