/**
 * What is at stake on each report's URLs (catalog/stakes.ts), precomputed at load into `report_stakes`: the source
 * rows of the crawl's data window summed per URL once, then summed over the distinct URLs of each report's
 * precomputed rows. Sums are stored whatever is connected; which figures a crawl shows is decided when it is read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DataSourceId } from '../../catalog/data-sources.ts';
import { STAKE_FIGURES, STAKE_SOURCES, type StakeSums } from '../../catalog/stakes.ts';
import { quoteIdent, textOf } from '../db/duckdb.ts';
import { type DateRange, type ReportShape } from './report-shape.ts';
import { ident, joinSql, raw, sql, tableRef, type SqlFragment } from './sql.ts';

export const REPORT_STAKES_TABLE = 'report_stakes';
/** Per URL sums of every figure over the crawl's window (stakeUrlRelation), kept for the rows' at-stake order. */
export const URL_STAKES_TABLE = 'url_stakes';

/** Each source table's contribution: its figures as SQL over its own rows. */
const CONTRIBUTIONS: readonly { table: string; figures: Partial<Record<(typeof STAKE_FIGURES)[number], string>> }[] = [
  { table: 'search_console', figures: { clicks: '"clicks"', impressions: '"impressions"' } },
  { table: 'analytics', figures: { sessions: '"sessions"', conversions: '"conversions"', revenue: '"revenue"' } },
  { table: 'ads_one', figures: { ad_spend: '"costs"' } },
  { table: 'ads_two', figures: { ad_spend: '"costs"' } },
];

/**
 * Per URL sums of every figure over the range, from the source tables the crawl database has: one row per URL any
 * of them knows, a figure 0 where its source says nothing of the URL.
 */
export function stakeUrlRelation(alias: string, tables: ReadonlySet<string>, range: DateRange): SqlFragment {
  const parts = CONTRIBUTIONS.filter((c) => tables.has(c.table)).map(({ table, figures }) => {
    const values = STAKE_FIGURES.map((f) => `CAST(${figures[f] ?? '0'} AS DOUBLE) AS ${quoteIdent(f)}`).join(', ');
    return sql`SELECT "url", ${raw(values)} FROM ${tableRef(alias, table)}
      WHERE "date" BETWEEN CAST(${range.start} AS DATE) AND CAST(${range.end} AS DATE)`;
  });
  const sums = raw(STAKE_FIGURES.map((f) => `COALESCE(sum(${quoteIdent(f)}), 0) AS ${quoteIdent(f)}`).join(', '));
  if (parts.length === 0)
    return raw(
      `SELECT NULL::VARCHAR AS "url", ${STAKE_FIGURES.map((f) => `0::DOUBLE AS ${quoteIdent(f)}`).join(', ')} WHERE FALSE`,
    );
  return sql`SELECT "url", ${sums} FROM (${joinSql(parts, ' UNION ALL ')}) WHERE "url" IS NOT NULL GROUP BY "url"`;
}

/**
 * The figures summed over the distinct URLs of `rows` (a relation with the report's URL column): the rows of
 * `stakeUrls` (one per URL) whose URL the rows have. The rows' URLs are hashed, not the million of `stakeUrls`, which
 * cost every report 0.13 s or more at 1M URLs.
 */
export function reportStakeSql(shape: ReportShape, rows: SqlFragment, stakeUrls: SqlFragment): SqlFragment {
  const sums = raw(STAKE_FIGURES.map((f) => `COALESCE(sum("s".${quoteIdent(f)}), 0)`).join(', '));
  return sql`SELECT ${sums} FROM (${stakeUrls}) "s" WHERE "s"."url" IN (SELECT ${ident(shape.urlColumn)} FROM (${rows}))`;
}

/**
 * A row table's position (its rowid) as the page query's relations name it (row-source.ts withOrdinal). A crawl
 * with a source of a stake connected stores its row tables in the at-stake order (withStakeColumns' order: the
 * stakes, then the key ordinal), so there the position is the row's place in that order: a page in it is a range
 * of row ids and the export streams without a sort.
 */
export const STAKE_ORDINAL_COLUMN = '_pos';
/** The key ordinal of a row table stored in the at-stake order (where the rowid is the place in that order). */
export const KEY_ORDINAL_COLUMN = '_ko';
/** The table whose presence says which visits figure the row tables are stored in the at-stake order of. */
export const stakeOrderMarker = (visits: StakeOrder['visits']): string => `stake_order_${visits}`;

/** Whether a source of any stake is connected: only then do rows sort by what is at stake. */
export const hasStakeSource = (connected: ReadonlySet<DataSourceId>): boolean =>
  STAKE_FIGURES.some((f) => STAKE_SOURCES[f].some((id) => connected.has(id)));

/** The visits figure of the at-stake order: sessions when analytics is connected, else search clicks. */
export const visitsOf = (connected: ReadonlySet<DataSourceId>): StakeOrder['visits'] =>
  connected.has('analytics') ? 'sessions' : 'clicks';

/** Whether a crawl database's row tables (rr_*, rm_*) are stored in an at-stake order rather than in key order. */
export const isStoredInStakeOrder = (tables: ReadonlySet<string>): boolean =>
  tables.has(stakeOrderMarker('sessions')) || tables.has(stakeOrderMarker('clicks'));

