/**
 * Names in, bound values out: a report request (report, crawls, date range, tab, filters, sort, page) compiles to
 * SQL with positional parameters. Identifiers come only from the catalogue and the export contract, quoted;
 * request values are bound; LIMIT/OFFSET and ordinals are integers validated here.
 *
 * Two sources of rows:
 * - the precomputed row table of the crawl (`rr_*`, see precompute.ts) when it matches the definition and the
 *   request's metrics scope is the crawl's default (its own date range, all channels);
 * - otherwise the live relation: the report filter over the base table with joined metric aggregates.
 * Added and Removed use the precomputed parts when the comparison is the crawl the rows were diffed against, and
 * an anti-join by key columns otherwise. The comparison side is always evaluated over its own default range.
 */
import { CSV_CHUNK_SIZE, PAGE_SIZES } from '../../catalog/constants.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import type { ChecklistKey } from '../app-db/checklist.ts';
import {
  LOWER_URL_COLUMN,
  rankColumnOf,
  reportRowsLive,
  shapeOf,
  subRowExpression,
  usesMetrics,
  type DateRange,
  type MetricScope,
  type ReportShape,
} from './report-shape.ts';
import { and, fragmentKey, ident, int, joinSql, raw, sql, tableRef, type SqlFragment } from './sql.ts';

export const differenceTypes = ['all', 'added', 'removed'] as const;
export type DifferenceType = (typeof differenceTypes)[number];

/** The largest offset a request may ask for; far beyond any crawl, it only bounds the work. */
export const MAX_OFFSET = 50_000_000;
export const ALLOWED_LIMITS: readonly number[] = [...PAGE_SIZES, CSV_CHUNK_SIZE];
export const MAX_ORDER_BY = 8;
export const MAX_USER_FILTER_LENGTH = 2048;

/** A request the compiler refuses; the route answers 400 naming the field. */
export class RequestError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** What the crawl's `report_counts` row says about a report. */
export interface PrecomputedReport {
  reportId: string;
  rowTable: string;
  removedTable: string;
  fingerprint: string;
  rowCount: number;
  base: number;
  emsRank: number;
  added: number | null;
  removed: number | null;
  previousCrawlId: number | null;
  /** The data id (crawl-meta.ts) of the crawl the rows were diffed against. */
  previousDataId: string | null;
}

/** A crawl as the compiler needs it. */
export interface CrawlTarget {
  alias: string;
  crawlId: number;
  /** The identity of the crawl's data (crawl-meta.ts `dataIdOf`). */
  dataId: string;
  /** The crawl's data start and end (manifest), the default date range. */
  defaultRange: DateRange;
  /** Tables present in its database. */
  tables: ReadonlySet<string>;
  precomputed: ReadonlyMap<string, PrecomputedReport>;
}

export interface OrderBy {
  id: string;
  desc: boolean;
}

export interface RowsRequest {
  report: ReportDefinition;
  current: CrawlTarget;
  comparison?: CrawlTarget | undefined;
  dataDateRange: DateRange;
  channel?: string | undefined;
  differenceType: DifferenceType;
  userFilter?: string | undefined;
  /** The website segment's URL scope: only URLs starting with it (on url_to for link reports). */
  urlScope?: string | undefined;
  showChecked: boolean;
  /** A relation with the report's key columns: the checked rows (see checkedKeysRelation). */
  checked?: SqlFragment | undefined;
  orderBy: readonly OrderBy[];
  limit: number;
  offset: number;
  /** Keyset cursor: the key values of the last row received; the page continues after it in key order. */
  after?: readonly string[] | undefined;
}

/** The checked rows as a relation over bound string lists; undefined when nothing is checked. */
export function checkedKeysRelation(report: ReportDefinition, keys: readonly ChecklistKey[]): SqlFragment | undefined {
  if (keys.length === 0) return undefined;
  const [first, ...rest] = report.keyColumns;
  if (!first) return undefined;
  const valid = keys.filter((k) => k.subKeys.length === report.subKeyColumns.length);
  if (valid.length === 0) return undefined;
  const bySubKey = new Map(report.subKeyColumns.map((id, i) => [id, i]));
  const lists = [
    sql`unnest(CAST(${valid.map((k) => k.url)} AS VARCHAR[])) AS ${ident(first)}`,
    ...rest.map((id) => {
      const index = bySubKey.get(id);
      if (index === undefined) throw new Error(`key column ${id} of ${report.id} is not a sub-key`);
      return sql`unnest(CAST(${valid.map((k) => k.subKeys[index] ?? '')} AS VARCHAR[])) AS ${ident(id)}`;
    }),
  ];
  return sql`SELECT ${joinSql(lists, ', ')}`;
}

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
interface RowSource {
  relation: SqlFragment;
  /** The crawl the rows come from (sub-rows are computed there when not precomputed). */
  alias: string;
  isPrecomputed: boolean;
  /** Columns that order rows like the key columns: `_ord` (the rowid) in a row table, else the keys themselves. */
  tiebreak: readonly string[];
  /**
   * Set when the relation is the rows of a precomputed row table matching `where`: pages then sort row ids only,
   * and when every row matches (`isContiguous`), `_ord` numbers them in key order from 0, so a default-order page
   * is a range read.
   */
  stored?: { table: SqlFragment; where: SqlFragment; isContiguous: boolean };
  knownTotal?: number;
}

