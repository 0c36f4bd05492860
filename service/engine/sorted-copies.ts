/**
 * Sorted copies: beside a row table of at least SORTED_COPY_MIN_ROWS rows, for each column and direction a user can
 * sort it by, the rows' row ids in that order (`_pos`, the copy's rowid the place in the order). A page of a whole
 * row table sorted by one column is then a rowid range of its copy, whatever its offset, instead of a sort of every
 * row: at 3M rows the middle page sorted by status took 110-160 ms to sort and 1.5 ms to read from a copy.
 *
 * The page's rows are then read by row id, as after a sort. That costs a scan when they lie apart in the table and
 * little when they are neighbours. Read by key ordinal instead, the middle page at 3M took 9 ms against 60, but at 10M
 * DuckDB no longer pushed the join's keys into the scan and the first page by status desc took 343-596 ms against
 * 10-39 ms by row id (bench/history.md).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent } from '../db/duckdb.ts';
import { sortedCopyOf, type ReportShape } from './report-shape.ts';
import { orderSql, orderTerms, resolveOrder } from './row-order.ts';
import { withOrdinal } from './row-source.ts';
import { ident, type SqlFragment } from './sql.ts';
import { isStoredInStakeOrder } from './stakes.ts';
import { largeRowTables, type StoredPrecompute } from './stored-precompute.ts';

/** Below this, sorting a table's row ids takes a few milliseconds and the copies are not written. */
export const SORTED_COPY_MIN_ROWS = 200_000;

/** The sorted copies a row table of `shape` gets: one per column and direction, but for the default order. */
export function sortedCopiesOf(shape: ReportShape, table: string): { name: string; order: SqlFragment }[] {
  return shape.columns.flatMap((column) =>
    [false, true].flatMap((desc) => {
      const terms = resolveOrder({ orderBy: [{ id: column.id, desc }] }, shape);
      if (terms.length === 0) return [];
      const order = orderSql(orderTerms(terms, { isPrecomputed: true, tiebreak: ['_ord'] }, shape), 'r', false);
      return [{ name: sortedCopyOf(table, column.id, desc), order }];
    }),
  );
}

/** The row tables of a crawl's precomputed reports that are large enough for sorted copies but lack some. */
export function lackingSortedCopies(stored: StoredPrecompute, minRows = SORTED_COPY_MIN_ROWS): string[] {
  return largeRowTables(stored, minRows)
    .filter(({ shape, table }) => sortedCopiesOf(shape, table).some((c) => !stored.tables.has(c.name)))
    .map(({ table }) => table);
}

/**
 * Writes the sorted copies each large row table lacks. After the precompute's commit: inside its transaction, a new
 * table's rowids are not yet its positions.
 */
export async function writeSortedCopies(
  conn: DuckDBConnection,
  stored: StoredPrecompute,
  minRows = SORTED_COPY_MIN_ROWS,
): Promise<void> {
  const isStakeOrdered = isStoredInStakeOrder(stored.tables);
  for (const { shape, table } of largeRowTables(stored, minRows)) {
    const rows = withOrdinal(ident(table), isStakeOrdered);
    for (const { name, order } of sortedCopiesOf(shape, table))
      if (!stored.tables.has(name))
        await conn.run(
          `CREATE OR REPLACE TABLE ${quoteIdent(name)} AS SELECT "r"."_pos" FROM ${rows.sql} "r" ORDER BY ${order.sql}`,
        );
  }
}
