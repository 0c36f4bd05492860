/**
 * What is at stake on each report's URLs (catalog/stakes.ts), precomputed at load into `report_stakes`: the source
 * rows of the crawl's data window summed per URL once, then summed over the distinct URLs of each report's
 * precomputed rows. Sums are stored whatever is connected; which figures a crawl shows is decided when it is read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DataSourceId } from '../../catalog/data-sources.ts';
import { STAKE_FIGURES, STAKE_SOURCES, type StakeSums } from '../../catalog/stakes.ts';
import { quoteIdent, textOf } from '../db/duckdb.ts';
import type { DateRange, ReportShape } from './report-shape.ts';
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

/** The figures summed over the distinct URLs of `rows` (a relation with the report's URL column). */
export function reportStakeSql(shape: ReportShape, rows: SqlFragment, stakeUrls: SqlFragment): SqlFragment {
  const sums = raw(STAKE_FIGURES.map((f) => `COALESCE(sum("s".${quoteIdent(f)}), 0)`).join(', '));
  return sql`SELECT ${sums} FROM (SELECT DISTINCT ${ident(shape.urlColumn)} AS "u" FROM (${rows})) "r"
    JOIN (${stakeUrls}) "s" ON "s"."url" = "r"."u"`;
}

/**
 * Each row table's place of a row in the at-stake order (withStakeColumns' order: the stakes, then the key ordinal),
 * from 0; a page in that order is then a sort of one integer column instead of a join of every row with its stakes.
 */
export const STAKE_ORDINAL_COLUMN = '_sk';
/** The table whose presence says which visits figure the row tables' STAKE_ORDINAL_COLUMN sorts by. */
export const stakeOrderMarker = (visits: StakeOrder['visits']): string => `stake_order_${visits}`;

/** The visits figure a crawl database's rows sort by: sessions when it has analytics rows (stakeOrderOf). */
async function storedVisits(conn: DuckDBConnection, tables: ReadonlySet<string>): Promise<StakeOrder['visits']> {
  if (!tables.has('analytics')) return 'clicks';
  const reader = await conn.runAndReadAll('SELECT count(*) > 0 FROM (SELECT 1 FROM analytics LIMIT 1)');
  return reader.getRowsJS()[0]?.[0] === true ? 'sessions' : 'clicks';
}

/** Sets STAKE_ORDINAL_COLUMN of every row of `shape`'s row table from URL_STAKES_TABLE. */
async function storeStakeOrdinals(
  conn: DuckDBConnection,
  shape: ReportShape,
  visits: StakeOrder['visits'],
): Promise<void> {
  const table = quoteIdent(shape.rowTable);
  const ordinal = quoteIdent(STAKE_ORDINAL_COLUMN);
  await conn.run(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${ordinal} BIGINT`);
  const order = stakeOrderSql(raw('"s"'), visits);
  await conn.run(`UPDATE ${table} SET ${ordinal} = "o"."sk"
    FROM (SELECT "r".rowid AS "rid", row_number() OVER (ORDER BY ${order.sql}, "r".rowid) - 1 AS "sk"
      FROM ${table} "r" LEFT JOIN ${URL_STAKES_TABLE} "s" ON "s"."url" = "r".${quoteIdent(shape.urlColumn)}) "o"
    WHERE ${table}.rowid = "o"."rid"`);
}

/** Writes REPORT_STAKES_TABLE afresh for the reports' precomputed row tables of the crawl database `database`. */
export async function precomputeStakes(
  conn: DuckDBConnection,
  database: string,
  tables: ReadonlySet<string>,
  range: DateRange,
  shapes: readonly ReportShape[],
): Promise<void> {
  const urls = stakeUrlRelation(database, tables, range);
  await conn.run(`CREATE OR REPLACE TABLE ${URL_STAKES_TABLE} AS ${urls.sql} ORDER BY "url"`, urls.params as never);
  const columns = STAKE_FIGURES.map((f) => `${quoteIdent(f)} DOUBLE NOT NULL`).join(', ');
  await conn.run(`CREATE OR REPLACE TABLE ${REPORT_STAKES_TABLE} (report_id VARCHAR PRIMARY KEY, ${columns})`);
  const visits = await storedVisits(conn, tables);
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
    await storeStakeOrdinals(conn, shape, visits);
  }
  await conn.run(`CREATE TABLE ${stakeOrderMarker(visits)} AS SELECT 1 AS "stored"`);
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

const stakeOrderSql = (s: SqlFragment, visits: StakeOrder['visits']): SqlFragment =>
  joinSql(
    stakeFigureSql(s, visits).map((f) => sql`${f} DESC`),
    ', ',
  );

/** How a crawl's rows sort by what is at stake: its visits figure (sessions when analytics is connected). */
export interface StakeOrder {
  visits: 'sessions' | 'clicks';
  /** The crawl's row tables hold each row's place in this order (STAKE_ORDINAL_COLUMN). */
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
  const isConnected = STAKE_FIGURES.some((f) => STAKE_SOURCES[f].some((id) => connected.has(id)));
  if (!isConnected || !tables.has(URL_STAKES_TABLE)) return undefined;
  const visits = connected.has('analytics') ? 'sessions' : 'clicks';
  return { visits, isStored: tables.has(stakeOrderMarker(visits)) };
}