/** A precomputed row table with its rowid, the key ordinal, as `_ord`. */
const withOrdinal = (table: SqlFragment): SqlFragment => sql`(SELECT rowid AS "_ord", * FROM ${table})`;

function storedSource(
  table: SqlFragment,
  where: SqlFragment | undefined,
  alias: string,
  knownTotal: number,
): RowSource {
  return {
    relation: sql`SELECT * FROM ${withOrdinal(table)} "r" WHERE ${where ?? raw('TRUE')}`,
    alias,
    isPrecomputed: true,
    tiebreak: ['_ord'],
    stored: { table, where: where ?? raw('TRUE'), isContiguous: where === undefined },
    knownTotal,
  };
}

function crawlRows(target: CrawlTarget, shape: ReportShape, scope: MetricScope): RowSource {
  const copy = usableCopy(target, shape, scope);
  if (copy) return storedSource(tableRef(target.alias, copy.rowTable), undefined, target.alias, copy.rowCount);
  const relation = reportRowsLive(shape, { alias: target.alias, metrics: scope, tables: target.tables });
  return { relation, alias: target.alias, isPrecomputed: false, tiebreak: shape.keyColumns };
}

const keyMatch = (shape: ReportShape, a: string, b: string): SqlFragment =>
  raw(
    shape.keyColumns
      .map((k) => `${ident(a).sql}.${ident(k).sql} IS NOT DISTINCT FROM ${ident(b).sql}.${ident(k).sql}`)
      .join(' AND '),
  );

const EMPTY: unique symbol = Symbol('empty');

/** The rows of the request's tab, before the user filter, checklist, order and page. */
function tabRows(req: RowsRequest, shape: ReportShape): RowSource | typeof EMPTY {
  const scope: MetricScope = { range: req.dataDateRange, channel: req.channel };
  const current = crawlRows(req.current, shape, scope);
  if (req.differenceType === 'all') return current;
  const comparison = req.comparison;
  if (!comparison) return EMPTY;

  const copy = usableCopy(req.current, shape, scope);
  if (copy && copy.previousCrawlId === comparison.crawlId && copy.previousDataId === comparison.dataId) {
    return req.differenceType === 'added'
      ? storedSource(
          tableRef(req.current.alias, copy.rowTable),
          raw('"r"."_added"'),
          req.current.alias,
          copy.added ?? 0,
        )
      : storedSource(tableRef(req.current.alias, copy.removedTable), undefined, comparison.alias, copy.removed ?? 0);
  }

  const other = crawlRows(comparison, shape, { range: comparison.defaultRange });
  const [kept, against] = req.differenceType === 'added' ? [current, other] : [other, current];
  const keys = raw(shape.keyColumns.map((k) => ident(k).sql).join(', '));
  return {
    relation: sql`SELECT "x".* FROM (${kept.relation}) "x" WHERE NOT EXISTS (SELECT 1 FROM (SELECT ${keys} FROM (${against.relation})) "y" WHERE ${keyMatch(shape, 'x', 'y')})`,
    alias: kept.alias,
    isPrecomputed: kept.isPrecomputed,
    tiebreak: kept.tiebreak,
  };
}

interface OrderTerm {
  column: string;
  desc: boolean;
}

const orderSql = (terms: readonly OrderTerm[], alias: string, reverse: boolean): SqlFragment =>
  raw(
    terms
      .map((t) => {
        const desc = t.desc !== reverse;
        // NULLs sort last in the forward order, whatever the direction.
        return `${ident(alias).sql}.${ident(t.column).sql} ${desc ? 'DESC' : 'ASC'} NULLS ${reverse ? 'FIRST' : 'LAST'}`;
      })
      .join(', '),
  );

