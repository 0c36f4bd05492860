import { describe, expect, it } from 'vitest';
import { coverageSpan, dateTicks } from './date-ticks.ts';

const utc = (day: string): Date => new Date(`${day}T00:00:00Z`);
const labels = (start: string, endExclusive: string, width: number): string[] => {
  const { ticks, format } = dateTicks(utc(start), utc(endExclusive), width);
  return ticks.map(format);
};

describe('the coverage chart date axis', () => {
  it('ticks a two-day import by day, never by the hour', () => {
    const { ticks } = dateTicks(utc('2026-11-02'), utc('2026-11-04'), 1000);
    expect(ticks.map((t) => t.toISOString())).toEqual(['2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
    expect(labels('2026-11-02', '2026-11-04', 300)).toEqual(['2 Nov', '3 Nov']);
  });

  it('spans two weeks at least, a two-day import in the middle, its first day ticked', () => {
    const day = (d: string) => ({ start: utc(d), end: new Date(utc(d).getTime() + 86_400_000) });
    const span = coverageSpan([day('2026-11-02'), day('2026-11-03')]);
    expect([span.start, span.end, span.firstDay].map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2026-10-27',
      '2026-11-10',
      '2026-11-02',
    ]);
    const { ticks, format } = dateTicks(span.start, span.end, 300, { anchor: span.firstDay });
    expect(ticks.map(format)).toEqual(['2 Nov', '9 Nov']);
    const long = coverageSpan([day('2026-09-01'), day('2026-11-03')]);
    expect([long.start, long.end].map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-09-01', '2026-11-04']);
  });

  it('widens the step to two days, a week or two weeks as the width allows', () => {
    expect(labels('2026-11-01', '2026-11-15', 1000)).toHaveLength(14);
    expect(labels('2026-11-01', '2026-11-15', 500)).toEqual([
      '1 Nov',
      '3 Nov',
      '5 Nov',
      '7 Nov',
      '9 Nov',
      '11 Nov',
      '13 Nov',
    ]);
    expect(labels('2026-11-01', '2026-11-15', 200)).toEqual(['1 Nov', '8 Nov']);
  });

  it('ticks longer spans on the first of the month, every few months when narrow', () => {
    expect(labels('2025-07-15', '2026-11-04', 1200)).toEqual([
      'Aug 2025',
      'Sep 2025',
      'Oct 2025',
      'Nov 2025',
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
      'Apr 2026',
      'May 2026',
      'Jun 2026',
      'Jul 2026',
      'Aug 2026',
      'Sep 2026',
      'Oct 2026',
      'Nov 2026',
    ]);
    expect(labels('2025-07-15', '2026-11-04', 300)).toEqual(['Jan 2026', 'Jul 2026']);
    const { ticks } = dateTicks(utc('2025-07-15'), utc('2026-11-04'), 300);
    expect(ticks.every((t) => t.getUTCDate() === 1 && t.getUTCHours() === 0)).toBe(true);
  });
});
