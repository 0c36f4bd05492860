/** A precomputed row table (`rr_*`, `rm_*`, see precompute.ts) written from a report's rows. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent } from '../db/duckdb.ts';
import { columnList, LOWER_URL_COLUMN, rankColumnOf, type ReportShape } from './report-shape.ts';
import { ident, raw, sql, type SqlFragment } from './sql.ts';
import { KEY_ORDINAL_COLUMN, stakeOrderSql, URL_STAKES_TABLE, type StakeOrder } from './stakes.ts';

const KEY_ORDERED_ROWS = '__thc_key_ordered_rows';
const rankedValuesTable = (i: number): string => `__thc_ranked_values_${i}`;

/**
 * Creates a row table from `source` (a relation with the stored columns, `_sub` and `_added`) with the lower-case URL
 * and the text columns' ranks, stored in key order so that rowid is the key ordinal; or, given the at-stake order's
 * visits figure, stored in that order (stakes, then key) with the key ordinal in KEY_ORDINAL_COLUMN, so that a page
 * in the at-stake order is a rowid range.
 *
 * Each step is a sort, a distinct or a join, which DuckDB spills to disk past its memory limit: the rows sorted by key
 * into a temp table (whose rowids then count the key ordinal), each ranked column's distinct values sorted into one
 * (counting the dense rank), then both joined. A window over the rows (row_number, dense_rank) and a materialised CTE of
 * them held the whole report in memory and ran out of it at 10M URLs.
 */
export async function createRowTable(
  conn: DuckDBConnection,
  shape: ReportShape,
  name: string,
  source: SqlFragment,
  { extra = [], stakeVisits }: { extra?: readonly string[]; stakeVisits?: StakeOrder['visits'] | undefined } = {},
) {
  const temp = (table: string): string => `temp.main.${quoteIdent(table)}`;
  const keys = shape.keyColumns.map((k) => `"s".${quoteIdent(k)}`).join(', ');
  const sorted = sql`CREATE OR REPLACE TEMP TABLE ${raw(quoteIdent(KEY_ORDERED_ROWS))} AS SELECT * FROM (${source}) "s" ORDER BY ${raw(keys)}`;
  await conn.run(sorted.sql, sorted.params as never);
  for (const [i, id] of shape.rankedColumns.entries())
    await conn.run(
      `CREATE OR REPLACE TEMP TABLE ${quoteIdent(rankedValuesTable(i))} AS SELECT DISTINCT ${quoteIdent(id)} AS "v" FROM ${temp(KEY_ORDERED_ROWS)} WHERE ${quoteIdent(id)} IS NOT NULL ORDER BY "v"`,
    );
  // Inside the precompute's transaction rowids start at an offset, the same for every row of a table.
  const ordinalOf = (alias: string, table: string): string =>
    `("${alias}".rowid - (SELECT min(rowid) FROM ${temp(table)}))`;
  const rankColumns = shape.rankedColumns.map(
    (id, i) => `, CAST(${ordinalOf(`rk${i}`, rankedValuesTable(i))} + 1 AS INTEGER) AS ${quoteIdent(rankColumnOf(id))}`,
  );
  const rankJoins = shape.rankedColumns.map(
    (id, i) => ` LEFT JOIN ${temp(rankedValuesTable(i))} "rk${i}" ON "rk${i}"."v" = "s".${quoteIdent(id)}`,
  );
  const keyOrdinal = ident(KEY_ORDINAL_COLUMN);
  // The stake sort ends with the key ordinal, an integer, rather than the key columns' text.
  const stake = stakeVisits
    ? {
        column: sql`, ${raw(ordinalOf('s', KEY_ORDERED_ROWS))} AS ${keyOrdinal}`,
        join: sql` LEFT JOIN ${ident(URL_STAKES_TABLE)} "st" ON "st"."url" = "s".${ident(shape.urlColumn)}`,
        order: sql`${stakeOrderSql(raw('"st"'), stakeVisits)}, "s".rowid`,
      }
    : undefined;
  const create = sql`CREATE OR REPLACE TABLE ${ident(name)} AS
    SELECT "s"."_added", ${columnList(shape.storedColumns, 's')}, "s"."_sub"${raw(extra.map((c) => `, "s".${quoteIdent(c)}`).join(''))},
           lower("s".${ident(shape.urlColumn)}) AS ${ident(LOWER_URL_COLUMN)}${raw(rankColumns.join(''))}${stake?.column ?? raw('')}
    FROM ${raw(temp(KEY_ORDERED_ROWS))} "s"${raw(rankJoins.join(''))}${stake?.join ?? raw('')}
    ORDER BY ${stake?.order ?? raw('"s".rowid')}`;
  await conn.run(create.sql, create.params as never);
  for (const table of [KEY_ORDERED_ROWS, ...shape.rankedColumns.map((_, i) => rankedValuesTable(i))])
    await conn.run(`DROP TABLE IF EXISTS ${temp(table)}`);
}
