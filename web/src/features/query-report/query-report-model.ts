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
