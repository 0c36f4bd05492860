/** Figures the query-report dialog derives from the call's answer. */
import type { DataSourceId } from '../../../../catalog/data-sources.ts';
import type { MonthlyRecord, QueryReport, SearchConsolePoint } from '../../api/query-report.ts';

/** `source` when the query call lists it as not connected for the website. */
export const notConnectedSource = (report: QueryReport, source: DataSourceId): DataSourceId | undefined =>
  report.notConnected.includes(source) ? source : undefined;

export interface SearchConsoleTotals {
  clicks: number;
  impressions: number;
  ctr: number;
  /** Weighted by impressions, as the service weights positions; null without impressions. */
  position: number | null;
}

export function searchConsoleTotals(points: readonly SearchConsolePoint[]): SearchConsoleTotals {
  let clicks = 0;
  let impressions = 0;
  let weighted = 0;
  let weight = 0;
  for (const p of points) {
    clicks += p.clicks;
    impressions += p.impressions;
    if (p.position !== null) {
      weighted += p.position * p.impressions;
      weight += p.impressions;
    }
  }
  return {
    clicks,
    impressions,
    ctr: impressions > 0 ? clicks / impressions : 0,
    position: weight > 0 ? weighted / weight : null,
  };
}

export interface DatedValue {
  date: Date;
  value: number;
}

/** 'yyyy-MM-dd' days as UTC dates, oldest first; unparseable days are dropped. */
export function datedValues<T extends { date: string }>(
  rows: readonly T[],
  value: (row: T) => number | null,
): DatedValue[] {
  return rows
    .map((row) => ({ date: new Date(`${row.date}T00:00:00Z`), value: value(row) }))
    .filter((p): p is DatedValue => !Number.isNaN(p.date.getTime()) && p.value !== null && Number.isFinite(p.value))
    .sort((a, b) => a.date.getTime() - b.date.getTime());
}

/** One period's total: drawn across its days, never as daily points. */
export interface PeriodValue {
  start: Date;
  /** The day after the period's last, so a band covers its last day too. */
  end: Date;
  value: number;
  /** 'total for 1–14 Nov'. */
  label: string;
}

export interface MeasureSeries {
  days: DatedValue[];
  periods: PeriodValue[];
}

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-11-01'..'2026-11-14' → '1–14 Nov'; months and years only where they differ. */
export function periodText(start: string, end: string): string {
  const part = (day: string) => {
    const [year, month, date] = day.split('-').map(Number);
    return { year: year!, month: MONTHS[(month ?? 1) - 1] ?? '', date: date! };
  };
  const a = part(start);
  const b = part(end);
  const last = `${b.date} ${b.month}`;
  if (start === end) return last;
  if (a.year !== b.year) return `${a.date} ${a.month} ${a.year} – ${last} ${b.year}`;
  if (a.month !== b.month) return `${a.date} ${a.month} – ${last}`;
  return `${a.date}–${last}`;
}

/**
 * A search console measure split into daily points and period totals: a point whose `period` is set holds the
 * period's totals on its last day, so it becomes a period spanning its days instead of a point on that day.
 */
export function measureSeries(points: readonly SearchConsolePoint[], value: (p: SearchConsolePoint) => number | null) {
  const periods: PeriodValue[] = [];
  for (const p of points) {
    const v = value(p);
    if (!p.period || v === null || !Number.isFinite(v)) continue;
    const start = new Date(`${p.period.start}T00:00:00Z`);
    const end = new Date(new Date(`${p.period.end}T00:00:00Z`).getTime() + DAY_MS);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
    periods.push({ start, end, value: v, label: `total for ${periodText(p.period.start, p.period.end)}` });
  }
  periods.sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime());
  const days = datedValues(
    points.filter((p) => !p.period),
    value,
  );
  return { days, periods } satisfies MeasureSeries;
}

/** 'Clicks per day', or what the chart holds when some figures are period totals. */
export function measureTitle(measure: string, series: MeasureSeries): string {
  if (series.periods.length === 0) return `${measure} per day`;
  return series.days.length === 0 ? `${measure}, totals per period` : `${measure} per day and totals per period`;
}

/** Keyword planner months (1-12) as the first day of each month, oldest first. */
export function monthlyValues(records: readonly MonthlyRecord[]): DatedValue[] {
  return records
    .filter((r) => Number.isInteger(r.year) && r.month >= 1 && r.month <= 12 && Number.isFinite(r.search_volume))
    .map((r) => ({ date: new Date(Date.UTC(r.year, r.month - 1, 1)), value: r.search_volume }))
    .sort((a, b) => a.date.getTime() - b.date.getTime());
}

/** Keyword planner networks and countries arrive as codes: 'GOOGLE_SEARCH' → 'Google search'. */
export function codeLabel(code: string): string {
  const spaced = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
