/**
 * Precompute at load. For every report the crawl database gets:
 *
 * - `rr_<category>__<report>`: the report's rows with their display columns (joined metrics over the crawl's
 *   default date range), the sub-row list in `_sub`, `_added` (absent from the previous crawl), the lower-case URL
 *   in `_lc` and integer ranks `_rk_<column>` of the text columns. Stored in the default order (key order, or what
 *   is at stake when a source of a stake is connected), so a page in it is a rowid range, read without a scan or a
 *   sort, and the export streams without a sort (row-table.ts).
 * - `rm_<category>__<report>`: the same for the rows of the previous crawl that this one lacks (Removed), with
 *   the previous crawl's values.
 * - `report_counts`: one row per report with row_count, base, ems_rank, added/removed counts against the previous
 *   crawl, and the fingerprint of the definition the rows were computed from; `report_stakes`, `*_lc` (stakes.ts).
 * - beside large row tables, their sorted copies (sorted-copies.ts).
 *
 * Copies rather than row-id membership lists: a page read by row id from a 20M-row links table costs one decompressed
 * vector per row (~0.3-1 s for 1000 rows) in any stored order. The copies hold only a report's rows and columns, in
 * key order, so a page in the crawl's default scope never reads the base table (nor depends on its stored order).
 */
import path from 'node:path';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Manifest } from '../../catalog/export-contract.ts';
import { RANK_SCALE } from '../../catalog/constants.ts';
import { catalog } from '../../catalog/index.ts';
import type { ReportDefinition, Severity } from '../../catalog/schema.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { firstLine } from '../error-text.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import { readCrawlMeta } from '../store/layout.ts';
import {
  baseCountSql,
  columnList,
  metricRelation,
  reportRowsLive,
  rowTableOfCopy,
  shapeOf,
  subRowExpression,
  type DateRange,
  type MetricFamily,
  type ReportShape,
} from './report-shape.ts';
import type { PrecomputedReport } from './compile.ts';
import { REASON_COLUMN, reasonCountsOf, reasonCountsSql, withRemovalReasons } from './removal-reasons.ts';
import { REMOVAL_REASONS, noRemovals, type RemovalCounts } from '../../catalog/removal-reasons.ts';
import { ident, raw, sql, type SqlFragment } from './sql.ts';
import { createRowTable } from './row-table.ts';
import { writeSortedCopies } from './sorted-copies.ts';
import {
  hasStakeSource,
  precomputeStakes,
  precomputeUrlStakes,
  visitsOf,
  REPORT_STAKES_TABLE,
  type StakeOrder,
} from './stakes.ts';
import { rowTablesOf, urlMatchPrefixOf, writeUrlMatchCopies } from './url-match.ts';
import { dataSources, type DataSourceId } from '../../catalog/data-sources.ts';
import { connectedOf, connectedSourcesOf } from '../source-data/connected.ts';
import { joinedFromTables, type JoinedSources } from '../source-data/join-sources.ts';
import {
  PRECOMPUTE_INFO_TABLE,
  PRECOMPUTE_VERSION,
  REASON_COUNT_COLUMNS,
  REPORT_COUNTS_TABLE,
  readPrecomputed,
  reusableReports,
  scalar,
} from './stored-precompute.ts';

const PREVIOUS_ALIAS = '__thc_previous';

export interface PrecomputeContext {
  manifest: Manifest;
  previous: { crawlId: number; dbFile: string } | undefined;
  /** The sources the crawl joined (crawl.json `sources`); without it, those whose tables have rows, as for old crawls. */
  sources?: JoinedSources;
}

export interface PrecomputeOptions {
  /** Defaults to every report of the catalogue. */
  reports?: readonly ReportDefinition[];
  /** Called after each report with its id and the milliseconds it took. */
  onReport?: (reportId: string, ms: number) => void;
  urlMatchCopyMinRows?: number; // row tables this large get a URL-match copy (url-match.ts); tests lower it
  sortedCopyMinRows?: number; // row tables this large get sorted copies (sorted-copies.ts); tests lower it
}