function validatePaging(req: RowsRequest, isWholeTab: boolean): void {
  if (!isWholeTab && !ALLOWED_LIMITS.includes(req.limit))
    throw new RequestError('limit', `limit must be one of ${ALLOWED_LIMITS.join(', ')}`);
  if (!Number.isSafeInteger(req.offset) || req.offset < 0 || req.offset > MAX_OFFSET)
    throw new RequestError('offset', `offset must be an integer from 0 to ${MAX_OFFSET}`);
  if (req.userFilter !== undefined && req.userFilter.length > MAX_USER_FILTER_LENGTH)
    throw new RequestError('userFilter', `userFilter is longer than ${MAX_USER_FILTER_LENGTH} characters`);
  if (req.urlScope !== undefined && req.urlScope.length > MAX_USER_FILTER_LENGTH)
    throw new RequestError('segmentId', `the segment's URL scope is longer than ${MAX_USER_FILTER_LENGTH} characters`);
  for (const [field, value] of [
    ['dataDateRange.start', req.dataDateRange.start],
    ['dataDateRange.end', req.dataDateRange.end],
  ] as const)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
      throw new RequestError(field, `${field} must be a date as YYYY-MM-DD`);
  if (req.dataDateRange.start > req.dataDateRange.end)
    throw new RequestError('dataDateRange', 'dataDateRange.start is after dataDateRange.end');
}

