/**
 * The order of a page: the user's sort checked against the report's columns, ended by a tiebreak in key order so
 * pages never overlap or skip rows; and the keyset cursor that continues the default order after the last row sent.
 */
import { rankColumnOf, type ReportShape } from './report-shape.ts';
import type { RowSource } from './row-source.ts';
import { withOrdinal } from './row-source.ts';
import { MAX_ORDER_BY, RequestError, type RowsRequest } from './rows-request.ts';
import { and, ident, int, joinSql, raw, sql, type SqlFragment } from './sql.ts';

export interface OrderTerm {
  column: string;
  desc: boolean;
}

export const orderSql = (terms: readonly OrderTerm[], alias: string, reverse: boolean): SqlFragment =>
  raw(
    terms
      .map((t) => {
        const desc = t.desc !== reverse;
        // NULLs sort last in the forward order, whatever the direction.
        return `${ident(alias).sql}.${ident(t.column).sql} ${desc ? 'DESC' : 'ASC'} NULLS ${reverse ? 'FIRST' : 'LAST'}`;
      })
      .join(', '),
  );

/** The user's sort, checked against the report's columns; ascending key columns are the default order. */
export function resolveOrder(req: Pick<RowsRequest, 'orderBy'>, shape: ReportShape): OrderTerm[] {
  if (req.orderBy.length > MAX_ORDER_BY)
    throw new RequestError('orderBy', `orderBy takes at most ${MAX_ORDER_BY} columns`);
  const available = new Set(shape.columns.map((c) => c.id));
  const terms: OrderTerm[] = [];
  const seen = new Set<string>();
  req.orderBy.forEach((o, i) => {
    if (!available.has(o.id))
      throw new RequestError(`orderBy.${i}.id`, `${o.id} is not a column of report ${shape.report.id}`);
    if (seen.has(o.id)) return;
    seen.add(o.id);
    terms.push({ column: o.id, desc: o.desc });
  });
  // A sort by the keys in their own order is the default order.
  const isKeyPrefix = terms.every((t, i) => !t.desc && shape.keyColumns[i] === t.column);
  return isKeyPrefix ? [] : terms;
}

/** Refuses a cursor that is not the key values of a row (and its ordinal hint) or that continues a user's sort. */
export function validateCursor(after: readonly string[], shape: ReportShape, isDefaultOrder: boolean): void {
  if (!isDefaultOrder) throw new RequestError('after', 'a cursor continues the default order only: drop orderBy');
  const keys = shape.keyColumns.length;
  const hint = after[keys];
  if (
    (after.length !== keys && after.length !== keys + 1) ||
    after.some((v) => typeof v !== 'string') ||
    (hint !== undefined && !/^\d{1,15}$/.test(hint))
  )
    throw new RequestError('after', `after takes the ${shape.keyColumns.join(', ')} of the last row (nextCursor)`);
}

/** The user's terms on the source's sort columns, then its tiebreak. */
export function orderTerms(
  terms: readonly OrderTerm[],
  source: Pick<RowSource, 'isPrecomputed' | 'tiebreak'>,
  shape: ReportShape,
): OrderTerm[] {
  // Precomputed rows sort text by its integer rank and a sole key by its ordinal.
  const sortColumn = (column: string): string => {
    if (!source.isPrecomputed) return column;
    if (shape.rankedColumns.includes(column)) return rankColumnOf(column);
    if (shape.keyColumns.length === 1 && shape.keyColumns[0] === column) return '_ord';
    return column;
  };
  return [
    ...terms.map((t) => ({ column: sortColumn(t.column), desc: t.desc })),
    ...source.tiebreak.map((column) => ({ column, desc: false })),
  ];
}

/**
 * With a cursor over precomputed rows in the default order: queries for the cursor row's ordinal, tried in order
 * (by the ordinal hint of the cursor, a range read, then by key).
 */
export function cursorLookupsOf(req: RowsRequest, shape: ReportShape, source: RowSource): SqlFragment[] {
  const stored = source.stored;
  if (!req.after || !stored) return [];
  const after = req.after;
  const keyIs = and(shape.keyColumns.map((k, i) => sql`"r".${ident(k)} = ${after[i]!}`));
  const lookup = (extra?: SqlFragment): SqlFragment =>
    sql`SELECT "r"."_ord" FROM ${withOrdinal(stored.table, stored.isStakeOrdered)} "r" WHERE ${stored.where} AND ${and([extra, keyIs])}`;
  const hint = after[shape.keyColumns.length];
  const lookups: SqlFragment[] = [];
  // Zone maps of text columns hold only a short prefix, so a lookup by URL scans; the hint is a range read.
  if (hint !== undefined) lookups.push(lookup(sql`"r"."_ord" = ${int(Number(hint))}`));
  lookups.push(lookup());
  return lookups;
}

/** Rows strictly after the given key values in key order. */
export function afterKey(shape: ReportShape, after: readonly string[]): SqlFragment {
  const keys = shape.keyColumns;
  const alternatives = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`"r".${ident(k)} = ${after[j]!}`);
    return and([...equal, sql`"r".${ident(key)} > ${after[i]!}`]);
  });
  return sql`(${joinSql(alternatives, ' OR ')})`;
}