/** Writes URL_STAKES_TABLE, the per URL sums the row tables are sorted by; before any row table. */
export async function precomputeUrlStakes(
  conn: DuckDBConnection,
  database: string,
  tables: ReadonlySet<string>,
  range: DateRange,
): Promise<void> {
  const urls = stakeUrlRelation(database, tables, range);
  await conn.run(`CREATE OR REPLACE TABLE ${URL_STAKES_TABLE} AS ${urls.sql} ORDER BY "url"`, urls.params as never);
}

/**
 * Writes REPORT_STAKES_TABLE afresh for the reports' precomputed row tables, and the marker of the order the row
 * tables are stored in (`visits`; none: key order).
 */
export async function precomputeStakes(
  conn: DuckDBConnection,
  shapes: readonly ReportShape[],
  visits: StakeOrder['visits'] | undefined,
): Promise<void> {
  const columns = STAKE_FIGURES.map((f) => `${quoteIdent(f)} DOUBLE NOT NULL`).join(', ');
  await conn.run(`CREATE OR REPLACE TABLE ${REPORT_STAKES_TABLE} (report_id VARCHAR PRIMARY KEY, ${columns})`);
  for (const other of ['sessions', 'clicks'] as const)
    await conn.run(`DROP TABLE IF EXISTS ${stakeOrderMarker(other)}`);
  for (const shape of shapes) {
    const stake = reportStakeSql(
      shape,
      sql`SELECT * FROM ${ident(shape.rowTable)}`,
      raw(`SELECT * FROM ${URL_STAKES_TABLE}`),
    );
    const insert = sql`INSERT INTO ${raw(REPORT_STAKES_TABLE)} SELECT ${shape.report.id}, * FROM (${stake})`;
    await conn.run(insert.sql, insert.params as never);
  }
  if (visits) await conn.run(`CREATE TABLE ${stakeOrderMarker(visits)} AS SELECT 1 AS "stored"`);
}

/** The columns the at-stake row order sorts by, most significant first, all descending. */
export const STAKE_ORDER_COLUMNS = ['__stake_visits', '__stake_money', '__stake_impressions'] as const;

/**
 * The rows of `source` with what is at stake on each row's URL in the current crawl's window (0 where no source
 * knows the URL), as STAKE_ORDER_COLUMNS: visits (sessions with analytics, else search clicks), money (revenue plus
 * ad spend), impressions; the ordering catalog/stakes.ts compareStakes gives reports.
 */
export function withStakeColumns(
  relation: SqlFragment,
  shape: ReportShape,
  current: { alias: string },
  order: StakeOrder,
): SqlFragment {
  const [visits, money, impressions] = STAKE_ORDER_COLUMNS.map((c) => ident(c));
  const [v, m, i] = stakeFigureSql(raw('"s"'), order.visits);
  return sql`SELECT "r".*, ${v!} AS ${visits!}, ${m!} AS ${money!}, ${i!} AS ${impressions!}
    FROM (${relation}) "r" LEFT JOIN ${tableRef(current.alias, URL_STAKES_TABLE)} "s"
      ON "s"."url" = "r".${ident(shape.urlColumn)}`;
}

/** The at-stake order's figures of a URL_STAKES_TABLE row `s` (0 where it has none), most significant first. */
function stakeFigureSql(s: SqlFragment, visits: StakeOrder['visits']): SqlFragment[] {
  return [
    sql`COALESCE(${s}.${ident(visits)}, 0)`,
    sql`COALESCE(${s}."revenue" + ${s}."ad_spend", 0)`,
    sql`COALESCE(${s}."impressions", 0)`,
  ];
}

/** The at-stake order of rows joined with their URL's sums `s` (URL_STAKES_TABLE), before the key tiebreak. */
export const stakeOrderSql = (s: SqlFragment, visits: StakeOrder['visits']): SqlFragment =>
  joinSql(
    stakeFigureSql(s, visits).map((f) => sql`${f} DESC`),
    ', ',
  );

/** How a crawl's rows sort by what is at stake: its visits figure (sessions when analytics is connected). */
export interface StakeOrder {
  visits: 'sessions' | 'clicks';
  /** The crawl's row tables are stored in this order (STAKE_ORDINAL_COLUMN). */
  isStored: boolean;
}

/** The stored sums of an attached crawl database by report; undefined when it has none (precomputed before stakes). */
export async function readStakes(
  conn: DuckDBConnection,
  database: string,
  tables: ReadonlySet<string>,
): Promise<Map<string, StakeSums> | undefined> {
  if (!tables.has(REPORT_STAKES_TABLE)) return undefined;
  const reader = await conn.runAndReadAll(
    `SELECT report_id, ${STAKE_FIGURES.map(quoteIdent).join(', ')} FROM ${quoteIdent(database)}.${REPORT_STAKES_TABLE}`,
  );
  const stakes = new Map<string, StakeSums>();
  for (const row of reader.getRowObjectsJS())
    stakes.set(textOf(row.report_id), Object.fromEntries(STAKE_FIGURES.map((f) => [f, Number(row[f])])) as StakeSums);
  return stakes;
}

/**
 * The at-stake row order of a crawl with these sources connected and its per URL sums kept; undefined (rows in key
 * order) when no source of a stake is connected or the crawl was precomputed without the sums.
 */
export function stakeOrderOf(
  connected: ReadonlySet<DataSourceId>,
  tables: ReadonlySet<string>,
): StakeOrder | undefined {
  if (!hasStakeSource(connected) || !tables.has(URL_STAKES_TABLE)) return undefined;
  const visits = visitsOf(connected);
  return { visits, isStored: tables.has(stakeOrderMarker(visits)) };
}
