import { describe, expect, it } from 'vitest';
import { codeLabel, datedValues, monthlyValues, searchConsoleTotals } from './query-report-model.ts';

describe('searchConsoleTotals', () => {
  it('sums clicks and impressions and weights position by impressions', () => {
    const totals = searchConsoleTotals([
      { date: '2025-03-01', clicks: 3, impressions: 100, ctr: 0.03, position: 2 },
      { date: '2025-03-02', clicks: 1, impressions: 300, ctr: 0.0033, position: 6 },
      { date: '2025-03-03', clicks: 0, impressions: 0, ctr: 0, position: null },
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