/** ems_rank (guide §3): 0 without rows or for NONE, else round(lo + (hi - lo) * sqrt(min(1, rows / base))). */
export function emsRank(severity: Severity, rows: number, base: number): number {
  if (rows <= 0 || severity === 'NONE') return 0;
  const { lo, hi } = RANK_SCALE[severity];
  const share = base > 0 ? Math.min(1, rows / base) : 1;
  return Math.round(lo + (hi - lo) * Math.sqrt(share));
}

interface CrawlSide {
  alias: string;
  tables: Set<string>;
  connected: ReadonlySet<DataSourceId>;
  range: DateRange;
  /** Materialised per URL aggregates over the default range, created on first use. */
  metricTables: Map<MetricFamily, SqlFragment>;
  tempPrefix: string;
  /** The at-stake order's visits figure its row tables are stored in; undefined: key order. */
  stakeVisits?: StakeOrder['visits'] | undefined;
}

interface PreviousSide extends CrawlSide {
  crawlId: number;
  dataId: string;
  /** The reports precomputed in the previous crawl. */
  reports: ReadonlyMap<string, PrecomputedReport>;
}

async function metricTablesFor(
  conn: DuckDBConnection,
  side: CrawlSide,
  families: ReadonlySet<MetricFamily>,
): Promise<Partial<Record<MetricFamily, SqlFragment>>> {
  const result: Partial<Record<MetricFamily, SqlFragment>> = {};
  for (const family of families) {
    let ref = side.metricTables.get(family);
    if (!ref) {
      const name = `${side.tempPrefix}_${family}`;
      const relation = metricRelation(side.alias, family, { range: side.range }, side.tables);
      await conn.run(`CREATE OR REPLACE TEMP TABLE ${quoteIdent(name)} AS ${relation.sql}`, relation.params as never);
      ref = raw(`SELECT * FROM temp.main.${quoteIdent(name)}`);
      side.metricTables.set(family, ref);
    }
    result[family] = ref;
  }
  return result;
}

/** The report's rows in one crawl, with `_sub`, computed from its base tables. */
async function liveRows(conn: DuckDBConnection, shape: ReportShape, side: CrawlSide): Promise<SqlFragment> {
  const metricRelations = await metricTablesFor(conn, side, shape.families);
  const rows = reportRowsLive(shape, {
    alias: side.alias,
    metrics: { range: side.range },
    tables: side.tables,
    connected: side.connected,
    metricRelations,
  });
  const sub = subRowExpression(shape, side.alias);
  return sql`SELECT "r".*, ${sub ?? raw('NULL')} AS "_sub" FROM (${rows}) "r"`;
}

function readPreviousMeta(dbFile: string): {
  range?: DateRange;
  dataId: string;
  connected: ReadonlySet<DataSourceId>;
} {
  const dir = path.dirname(dbFile);
  try {
    const meta = readCrawlMeta(dir);
    return {
      range: { start: meta.manifest.dataStart, end: meta.manifest.dataEnd },
      dataId: dataIdOf(meta),
      connected: connectedSourcesOf(meta),
    };
  } catch {
    return { dataId: path.basename(dir), connected: new Set() };
  }
}

async function openPrevious(
  conn: DuckDBConnection,
  previous: NonNullable<PrecomputeContext['previous']>,
  fallbackRange: DateRange,
): Promise<PreviousSide> {
  await conn.run(`ATTACH ${quoteLiteral(previous.dbFile)} AS ${quoteIdent(PREVIOUS_ALIAS)} (READ_ONLY)`);
  const meta = readPreviousMeta(previous.dbFile);
  const { tables, reports } = await readPrecomputed(conn, PREVIOUS_ALIAS);
  return {
    alias: PREVIOUS_ALIAS,
    tables,
    connected: meta.connected,
    range: meta.range ?? fallbackRange,
    metricTables: new Map(),
    tempPrefix: '__thc_m_previous',
    crawlId: previous.crawlId,
    dataId: meta.dataId,
    reports,
  };
}

const keysEqual = (shape: ReportShape, a: string, b: string): string =>
  shape.keyColumns
    .map((k) => `${quoteIdent(a)}.${quoteIdent(k)} IS NOT DISTINCT FROM ${quoteIdent(b)}.${quoteIdent(k)}`)
    .join(' AND ');

