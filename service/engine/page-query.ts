/**
 * The page query: the report's row columns (with the checklist flag, sub-rows and the ordinal the next cursor needs)
 * of the rows a page holds. Over precomputed rows in the default order a page is a range of row ids, read straight
 * from the row table in its stored order; sorted by one column, a page of a whole large table is a range of that
 * column's sorted copy (sorted-copies.ts); otherwise the sort columns and row ids are sorted first and the page's
 * rows read by row id, and the far half of a tab is read backwards.
 */
import { REMOVAL_REASON_COLUMN } from '../../catalog/removal-reasons.ts';
import { REASON_COLUMN } from './removal-reasons.ts';
import { checklistStateSql } from './checklist-state.ts';
import { subRowExpression, type ReportShape } from './report-shape.ts';
import { orderSql, afterKey, type OrderTerm } from './row-order.ts';
import { withOrdinal, type RowSource } from './row-source.ts';
import {
  CHECKED_COLUMN,
  CHECKLIST_STATE_COLUMN,
  ORDINAL_COLUMN,
  type ChecklistStateOptions,
  PACKED_COLUMN,
  SUB_ROWS_COLUMN,
  TOTAL_COLUMN,
  type RowsRequest,
} from './rows-request.ts';
import { and, ident, int, joinSql, raw, sql, type SqlFragment } from './sql.ts';

/** What a page query is built from: the request, its rows' source, filters and order, and the selected columns. */
export interface PagePlan {
  req: RowsRequest;
  shape: ReportShape;
  source: RowSource;
  /** The user filter, segment scope and checklist conditions on "r". */
  filters: readonly SqlFragment[];
  order: readonly OrderTerm[];
  isDefaultOrder: boolean;
  /** The order is the one the row table is stored in (`order` is its `_pos`, or `_ord` in a key-ordered table). */
  isStoredOrder: boolean;
  /** The select list (selectList) over a relation of the row table's columns and its ordinal as `_ord`. */
  output: SqlFragment;
  /** The same select list over the row table itself, its key ordinal standing for `_ord` (precomputed rows). */
  rowTableOutput?: SqlFragment;
  /**
   * When the filters are 'URLs containing' alone on a whole row table with a URL-match copy: that copy (its rowid the
   * row table's, url-match.ts) and the match on it as "l".
   */
  urlMatch?: { table: SqlFragment; where: SqlFragment };
  /** When the order is one column's on a whole row table: that column's sorted copy (sorted-copies.ts). */
  sortedCopy?: SqlFragment;
}

/** A row table's key ordinal as withOrdinal names it; in the table itself, keyOrdinalOf. */
export const ORDINAL = raw('"r"."_ord"');
export const ROW_ID = raw('"r".rowid');
/** A row table's rowid as withOrdinal names it. */
const POSITION = raw('"r"."_pos"');

/**
 * The returned columns: row columns, the checklist flag, sub-rows, the removal reason (Removed tab), the ordinal and
 * the packed export text.
 */
export function selectList(
  shape: ReportShape,
  source: RowSource,
  isChecked: SqlFragment,
  packedColumns: readonly string[],
  {
    isRemoved = false,
    ordinal = ORDINAL,
    checklistState,
  }: {
    isRemoved?: boolean;
    ordinal?: SqlFragment;
    checklistState?: (ChecklistStateOptions & { checked: SqlFragment | undefined }) | undefined;
  } = {},
): SqlFragment {
  const sub = !shape.subRow
    ? undefined
    : source.isPrecomputed
      ? raw('"r"."_sub"')
      : subRowExpression(shape, source.alias);
  for (const id of packedColumns)
    if (!shape.columns.some((c) => c.id === id)) throw new Error(`${id} is not a row column of ${shape.report.id}`);
  const packed = packedColumns.map((id) => sql`coalesce(CAST("r".${ident(id)} AS VARCHAR), '')`);
  return joinSql(
    [
      ...shape.columns.map((c) => sql`"r".${ident(c.id)}`),
      sql`${isChecked} AS ${ident(CHECKED_COLUMN)}`,
      ...(sub ? [sql`${sub} AS ${ident(SUB_ROWS_COLUMN)}`] : []),
      ...(isRemoved ? [sql`"r".${ident(REASON_COLUMN)} AS ${ident(REMOVAL_REASON_COLUMN)}`] : []),
      ...(checklistState
        ? [sql`${checklistStateSql(shape, checklistState, isRemoved)} AS ${ident(CHECKLIST_STATE_COLUMN)}`]
        : []),
      ...(source.stored ? [sql`${ordinal} AS ${ident(ORDINAL_COLUMN)}`] : []),
      ...(packed.length > 0 ? [sql`concat(${joinSql(packed, ', chr(0), ')}) AS ${ident(PACKED_COLUMN)}`] : []),
    ],
    ', ',
  );
}