/** The user's sort, checked against the report's columns; ascending key columns are the default order. */
function resolveOrder(req: RowsRequest, shape: ReportShape): OrderTerm[] {
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

/** A compiled rows request: the count (or the known total) and a page compiler that needs the total. */
export interface CompiledRows {
  shape: ReportShape;
  /** Ids of the columns of each returned row, in order. */
  columns: readonly string[];
  /** Undefined when the total is known without a query. */
  count?: SqlFragment;
  knownTotal?: number;
  /**
   * With a cursor over precomputed rows: queries for the cursor row's ordinal, tried in order (by the ordinal hint
   * of the cursor, a range read, then by key); `page` continues after the first found.
   */
  cursorLookups: readonly SqlFragment[];
  limit: number;
  offset: number;
  /**
   * The page for a given total (and the cursor's ordinal when `cursorLookup` found one); undefined when the page
   * is empty.
   */
  page(total: number, cursorOrdinal?: number): SqlFragment | undefined;
  /**
   * The page and the total in one statement (each row carries TOTAL_COLUMN): a filtered default-order page of
   * precomputed rows, where counting and paging would otherwise scan the filtered column twice.
   */
  combined?: SqlFragment;
  /** Identifies the request for caching: the count and page SQL with their values. */
  cacheKey: string;
}

export const SUB_ROWS_COLUMN = 'subRows';
export const CHECKED_COLUMN = 'checked';
/** Carries each row's ordinal out of precomputed pages for the next cursor; never sent to clients. */
export const ORDINAL_COLUMN = '__ordinal';
/** Carries the total out of a combined page query; never sent to clients. */
export const TOTAL_COLUMN = '__total';

/** Carries an export's text columns NUL-joined in one value, one string to decode per row; never sent to clients. */
export const PACKED_COLUMN = '__packed';

export interface CompileOptions {
  /** No page size: the whole tab (the streaming export). */
  isWholeTab?: boolean;
  /** Row columns of the report to also return joined by NUL as PACKED_COLUMN, NULL as ''. */
  packedColumns?: readonly string[];
}

export function compileRows(
  req: RowsRequest,
  { isWholeTab = false, packedColumns = [] }: CompileOptions = {},
): CompiledRows {
  validatePaging(req, isWholeTab);
  const shape = shapeOf(req.report);
  const terms = resolveOrder(req, shape);
  const isDefaultOrder = terms.length === 0;
  if (req.after !== undefined) {
    if (!isDefaultOrder) throw new RequestError('after', 'a cursor continues the default order only: drop orderBy');
    const keys = shape.keyColumns.length;
    const hint = req.after[keys];
    if (
      (req.after.length !== keys && req.after.length !== keys + 1) ||
      req.after.some((v) => typeof v !== 'string') ||
      (hint !== undefined && !/^\d{1,15}$/.test(hint))
    )
      throw new RequestError('after', `after takes the ${shape.keyColumns.join(', ')} of the last row (nextCursor)`);
  }
  const columns = [...shape.columns.map((c) => c.id), CHECKED_COLUMN, ...(shape.subRow ? [SUB_ROWS_COLUMN] : [])];

  const source = tabRows(req, shape);
  if (source === EMPTY) {
    return {
      shape,
      columns,
      knownTotal: 0,
      cursorLookups: [],
      limit: req.limit,
      offset: req.offset,
      page: () => undefined,
      cacheKey: `empty\u0000${shape.report.id}`,
    };
  }

  const filters: SqlFragment[] = [];
  const userFilter = req.userFilter?.trim();
  if (userFilter)
    filters.push(
      source.isPrecomputed
        ? sql`contains("r".${ident(LOWER_URL_COLUMN)}, lower(${userFilter}))`
        : sql`contains(lower("r".${ident(shape.urlColumn)}), lower(${userFilter}))`,
    );
  if (req.urlScope) filters.push(sql`starts_with("r".${ident(shape.urlColumn)}, ${req.urlScope})`);
  const isChecked = req.checked
    ? sql`EXISTS (SELECT 1 FROM (${req.checked}) "ck" WHERE ${keyMatch(shape, 'ck', 'r')})`
    : raw('FALSE');
  if (req.checked && !req.showChecked) filters.push(sql`NOT ${isChecked}`);
  const hasFilters = filters.length > 0;

  const countSql =
    hasFilters || source.knownTotal === undefined
      ? sql`SELECT count(*) AS n FROM (${source.relation}) "r" WHERE ${and(filters)}`
      : undefined;

  // Precomputed rows sort text by its integer rank and a sole key by its ordinal.
  const sortColumn = (column: string): string => {
    if (!source.isPrecomputed) return column;
    if (shape.rankedColumns.includes(column)) return rankColumnOf(column);
    if (shape.keyColumns.length === 1 && shape.keyColumns[0] === column) return '_ord';
    return column;
  };
  const order = [
    ...terms.map((t) => ({ column: sortColumn(t.column), desc: t.desc })),
    ...source.tiebreak.map((column) => ({ column, desc: false })),
  ];
  const sub = !shape.subRow
    ? undefined
    : source.isPrecomputed
      ? raw('"r"."_sub"')
      : subRowExpression(shape, source.alias);
  const stored = source.stored;
  for (const id of packedColumns)
    if (!shape.columns.some((c) => c.id === id)) throw new Error(`${id} is not a row column of ${shape.report.id}`);
  const packed = packedColumns.map((id) => sql`coalesce(CAST("r".${ident(id)} AS VARCHAR), '')`);
  const output = joinSql(
    [
      ...shape.columns.map((c) => sql`"r".${ident(c.id)}`),
      sql`${isChecked} AS ${ident(CHECKED_COLUMN)}`,
      ...(sub ? [sql`${sub} AS ${ident(SUB_ROWS_COLUMN)}`] : []),
      ...(stored ? [sql`"r"."_ord" AS ${ident(ORDINAL_COLUMN)}`] : []),
      ...(packed.length > 0 ? [sql`concat(${joinSql(packed, ', chr(0), ')}) AS ${ident(PACKED_COLUMN)}`] : []),
    ],
    ', ',
  );
  const select = (from: SqlFragment, orderBy: SqlFragment): SqlFragment =>
    sql`SELECT ${output} FROM ${from} ORDER BY ${orderBy}`;

  const cursorLookups: SqlFragment[] = [];
  if (req.after && stored && isDefaultOrder) {
    const keyIs = and(shape.keyColumns.map((k, i) => sql`"r".${ident(k)} = ${req.after![i]!}`));
    const lookup = (extra?: SqlFragment): SqlFragment =>
      sql`SELECT "r"."_ord" FROM ${withOrdinal(stored.table)} "r" WHERE ${stored.where} AND ${and([extra, keyIs])}`;
    const hint = req.after[shape.keyColumns.length];
    // Zone maps of text columns hold only a short prefix, so a lookup by URL scans; the hint is a range read.
    if (hint !== undefined) cursorLookups.push(lookup(sql`"r"."_ord" = ${int(Number(hint))}`));
    cursorLookups.push(lookup());
  }

  const page = (total: number, cursorOrdinal?: number): SqlFragment | undefined => {
    const after = req.after?.slice(0, shape.keyColumns.length);
    const hasCursor = req.after !== undefined;
    if (!hasCursor && req.offset >= total) return undefined;
    const limit = req.limit;
    if (stored && isDefaultOrder && (!hasCursor || cursorOrdinal !== undefined)) {
      const table = withOrdinal(stored.table);
      // Without filters, ordinals of a whole row table are contiguous: a default-order page is a range read.
      if (!hasFilters && stored.isContiguous) {
        const first = hasCursor ? cursorOrdinal! + 1 : req.offset;
        return select(
          sql`${table} "r" WHERE "r"."_ord" >= ${int(first)} AND "r"."_ord" < ${int(first + limit)}`,
          raw('"r"."_ord"'),
        );
      }
      if (hasCursor) {
        const ids = sql`SELECT "r"."_ord" AS "_rid" FROM ${table} "r" WHERE ${stored.where} AND "r"."_ord" > ${int(cursorOrdinal!)} AND ${and(filters)} ORDER BY "r"."_ord" LIMIT ${int(limit)}`;
        return select(sql`${table} "r" SEMI JOIN (${ids}) "p" ON "r"."_ord" = "p"."_rid"`, raw('"r"."_ord"'));
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
      const table = withOrdinal(stored.table);
      const ids = sql`SELECT "r"."_ord" AS "_rid" FROM ${table} "r" WHERE ${stored.where} AND ${where} ORDER BY ${sorted(reverse)} LIMIT ${int(take)} OFFSET ${int(skip)}`;
      return select(sql`${table} "r" SEMI JOIN (${ids}) "p" ON "r"."_ord" = "p"."_rid"`, sorted(false));
    }
    const inner = sql`SELECT * FROM (${source.relation}) "r" WHERE ${where} ORDER BY ${sorted(reverse)} LIMIT ${int(take)} OFFSET ${int(skip)}`;
    return select(sql`(${inner}) "r"`, sorted(false));
  };

  let combined: SqlFragment | undefined;
  if (stored && isDefaultOrder && hasFilters && !req.after) {
    const table = withOrdinal(stored.table);
    const matches = sql`SELECT "r"."_ord" FROM ${table} "r" WHERE ${stored.where} AND ${and(filters)}`;
    combined = sql`WITH "m" AS MATERIALIZED (${matches}),
      "p" AS (SELECT "_ord" FROM "m" ORDER BY "_ord" LIMIT ${int(req.limit)} OFFSET ${int(req.offset)})
      SELECT ${output}, (SELECT count(*) FROM "m") AS ${ident(TOTAL_COLUMN)}
      FROM ${table} "r" SEMI JOIN "p" ON "r"."_ord" = "p"."_ord" ORDER BY "r"."_ord"`;
  }

  const probe = page(Number.MAX_SAFE_INTEGER);
  const cacheKey = [
    countSql ? fragmentKey(countSql) : `total:${source.knownTotal}`,
    probe ? fragmentKey(probe) : '',
    ...cursorLookups.map(fragmentKey),
    combined ? fragmentKey(combined) : '',
    req.offset,
    req.limit,
  ].join('\u0000');
  return {
    shape,
    columns,
    ...(countSql ? { count: countSql } : { knownTotal: source.knownTotal }),
    cursorLookups,
    limit: req.limit,
    offset: req.offset,
    ...(combined ? { combined } : {}),
    page,
    cacheKey,
  };
}

/** Rows strictly after the given key values in key order. */
function afterKey(shape: ReportShape, after: readonly string[]): SqlFragment {
  const keys = shape.keyColumns;
  const alternatives = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`"r".${ident(k)} = ${after[j]!}`);
    return and([...equal, sql`"r".${ident(key)} > ${after[i]!}`]);
  });
  return sql`(${joinSql(alternatives, ' OR ')})`;
}

/**
 * Every row of the tab (with the user filter and checklist) in the request's order, as one query for the streaming
 * CSV export: the page of `total` rows from offset 0, with `packedColumns` packed (see PACKED_COLUMN). Undefined
 * when there are no rows.
 */
export function compileExport(
  req: RowsRequest,
  total: number,
  packedColumns: readonly string[] = [],
): SqlFragment | undefined {
  const compiled = compileRows(
    { ...req, limit: Math.max(total, 1), offset: 0, after: undefined },
    { isWholeTab: true, packedColumns },
  );
  return compiled.page(total);
}

/** The number of rows of a tab (with the user filter and checklist), as a query or a precomputed value. */
export function compileCount(req: RowsRequest): { count?: SqlFragment; knownTotal?: number } {
  const compiled = compileRows({ ...req, orderBy: [], offset: 0, after: undefined });
  return compiled.count ? { count: compiled.count } : { knownTotal: compiled.knownTotal ?? 0 };
}
