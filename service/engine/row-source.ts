/**
 * Where a request's rows come from: the precomputed row table of the crawl (`rr_*`, see precompute.ts) when it
 * matches the definition and the request's metrics scope is the crawl's default (its own date range, all channels),
 * otherwise the live relation (the report filter over the base table with joined metric aggregates). Added and
 * Removed use the precomputed parts when the comparison is the crawl the rows were diffed against, and an anti-join
 * by key columns otherwise; the comparison side is always evaluated over its own default range.
 */
import {
  reportRowsLive,
  sortedCopyOf,
  usesMetrics,
  type DateRange,
  type MetricScope,
  type ReportShape,
} from './report-shape.ts';
import type { CrawlTarget, PrecomputedReport, RowsRequest } from './rows-request.ts';
import { REASON_COLUMN, withRemovalReasons } from './removal-reasons.ts';
import { ident, raw, sql, tableRef, type SqlFragment } from './sql.ts';
import { isStoredInStakeOrder, KEY_ORDINAL_COLUMN } from './stakes.ts';
import { urlMatchTableOf } from './url-match.ts';

const sameRange = (a: DateRange, b: DateRange): boolean => a.start === b.start && a.end === b.end;

/** The crawl's precomputed rows for this report, when they can answer a request with this metrics scope. */
function usableCopy(target: CrawlTarget, shape: ReportShape, scope: MetricScope): PrecomputedReport | undefined {
  const stored = target.precomputed.get(shape.report.id);
  if (!stored || stored.fingerprint !== shape.fingerprint) return undefined;
  if (!target.tables.has(stored.rowTable) || !target.tables.has(stored.removedTable)) return undefined;
  if (usesMetrics(shape) && (scope.channel !== undefined || !sameRange(scope.range, target.defaultRange)))
    return undefined;
  return stored;
}

/** A relation of report rows: the stored columns, `_sub` when precomputed, and a key-order tiebreak. */
export interface RowSource {
  relation: SqlFragment;
  /** The crawl the rows come from (sub-rows are computed there when not precomputed). */
  alias: string;
  isPrecomputed: boolean;
  /** Columns that order rows like the key columns: `_ord` (the rowid) in a row table, else the keys themselves. */
  tiebreak: readonly string[];
  /**
   * Set when the relation is the rows of a precomputed row table matching `where`: pages then sort row ids only.
   * `_ord` numbers the rows in key order and `_pos` is the rowid, the place in the order the table is stored in:
   * key order, or the at-stake order (`isStakeOrdered`). When every row matches (`isContiguous`), a page in the
   * stored order is a range read.
   */
  stored?: {
    table: SqlFragment;
    where: SqlFragment;
    isContiguous: boolean;
    isStakeOrdered: boolean;
    /** The table's URL-match copy (url-match.ts) and the prefix it codes, when it has one. */
    urlMatch?: UrlMatchCopy;
    /** The table's copy sorted by a column (sorted-copies.ts), when it has one. */
    sortedCopy?: SortedCopyLookup;
  };
  knownTotal?: number;
}

/** A precomputed row table's key ordinal: its rowid in key order, KEY_ORDINAL_COLUMN in the at-stake order. */
export const keyOrdinalOf = (stored: { isStakeOrdered: boolean }, r = '"r"'): SqlFragment =>
  raw(stored.isStakeOrdered ? `${r}.${ident(KEY_ORDINAL_COLUMN).sql}` : `${r}.rowid`);

/** A precomputed row table with its key ordinal as `_ord` and its rowid as `_pos`. */
export const withOrdinal = (table: SqlFragment, isStakeOrdered = false): SqlFragment =>
  sql`(SELECT ${keyOrdinalOf({ isStakeOrdered }, '"t"')} AS "_ord", "t".rowid AS "_pos", "t".* FROM ${table} "t")`;

type SortedCopyLookup = (column: string, desc: boolean) => SqlFragment | undefined;

export interface UrlMatchCopy {
  table: SqlFragment;
  prefix: string;
}

/** A row table of the crawl, with its URL-match copy and its sorted copies when the crawl has them. */
function rowTableOf({ alias, tables, urlMatchPrefix }: CrawlTarget, name: string) {
  const copy = urlMatchTableOf(name);
  const sortedCopy: SortedCopyLookup = (column, desc) => {
    const sorted = sortedCopyOf(name, column, desc);
    return tables.has(sorted) ? tableRef(alias, sorted) : undefined;
  };
  const urlMatch =
    urlMatchPrefix !== undefined && tables.has(copy)
      ? { table: tableRef(alias, copy), prefix: urlMatchPrefix }
      : undefined;
  return { table: tableRef(alias, name), urlMatch, sortedCopy };
}