/** Rows per source table of the crawl being precomputed, for a context without its joined sources. */
async function sourceRowsOf(conn: DuckDBConnection, tables: ReadonlySet<string>): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of dataSources.flatMap((s) => s.tables))
    if (tables.has(table)) rows[table] = Number(await scalar(conn, raw(`SELECT count(*) FROM ${quoteIdent(table)}`)));
  return rows;
}

const PREVIOUS_ROWS = '__thc_previous_rows';
const PREVIOUS_NEW_KEYS = '__thc_previous_new_keys';

/** Whether a row table of the previous crawl holds every column this build stores for the report. */
async function hasStoredColumns(conn: DuckDBConnection, shape: ReportShape, table: string): Promise<boolean> {
  const reader = await conn.runAndReadAll(
    `SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND schema_name = 'main' AND table_name = ?`,
    [PREVIOUS_ALIAS, table],
  );
  const names = new Set(reader.getRowsJS().map((r) => textOf(r[0])));
  return [...shape.storedColumns.map((c) => c.id), '_sub'].every((id) => names.has(id));
}

/**
 * The previous crawl's rows to diff against: its stored rows when they are still what this definition lists (read in
 * place), else the rows it listed under its older definition (when their columns allow), with the keys the new
 * definition lists there in PREVIOUS_NEW_KEYS, so a removed row it would not list is "report changed"; else the rows
 * the new definition lists there, in PREVIOUS_ROWS. `isChanged` when the definition changed.
 */
async function previousRows(
  conn: DuckDBConnection,
  shape: ReportShape,
  previous: PreviousSide,
): Promise<{ rows: SqlFragment; isChanged: boolean }> {
  const cols = columnList(shape.storedColumns);
  const stored = previous.reports.get(shape.report.id);
  const storedRows = (table: string) => sql`SELECT ${cols}, "_sub" FROM ${ident(previous.alias)}.${ident(table)}`;
  const create = async (name: string, rows: SqlFragment) =>
    conn.run(`CREATE OR REPLACE TEMP TABLE ${quoteIdent(name)} AS ${rows.sql}`, rows.params as never);
  if (stored?.fingerprint === shape.fingerprint) return { rows: storedRows(stored.rowTable), isChanged: false };
  const live = await liveRows(conn, shape, previous);
  if (!stored || !(await hasStoredColumns(conn, shape, stored.rowTable))) {
    // Read twice (for the added and the removed rows), and computed from the crawl's tables: made once.
    await create(PREVIOUS_ROWS, live);
    return { rows: raw(`SELECT * FROM temp.main.${quoteIdent(PREVIOUS_ROWS)}`), isChanged: false };
  }
  await create(PREVIOUS_NEW_KEYS, sql`SELECT ${raw(shape.keyColumns.map(quoteIdent).join(', '))} FROM (${live})`);
  return { rows: storedRows(stored.rowTable), isChanged: true };
}