/**
 * The page for a given total (and the cursor's ordinal when a cursor lookup found one); undefined when the page
 * is empty.
 */
export function pageQuery(plan: PagePlan, total: number, cursorOrdinal?: number): SqlFragment | undefined {
  const { req, shape, source, filters, order, isDefaultOrder, isStoredOrder, output, rowTableOutput } = plan;
  const stored = source.stored;
  const hasFilters = filters.length > 0;
  const select = (from: SqlFragment, orderBy: SqlFragment): SqlFragment =>
    sql`SELECT ${output} FROM ${from} ORDER BY ${orderBy}`;
  const after = req.after?.slice(0, shape.keyColumns.length);
  const hasCursor = req.after !== undefined;
  if (!hasCursor && req.offset >= total) return undefined;
  const limit = req.limit;
  // The page's row ids, then its rows read by row id.
  const byPosition = (table: SqlFragment, ids: SqlFragment, orderBy: SqlFragment): SqlFragment =>
    select(sql`${table} "r" SEMI JOIN (${ids}) "p" ON ${POSITION} = "p"."_rid"`, orderBy);
  if (stored && (!hasCursor || cursorOrdinal !== undefined)) {
    const table = withOrdinal(stored.table, stored.isStakeOrdered);
    // Without filters, the positions of a whole row table are contiguous: a page in its stored order is a range read.
    // Its rows come in rowid order without a sort, as DuckDB keeps a scan's insertion order (tuneInstance makes sure
    // of it); sorting them took longer than reading them. The bounds are literals: DuckDB plans a statement with bound
    // values again on every run (to put the values into the scan's filters), so bound bounds would not skip planning
    // at a new offset, and a page asked for again would lose its kept plan (statement-cache.ts). A cursor continues
    // key order only, so with one the table is in key order here.
    if (isStoredOrder && !hasFilters && stored.isContiguous && rowTableOutput) {
      const first = hasCursor ? cursorOrdinal! + 1 : req.offset;
      return sql`SELECT ${rowTableOutput} FROM ${stored.table} "r" WHERE ${ROW_ID} >= ${int(first)} AND ${ROW_ID} < ${int(first + limit)}`;
    }
    // Some of the rows (the Added tab, a removal reason) in the stored order: the page is the first matches a scan
    // meets past the offset, as the scan keeps insertion order (as for 'URLs containing' in combinedQuery), where
    // sorting every match's position read them all (the Added tab's first page: 30 ms at p95 at 10M URLs, now 10).
    if (isStoredOrder && !hasFilters && !hasCursor) {
      const ids = sql`SELECT ${POSITION} AS "_rid" FROM ${table} "r" WHERE ${stored.where} LIMIT ${int(limit)} OFFSET ${int(req.offset)}`;
      return byPosition(table, ids, orderSql(order, 'r', false));
    }
    // The page's row ids are a rowid range of the sorted copy (sorted-copies.ts).
    if (plan.sortedCopy && !hasCursor && !hasFilters) {
      const ids = sql`SELECT "_pos" AS "_rid" FROM ${plan.sortedCopy} WHERE rowid >= ${int(req.offset)} AND rowid < ${int(req.offset + limit)}`;
      return byPosition(table, ids, orderSql(order, 'r', false));
    }
    if (hasCursor && isDefaultOrder) {
      const ids = sql`SELECT ${POSITION} AS "_rid" FROM ${table} "r" WHERE ${stored.where} AND ${ORDINAL} > ${int(cursorOrdinal!)} AND ${and(filters)} ORDER BY ${ORDINAL} LIMIT ${int(limit)}`;
      return byPosition(table, ids, ORDINAL);
    }
  }
  const where = and([...filters, after ? afterKey(shape, after) : undefined]);
  // The far half of the rows is read backwards, so a page never skips more than half the rows.
  const reverse = !hasCursor && req.offset + limit / 2 > total / 2;
  const take = reverse ? Math.min(limit, total - req.offset) : limit;
  const skip = reverse ? total - req.offset - take : hasCursor ? 0 : req.offset;
  const sorted = (reversed: boolean): SqlFragment => orderSql(order, 'r', reversed);
  if (stored) {
    // Sort only the sort columns and row ids, then read the page's rows by row id.
    const table = withOrdinal(stored.table, stored.isStakeOrdered);
    const ids = sql`SELECT ${POSITION} AS "_rid" FROM ${table} "r" WHERE ${stored.where} AND ${where} ORDER BY ${sorted(reverse)} LIMIT ${int(take)} OFFSET ${int(skip)}`;
    return byPosition(table, ids, sorted(false));
  }
  const inner = sql`SELECT * FROM (${source.relation}) "r" WHERE ${where} ORDER BY ${sorted(reverse)} LIMIT ${int(take)} OFFSET ${int(skip)}`;
  return select(sql`(${inner}) "r"`, sorted(false));
}

