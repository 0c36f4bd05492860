/**
 * Which days of a query's search console rows hold one period's totals rather than the day's own figures: an
 * import without per-date rows (the Search Analytics API's response without a date key, the Performance export's
 * Queries.csv) places its totals on the period's last day, and only the store's version knows which import brought a row. The version read is the one
 * the crawl joined, so the answer matches the crawl's rows even while a newer version waits for its refresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DateRange } from '../../catalog/api.ts';
import { parquetFileOf } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { versionRowsOf } from '../sources/merge-version.ts';
import { IMPORT_COLUMN, SOURCE_META_FILE, sourceDir, sourceMetaSchema } from '../source-data/source-store.ts';

/** Where a crawl's search console rows came from: the store's version id, or 'export' / absent for none. */
export interface JoinedVersion {
  dataDir: string;
  websiteId: string;
  versionId: string | undefined;
}

/**
 * Day ('yyyy-MM-dd') → the period whose totals the query's rows on that day are, in `table` (search_console_queries
 * or search_console_site: the one the report's figures over time come from).
 */
export async function periodDaysOf(
  conn: DuckDBConnection,
  joined: JoinedVersion | undefined,
  query: string,
  range: DateRange,
  table: 'search_console_queries' | 'search_console_site',
): Promise<Map<string, DateRange>> {
  const days = new Map<string, DateRange>();
  if (!joined?.versionId) return days;
  const dir = path.join(sourceDir(joined.dataDir, joined.websiteId, 'search-console'), joined.versionId);
  const metaFile = path.join(dir, SOURCE_META_FILE);
  if (!fs.existsSync(metaFile)) return days;
  const meta = sourceMetaSchema.parse(JSON.parse(fs.readFileSync(metaFile, 'utf8')));
  const periods = new Map(
    meta.imports.flatMap((i) => (i.id !== undefined && i.coverage.granularity === 'period' ? [[i.id, i]] : [])),
  );
  if (periods.size === 0 || !(table in meta.tables)) return days;
  const ids = [...periods.keys()].map(quoteLiteral).join(', ');
  const rows = await versionRowsOf(conn, path.join(dir, parquetFileOf(table)), 'date, query');
  const reader = await conn.runAndReadAll(
    `SELECT DISTINCT strftime(date, '%Y-%m-%d') AS day, ${quoteIdent(IMPORT_COLUMN)}::VARCHAR AS import
     FROM ${rows}
     WHERE ${quoteIdent(IMPORT_COLUMN)} IN (${ids}) AND lower(query) = lower($1)
       AND date BETWEEN $2::DATE AND $3::DATE
     ORDER BY day, import`,
    [query, range.start, range.end],
  );
  for (const row of reader.getRowObjects()) {
    const period = periods.get(String(row.import));
    if (period) days.set(String(row.day), { start: period.coverage.start, end: period.coverage.end });
  }
  return days;
}