async function precomputeReport(
  conn: DuckDBConnection,
  shape: ReportShape,
  current: CrawlSide,
  previous: PreviousSide | undefined,
): Promise<{ rows: number; added: number | null; removed: number | null; reasons: RemovalCounts | null }> {
  const temp = (name: string): string => `temp.main.${quoteIdent(name)}`;
  // Not materialised: the row table's sort reads the report's rows once, and the removed rows' diff reads the row
  // table just written (its key columns), which cost a copy of every report's rows (7% of a load).
  const cur = await liveRows(conn, shape, current);
  const prev = previous ? await previousRows(conn, shape, previous) : undefined;
  const match = (a: string, b: string): SqlFragment => raw(keysEqual(shape, a, b));
  const currentRows = prev
    ? sql`SELECT "c".*, NOT EXISTS (SELECT 1 FROM (${prev.rows}) "p" WHERE ${match('p', 'c')}) AS "_added" FROM (${cur}) "c"`
    : sql`SELECT *, FALSE AS "_added" FROM (${cur})`;
  const isReportChanged = prev?.isChanged
    ? sql`NOT EXISTS (SELECT 1 FROM ${raw(temp(PREVIOUS_NEW_KEYS))} "k" WHERE ${match('k', 'p')})`
    : undefined;
  const removedRows = prev
    ? withRemovalReasons(
        sql`SELECT "p".*, FALSE AS "_added" FROM (${prev.rows}) "p" WHERE NOT EXISTS (SELECT 1 FROM ${ident(shape.rowTable)} "c" WHERE ${match('p', 'c')})`,
        shape,
        current.alias,
        current.tables,
        isReportChanged,
      )
    : sql`SELECT *, FALSE AS "_added", NULL::VARCHAR AS ${ident(REASON_COLUMN)} FROM (${cur}) WHERE FALSE`;
  await createRowTable(conn, shape, shape.rowTable, currentRows, { stakeVisits: current.stakeVisits });
  await createRowTable(conn, shape, shape.removedTable, removedRows, {
    extra: [REASON_COLUMN],
    stakeVisits: current.stakeVisits,
  });
  const counts = await conn.runAndReadAll(
    `SELECT (SELECT count(*) FROM ${quoteIdent(shape.rowTable)}), (SELECT count(*) FILTER (WHERE "_added") FROM ${quoteIdent(shape.rowTable)}), (SELECT count(*) FROM ${quoteIdent(shape.removedTable)})`,
  );
  const [rows, added, removed] = (counts.getRowsJS()[0] ?? []).map(Number);
  const reasons =
    previous && removed
      ? reasonCountsOf((await conn.runAndReadAll(reasonCountsSql(ident(shape.removedTable)).sql)).getRowsJS())
      : noRemovals();
  return {
    rows: rows ?? 0,
    added: previous ? (added ?? 0) : null,
    removed: previous ? (removed ?? 0) : null,
    reasons: previous ? reasons : null,
  };
}

/**
 * Computes every report's rows, counts and rank into the new crawl's database (`conn`, read-write). `previous` is
 * the next older live crawl; it is attached read-only for the Added/Removed diff and detached again. In a copy of
 * a crawl's database (a refresh), reports already precomputed as this build would are kept, and everything else
 * precomputed before is dropped.
 */