/**
 * The page and the total in one statement (each row carries TOTAL_COLUMN): a filtered page of precomputed rows in
 * the default or stored order, where counting and paging would otherwise scan the filtered column twice. Undefined
 * elsewhere.
 */
export function combinedQuery(plan: PagePlan): SqlFragment | undefined {
  const { req, source, filters, isDefaultOrder, isStoredOrder, output, urlMatch } = plan;
  const stored = source.stored;
  if (!stored || !(isDefaultOrder || isStoredOrder) || filters.length === 0 || req.after) return undefined;
  const table = withOrdinal(stored.table, stored.isStakeOrdered);
  const by = isStoredOrder ? POSITION : ORDINAL;
  // The copy is in the stored order (in another, key order in an at-stake-ordered table, the row table is scanned).
  // Its page is the first matches the scan meets: the service preserves insertion order (execute.ts), so a LIMIT
  // without ORDER BY stops there. Counting and paging scan twice, but a broad text no longer materialises and sorts
  // millions of matches: at 10M URLs 'product' took 82 ms against 150, and a text matching nothing 140 against 110.
  if (urlMatch && isStoredOrder) {
    const { table: copy, where } = urlMatch;
    return sql`SELECT ${output}, (SELECT count(*) FROM ${copy} "l" WHERE ${where}) AS ${ident(TOTAL_COLUMN)}
      FROM ${table} "r" SEMI JOIN (SELECT "l".rowid AS "_rid" FROM ${copy} "l" WHERE ${where} LIMIT ${int(req.limit)} OFFSET ${int(req.offset)}) "p"
      ON ${POSITION} = "p"."_rid" ORDER BY ${by}`;
  }
  const matches = sql`SELECT ${POSITION} AS "_rid", ${by} AS "_o" FROM ${table} "r" WHERE ${stored.where} AND ${and(filters)}`;
  return sql`WITH "m" AS MATERIALIZED (${matches}),
      "p" AS (SELECT "_rid" FROM "m" ORDER BY "_o" LIMIT ${int(req.limit)} OFFSET ${int(req.offset)})
      SELECT ${output}, (SELECT count(*) FROM "m") AS ${ident(TOTAL_COLUMN)}
      FROM ${table} "r" SEMI JOIN "p" ON ${POSITION} = "p"."_rid" ORDER BY ${by}`;
}
