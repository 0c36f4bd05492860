/**
 * What precompute leaves in a crawl database, read back: the version it ran under and, per report, its counts and
 * the names of its row tables (`report_counts`). The engine serves a report from these tables only when both are
 * present and the version is this build's; the loader's refresh and the next crawl's precompute read them too.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { REMOVAL_REASONS, type RemovalCounts } from '../../catalog/removal-reasons.ts';
import { quoteIdent, textOf } from '../db/duckdb.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { catalog } from '../../catalog/index.ts';
import type { PrecomputedReport } from './rows-request.ts';
import { shapeOf, type ReportShape } from './report-shape.ts';
import { raw, type SqlFragment } from './sql.ts';

export const REPORT_COUNTS_TABLE = 'report_counts';
export const PRECOMPUTE_INFO_TABLE = 'precompute_info';
/**
 * The version of what precompute writes: the tables' layout and the meaning of their values (engine SQL such as the
 * joined metrics and sub-rows); bump it with any change to either. A crawl precomputed under another version is served
 * live until `npm run load-crawl -- --refresh`. A report's definition and its metrics' SQL are in its fingerprint.
 */
export const PRECOMPUTE_VERSION = 10;
/** report_counts' removed rows per reason, in REMOVAL_REASONS order. */
export const REASON_COUNT_COLUMNS = REMOVAL_REASONS.map((reason) => `removed_${reason.replace(' ', '_')}`);

export async function scalar(conn: DuckDBConnection, fragment: SqlFragment): Promise<unknown> {
  const reader = await conn.runAndReadAll(fragment.sql, fragment.params as never);
  return reader.getRowsJS()[0]?.[0];
}

export async function tablesOf(conn: DuckDBConnection, database: string): Promise<Set<string>> {
  const reader = await conn.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main'`,
    [database],
  );
  return new Set(reader.getRowsJS().map((r) => textOf(r[0])));
}

export interface StoredPrecompute {
  /** The crawl database's tables. */
  tables: Set<string>;
  /** PRECOMPUTE_INFO_TABLE's version; 0 for a database precomputed before versions, or not at all. */
  version: number;
  /** Its precomputed reports with both row tables present; empty unless `version` is this build's. */
  reports: Map<string, PrecomputedReport>;
}

const reasonsOf = (r: Record<string, unknown>): RemovalCounts =>
  Object.fromEntries(
    REMOVAL_REASONS.map((reason, i) => [reason, Number(r[REASON_COUNT_COLUMNS[i]!] ?? 0)]),
  ) as RemovalCounts;
/** What an attached crawl database holds of precomputed reports. */
export async function readPrecomputed(conn: DuckDBConnection, database: string): Promise<StoredPrecompute> {
  const tables = await tablesOf(conn, database);
  const at = (table: string): string => `${quoteIdent(database)}.${table}`;
  const version = tables.has(PRECOMPUTE_INFO_TABLE)
    ? Number(await scalar(conn, raw(`SELECT max(version) FROM ${at(PRECOMPUTE_INFO_TABLE)}`)))
    : 0;
  const reports = new Map<string, PrecomputedReport>();
  if (version !== PRECOMPUTE_VERSION || !tables.has(REPORT_COUNTS_TABLE)) return { tables, version, reports };
  const reader = await conn.runAndReadAll(
    `SELECT report_id, row_table, removed_table, fingerprint, row_count, base, ems_rank, added_count, removed_count,
            previous_crawl_id, previous_data_id, ${REASON_COUNT_COLUMNS.join(', ')} FROM ${at(REPORT_COUNTS_TABLE)}`,
  );
  const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  for (const r of reader.getRowObjectsJS()) {
    const report: PrecomputedReport = {
      reportId: textOf(r.report_id),
      rowTable: textOf(r.row_table),
      removedTable: textOf(r.removed_table),
      fingerprint: textOf(r.fingerprint),
      rowCount: Number(r.row_count),
      base: Number(r.base),
      emsRank: Number(r.ems_rank),
      added: orNull(r.added_count),
      removed: orNull(r.removed_count),
      previousCrawlId: orNull(r.previous_crawl_id),
      previousDataId: r.previous_data_id === null ? null : textOf(r.previous_data_id),
      removedByReason: r.removed_count === null ? null : reasonsOf(r),
    };
    if (tables.has(report.rowTable) && tables.has(report.removedTable)) reports.set(report.reportId, report);
  }
  return { tables, version, reports };
}

/**
 * The reports a copy of a crawl's database (a refresh) already holds as this build would compute them: same
 * precompute version, same definition, diffed against the same previous crawl data.
 */
export function reusableReports(
  stored: StoredPrecompute,
  reports: readonly ReportDefinition[],
  previous: { crawlId: number; dataId: string } | undefined,
): Map<string, PrecomputedReport> {
  const kept = new Map<string, PrecomputedReport>();
  for (const report of reports) {
    const row = stored.reports.get(report.id);
    if (
      row?.fingerprint === shapeOf(report).fingerprint &&
      row.previousCrawlId === (previous?.crawlId ?? null) &&
      row.previousDataId === (previous?.dataId ?? null)
    )
      kept.set(report.id, row);
  }
  return kept;
}

/** The row tables of a crawl's precomputed reports (of this build's definitions) with `minRows` rows or more. */
export function largeRowTables(stored: StoredPrecompute, minRows: number): { shape: ReportShape; table: string }[] {
  return catalog.reports.flatMap((report) => {
    const counts = stored.reports.get(report.id);
    const shape = shapeOf(report);
    // Rows of another definition may lack the columns of this one; they are served live anyway.
    if (!counts || counts.fingerprint !== shape.fingerprint) return [];
    return [
      { table: counts.rowTable, rows: counts.rowCount },
      { table: counts.removedTable, rows: counts.removed ?? 0 },
    ].flatMap(({ table, rows }) => (rows >= minRows ? [{ shape, table }] : []));
  });
}