export async function precomputeCrawl(
  conn: DuckDBConnection,
  ctx: PrecomputeContext,
  options: PrecomputeOptions = {},
): Promise<void> {
  const reports = options.reports ?? catalog.reports;
  const database = textOf(await scalar(conn, raw('SELECT current_database()')));
  const range = { start: ctx.manifest.dataStart, end: ctx.manifest.dataEnd };
  const stored = await readPrecomputed(conn, database);
  const connected = connectedOf(ctx.sources ?? joinedFromTables(await sourceRowsOf(conn, stored.tables)));
  const current: CrawlSide = {
    alias: database,
    tables: stored.tables,
    connected,
    range,
    metricTables: new Map(),
    tempPrefix: '__thc_m_current',
    stakeVisits: hasStakeSource(connected) ? visitsOf(connected) : undefined,
  };
  // CREATE TABLE ... ORDER BY stores rows in that order (so rowid is the default order's ordinal) only while
  // insertion order is preserved; the loader sets it too.
  await conn.run('SET preserve_insertion_order = true');
  const previous = ctx.previous ? await openPrevious(conn, ctx.previous, range) : undefined;
  const kept = reusableReports(stored, reports, previous);
  // Every report kept (a refresh for data no report reads): the sums of the at-stake order are the stored ones too.
  const isAllKept = kept.size === reports.length && current.tables.has(REPORT_STAKES_TABLE);
  let isCommitted = false;
  try {
    // Committed before the transaction: joined with a table written in it, DuckDB hashed every URL's sums (0.12 s a
    // table at 1M URLs). The same sources write the same sums again, so a failed precompute leaves the rest unchanged.
    if (!isAllKept) await precomputeUrlStakes(conn, database, current.tables, range);
    // One transaction: a statement's commit costs as much as the statement on a small crawl.
    await conn.run('BEGIN TRANSACTION');
    const keptTables = new Set([REPORT_COUNTS_TABLE, ...[...kept.values()].flatMap(rowTablesOf)]);
    for (const table of current.tables)
      if (
        (/^r[rm]_/.test(table) || table === REPORT_COUNTS_TABLE) &&
        !keptTables.has(table) &&
        !keptTables.has(rowTableOfCopy(table) ?? '')
      )
        await conn.run(`DROP TABLE ${quoteIdent(table)}`);
    await conn.run(`DROP TABLE IF EXISTS ${PRECOMPUTE_INFO_TABLE}`);
    if (kept.size > 0)
      await conn.run(`DELETE FROM ${REPORT_COUNTS_TABLE} WHERE report_id NOT IN (SELECT unnest(?::VARCHAR[]))`, [
        listValue([...kept.keys()]),
      ] as never);
    else
      await conn.run(`CREATE OR REPLACE TABLE ${REPORT_COUNTS_TABLE} (
      report_id VARCHAR PRIMARY KEY, row_table VARCHAR NOT NULL, removed_table VARCHAR NOT NULL,
      fingerprint VARCHAR NOT NULL,
      severity VARCHAR NOT NULL, row_count BIGINT NOT NULL, base BIGINT NOT NULL, ems_rank INTEGER NOT NULL,
      added_count BIGINT, removed_count BIGINT, previous_crawl_id INTEGER, previous_data_id VARCHAR,
      data_start DATE NOT NULL, data_end DATE NOT NULL, ${REASON_COUNT_COLUMNS.map((c) => `${c} BIGINT`).join(', ')})`);
    const bases = new Map<string, number>();
    for (const report of reports) {
      if (kept.has(report.id)) continue;
      const started = performance.now();
      const shape = shapeOf(report);
      const baseKey = `${shape.table.id}\u0000${shape.scope}`;
      let base = bases.get(baseKey);
      if (base === undefined) {
        base = Number(await scalar(conn, baseCountSql(shape, database)));
        bases.set(baseKey, base);
      }
      const { rows, added, removed, reasons } = await precomputeReport(conn, shape, current, previous).catch(
        (error: unknown) => {
          // A load of a large crawl that fails here (out of memory, say) should say which report it was on.
          throw new Error(`precomputing report ${report.id}: ${firstLine(error)}`, { cause: error });
        },
      );
      await conn.run(
        `INSERT INTO ${REPORT_COUNTS_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::DATE, ?::DATE, ?, ?, ?, ?)`,
        [
          report.id,
          shape.rowTable,
          shape.removedTable,
          shape.fingerprint,
          report.severity,
          rows,
          base,
          emsRank(report.severity, rows, base),
          added,
          removed,
          previous?.crawlId ?? null,
          previous?.dataId ?? null,
          range.start,
          range.end,
          ...REMOVAL_REASONS.map((reason) => (reasons ? reasons[reason] : null)),
        ],
      );
      options.onReport?.(report.id, performance.now() - started);
    }
    if (!isAllKept) await precomputeStakes(conn, reports.map(shapeOf), current.stakeVisits);
    await conn.run(`CREATE OR REPLACE TABLE ${PRECOMPUTE_INFO_TABLE} AS SELECT ${PRECOMPUTE_VERSION} AS version`);
    for (const name of [PREVIOUS_ROWS, PREVIOUS_NEW_KEYS])
      await conn.run(`DROP TABLE IF EXISTS temp.main.${quoteIdent(name)}`);
    await conn.run('COMMIT');
    isCommitted = true;
    const written = await readPrecomputed(conn, database);
    await writeUrlMatchCopies(conn, written, urlMatchPrefixOf(ctx.manifest.startUrl), options.urlMatchCopyMinRows);
    await writeSortedCopies(conn, written, options.sortedCopyMinRows);
  } finally {
    // The error that stopped the precompute is the one to report, not a failed rollback's.
    if (!isCommitted) await conn.run('ROLLBACK').catch(() => undefined);
    for (const side of [current, previous])
      for (const family of side?.metricTables.keys() ?? [])
        await conn.run(`DROP TABLE IF EXISTS temp.main.${quoteIdent(`${side!.tempPrefix}_${family}`)}`);
    if (previous) await conn.run(`DETACH ${quoteIdent(PREVIOUS_ALIAS)}`);
  }
}