function storedSource(
  {
    table,
    urlMatch,
    sortedCopy,
  }: { table: SqlFragment; urlMatch: UrlMatchCopy | undefined; sortedCopy: SortedCopyLookup },
  where: SqlFragment | undefined,
  alias: string,
  knownTotal: number,
  isStakeOrdered = false,
): RowSource {
  return {
    relation: sql`SELECT * FROM ${withOrdinal(table, isStakeOrdered)} "r" WHERE ${where ?? raw('TRUE')}`,
    alias,
    isPrecomputed: true,
    tiebreak: ['_ord'],
    stored: {
      table,
      where: where ?? raw('TRUE'),
      isContiguous: where === undefined,
      isStakeOrdered,
      ...(where === undefined && urlMatch && { urlMatch }),
      ...(where === undefined && { sortedCopy }),
    },
    knownTotal,
  };
}

function crawlRows(target: CrawlTarget, shape: ReportShape, scope: MetricScope): RowSource {
  const copy = usableCopy(target, shape, scope);
  if (copy)
    return storedSource(
      rowTableOf(target, copy.rowTable),
      undefined,
      target.alias,
      copy.rowCount,
      isStoredInStakeOrder(target.tables),
    );
  const relation = reportRowsLive(shape, {
    alias: target.alias,
    metrics: scope,
    tables: target.tables,
    connected: target.connected,
  });
  return { relation, alias: target.alias, isPrecomputed: false, tiebreak: shape.keyColumns };
}

export const keyMatch = (shape: ReportShape, a: string, b: string): SqlFragment =>
  raw(
    shape.keyColumns
      .map((k) => `${ident(a).sql}.${ident(k).sql} IS NOT DISTINCT FROM ${ident(b).sql}.${ident(k).sql}`)
      .join(' AND '),
  );

export const EMPTY: unique symbol = Symbol('empty');

/** The rows of the request's tab, before the user filter, checklist, order and page. */
export function tabRows(req: RowsRequest, shape: ReportShape): RowSource | typeof EMPTY {
  const scope: MetricScope = { range: req.dataDateRange, channel: req.channel };
  const current = crawlRows(req.current, shape, scope);
  if (req.differenceType === 'all') return current;
  const comparison = req.comparison;
  if (!comparison) return EMPTY;

  const copy = usableCopy(req.current, shape, scope);
  const reason = req.differenceType === 'removed' ? req.removalReason : undefined;
  if (copy && copy.previousCrawlId === comparison.crawlId && copy.previousDataId === comparison.dataId) {
    if (req.differenceType === 'added')
      return storedSource(
        rowTableOf(req.current, copy.rowTable),
        raw('"r"."_added"'),
        req.current.alias,
        copy.added ?? 0,
        isStoredInStakeOrder(req.current.tables),
      );
    const removed = rowTableOf(req.current, copy.removedTable);
    const isStakeOrdered = isStoredInStakeOrder(req.current.tables);
    return reason === undefined
      ? storedSource(removed, undefined, comparison.alias, copy.removed ?? 0, isStakeOrdered)
      : storedSource(
          removed,
          sql`"r".${ident(REASON_COLUMN)} = ${reason}`,
          comparison.alias,
          copy.removedByReason?.[reason] ?? 0,
          isStakeOrdered,
        );
  }

  const other = crawlRows(comparison, shape, { range: comparison.defaultRange });
  const [kept, against] = req.differenceType === 'added' ? [current, other] : [other, current];
  const keys = raw(shape.keyColumns.map((k) => ident(k).sql).join(', '));
  const left = sql`SELECT "x".* FROM (${kept.relation}) "x" WHERE NOT EXISTS (SELECT 1 FROM (SELECT ${keys} FROM (${against.relation})) "y" WHERE ${keyMatch(shape, 'x', 'y')})`;
  if (req.differenceType === 'added')
    return { relation: left, alias: kept.alias, isPrecomputed: kept.isPrecomputed, tiebreak: kept.tiebreak };
  const reasoned = withRemovalReasons(left, shape, req.current.alias, req.current.tables);
  return {
    relation:
      reason === undefined
        ? reasoned
        : sql`SELECT * FROM (${reasoned}) "w" WHERE "w".${ident(REASON_COLUMN)} = ${reason}`,
    alias: kept.alias,
    isPrecomputed: kept.isPrecomputed,
    tiebreak: kept.tiebreak,
  };
}
