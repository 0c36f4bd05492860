/**
 * Names in, bound values out: a report request (report, crawls, date range, tab, filters, sort, page) compiles to
 * SQL with positional parameters. Identifiers come only from the catalogue and the export contract, quoted;
 * request values are bound; LIMIT/OFFSET and ordinals are integers validated here.
 *
 * A compile reads in steps, each in its own module: the request checked (rows-request.ts), the rows' source chosen,
 * precomputed or live (row-source.ts), the order and cursor resolved (row-order.ts), then the count here and the
 * page query (page-query.ts).
 */
import type { ReportDefinition } from '../../catalog/schema.ts';
import { REMOVAL_REASON_COLUMN } from '../../catalog/removal-reasons.ts';
import { formatDate } from '../../catalog/format.ts';
import type { ChecklistItem, ChecklistKey } from '../app-db/checklist.ts';
import { LOWER_URL_COLUMN, shapeOf, type ReportShape } from './report-shape.ts';
import { combinedQuery, pageQuery, selectList, type PagePlan } from './page-query.ts';
import { cursorLookupsOf, orderTerms, resolveOrder, validateCursor, type OrderTerm } from './row-order.ts';
import { EMPTY, keyMatch, keyOrdinalOf, tabRows, type RowSource } from './row-source.ts';
import { STAKE_ORDER_COLUMNS, STAKE_ORDINAL_COLUMN, withStakeColumns } from './stakes.ts';
import { URL_MATCH_COLUMN, urlMatchCondition } from './url-match.ts';
import {
  CHECKED_COLUMN,
  CHECKLIST_STATE_COLUMN,
  SUB_ROWS_COLUMN,
  validatePage,
  validateTab,
  type RowsRequest,
} from './rows-request.ts';
import { and, fragmentKey, ident, joinSql, raw, sql, type SqlFragment } from './sql.ts';

export * from './rows-request.ts';

/**
 * The checked rows as a relation over bound lists: the report's key columns, and when the items say so the crawl each
 * was checked at (`_ck_start`), by whom (`_ck_by`) and on which day (`_ck_at`, 'd MMM yyyy'); undefined when nothing
 * is checked.
 */
export function checkedKeysRelation(
  report: ReportDefinition,
  keys: readonly (ChecklistKey & Partial<Pick<ChecklistItem, 'startCrawlId' | 'checkedBy' | 'checkedAt'>>)[],
): SqlFragment | undefined {
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
    sql`unnest(CAST(${valid.map((k) => String(k.startCrawlId ?? 0))} AS VARCHAR[]))::INTEGER AS "_ck_start"`,
    sql`unnest(CAST(${valid.map((k) => k.checkedBy ?? '')} AS VARCHAR[])) AS "_ck_by"`,
    sql`unnest(CAST(${valid.map((k) => (k.checkedAt ? formatDate(k.checkedAt) : ''))} AS VARCHAR[])) AS "_ck_at"`,
  ];
  return sql`SELECT ${joinSql(lists, ', ')}`;
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
  /** Rows sort by what is at stake (RowsRequest.stakeOrder): no cursor continues them. */
  isStakeOrder: boolean;
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

export interface CompileOptions {
  /** No page size: the whole tab (the streaming export). */
  isWholeTab?: boolean;
  /** Row columns of the report to also return joined by NUL as PACKED_COLUMN, NULL as ''. */
  packedColumns?: readonly string[];
  /** Only the count (or known total): no page plan, which a count never reads and costs most of the compile. */
  isCountOnly?: boolean;
}

/**
 * A tab compiled without its page: the rows' source, filters, order, select list and count. Every page of a tab
 * shares it, so a page turn compiles only its page (compilePage).
 */
export interface CompiledTab {
  shape: ReportShape;
  columns: readonly string[];
  count?: SqlFragment;
  knownTotal?: number;
  isDefaultOrder: boolean;
  isStakeOrder: boolean;
  /** What every page query of the tab is built from; undefined when the tab has no rows. */
  plan?: Omit<PagePlan, 'req' | 'isDefaultOrder'>;
  /** The count's SQL with its values, or the known total: part of every page's cacheKey. */
  countKey: string;
  /**
   * On reports of links filtered by 'URLs containing': counts of the filtered rows whose linking page, and whose
   * target, holds the text (a row may count in both).
   */
  filterMatches?: { linking: SqlFragment; target: SqlFragment };
}

/** 'URLs containing' on the row's URL (the target on link reports); the value bound, never SQL. */
function targetMatch(shape: ReportShape, isPrecomputed: boolean, text: string): SqlFragment {
  return isPrecomputed
    ? sql`contains("r".${ident(LOWER_URL_COLUMN)}, lower(${text}))`
    : sql`contains(lower("r".${ident(shape.urlColumn)}), lower(${text}))`;
}

/** The rows with their stake columns, sorted by them and then in key order. */
function stakeOrdered(
  req: RowsRequest,
  shape: ReportShape,
  source: RowSource,
): { source: RowSource; order: OrderTerm[]; isStoredOrder?: boolean } {
  // The current crawl's row tables (its rows and the removed ones) are stored in the order, sorted at load.
  if (req.stakeOrder!.isStored && source.stored?.isStakeOrdered)
    return { source, order: [{ column: STAKE_ORDINAL_COLUMN, desc: false }], isStoredOrder: true };
  const ordered: RowSource = {
    relation: withStakeColumns(source.relation, shape, req.current, req.stakeOrder!),
    alias: source.alias,
    isPrecomputed: source.isPrecomputed,
    tiebreak: source.tiebreak,
    ...(source.knownTotal !== undefined && { knownTotal: source.knownTotal }),
  };
  const stakes = STAKE_ORDER_COLUMNS.map((column) => ({ column, desc: true }));
  return { source: ordered, order: [...stakes, ...orderTerms([], ordered, shape)] };
}

export function compileTab(
  req: RowsRequest,
  { packedColumns = [], isCountOnly = false, isWholeTab = false }: CompileOptions = {},
): CompiledTab {
  validateTab(req);
  const shape = shapeOf(req.report);
  const terms = resolveOrder(req, shape);
  // An explicit sort (the keys' own included) or a cursor keeps its order; otherwise what is at stake comes first.
  const isStakeOrder = req.orderBy.length === 0 && req.after === undefined && req.stakeOrder !== undefined;
  const isDefaultOrder = terms.length === 0 && !isStakeOrder;
  const isRemoved = req.differenceType === 'removed';
  const columns = [
    ...shape.columns.map((c) => c.id),
    CHECKED_COLUMN,
    ...(shape.subRow ? [SUB_ROWS_COLUMN] : []),
    ...(isRemoved ? [REMOVAL_REASON_COLUMN] : []),
    ...(req.checklistState ? [CHECKLIST_STATE_COLUMN] : []),
  ];

  const source = tabRows(req, shape);
  if (source === EMPTY)
    return {
      shape,
      columns,
      knownTotal: 0,
      isDefaultOrder,
      isStakeOrder,
      countKey: `empty\u0000${shape.report.id}`,
    };

  const filters: SqlFragment[] = [];
  const userFilter = req.userFilter?.trim();
  const target = userFilter ? targetMatch(shape, source.isPrecomputed, userFilter) : undefined;
  const linking =
    userFilter && shape.linkingPageColumn
      ? sql`contains(lower("r".${ident(shape.linkingPageColumn)}), lower(${userFilter}))`
      : undefined;
  if (target) filters.push(linking ? sql`(${target}) OR (${linking})` : target);
  if (req.urlScope) filters.push(sql`starts_with("r".${ident(shape.urlColumn)}, ${req.urlScope})`);
  const isChecked = req.checked
    ? sql`EXISTS (SELECT 1 FROM (${req.checked}) "ck" WHERE ${keyMatch(shape, 'ck', 'r')})`
    : raw('FALSE');
  // Removed rows are no longer issues: the checked ones stay in view, as the fixes the crawl verified.
  if (req.checked && !req.showChecked && !isRemoved && !req.isOnlyChecked) filters.push(sql`NOT ${isChecked}`);
  if (req.isOnlyChecked) filters.push(isChecked);
  const checklistState = req.checklistState && { ...req.checklistState, checked: req.checked };

  // 'URLs containing' alone on a whole row table with a URL-match copy scans the copy (url-match.ts).
  const copy = source.stored?.urlMatch;
  const copyMatch =
    userFilter && copy && filters.length === 1 && !linking
      ? urlMatchCondition(sql`"l".${ident(URL_MATCH_COLUMN)}`, copy.prefix, userFilter)
      : undefined;
  const urlMatch = copy && copyMatch ? { table: copy.table, where: copyMatch } : undefined;
  const countWhere = (extra: SqlFragment[] = []) =>
    sql`SELECT count(*) AS n FROM (${source.relation}) "r" WHERE ${and([...filters, ...extra])}`;
  const count = urlMatch
    ? sql`SELECT count(*) AS n FROM ${urlMatch.table} "l" WHERE ${urlMatch.where}`
    : filters.length > 0 || source.knownTotal === undefined
      ? countWhere()
      : undefined;
  const countKey = count ? fragmentKey(count) : `total:${source.knownTotal}`;
  if (isCountOnly)
    return {
      shape,
      columns,
      ...(count ? { count } : { knownTotal: source.knownTotal }),
      isDefaultOrder,
      isStakeOrder,
      countKey,
    };
  const paged = isStakeOrder
    ? stakeOrdered(req, shape, source)
    : {
        source,
        order: orderTerms(terms, source, shape),
        isStoredOrder: isDefaultOrder && source.stored?.isStakeOrdered === false,
      };
  // A page of the whole table sorted by one column is a range of that column's sorted copy (sorted-copies.ts).
  const sortedCopy =
    terms.length === 1 && filters.length === 0 && !isWholeTab
      ? paged.source.stored?.sortedCopy?.(terms[0]!.column, terms[0]!.desc)
      : undefined;
  return {
    shape,
    columns,
    ...(count ? { count } : { knownTotal: source.knownTotal }),
    ...(target && linking && { filterMatches: { linking: countWhere([linking]), target: countWhere([target]) } }),
    isDefaultOrder,
    isStakeOrder,
    plan: {
      shape,
      source: paged.source,
      filters,
      order: paged.order,
      isStoredOrder: paged.isStoredOrder ?? false,
      output: selectList(shape, paged.source, isChecked, packedColumns, { isRemoved, checklistState }),
      ...(urlMatch && paged.source.stored && { urlMatch }),
      ...(sortedCopy && { sortedCopy }),
      ...(paged.source.stored && {
        rowTableOutput: selectList(shape, paged.source, isChecked, packedColumns, {
          isRemoved,
          checklistState,
          ordinal: keyOrdinalOf(paged.source.stored),
        }),
      }),
    },
    countKey,
  };
}

/** The page of a compiled tab that the request asks for (its limit, offset and cursor). */
function compilePage(tab: CompiledTab, req: RowsRequest): CompiledRows {
  const { shape, columns, isDefaultOrder, isStakeOrder, plan: tabPlan } = tab;
  if (req.after !== undefined) validateCursor(req.after, shape, isDefaultOrder);
  const total = tab.count ? { count: tab.count } : { knownTotal: tab.knownTotal };
  const paging = { limit: req.limit, offset: req.offset, isStakeOrder };
  if (!tabPlan)
    return { shape, columns, ...total, cursorLookups: [], ...paging, page: () => undefined, cacheKey: tab.countKey };
  const plan: PagePlan = { ...tabPlan, isDefaultOrder, req };
  const cursorLookups = cursorLookupsOf(req, shape, tabPlan.source);
  const combined = combinedQuery(plan);
  const page = (total: number, cursorOrdinal?: number): SqlFragment | undefined =>
    pageQuery(plan, total, cursorOrdinal);
  const probe = page(Number.MAX_SAFE_INTEGER);
  const cacheKey = [
    tab.countKey,
    probe ? fragmentKey(probe) : '',
    ...cursorLookups.map(fragmentKey),
    combined ? fragmentKey(combined) : '',
    req.offset,
    req.limit,
  ].join('\u0000');
  return { shape, columns, ...total, cursorLookups, ...paging, ...(combined ? { combined } : {}), page, cacheKey };
}

/** The request's page of the tab `tabOf` gives (compiled or kept), its limit and offset checked before the tab. */
export function compileRowsOf(
  req: RowsRequest,
  tabOf: (req: RowsRequest) => CompiledTab,
  isWholeTab = false,
): CompiledRows {
  validatePage(req, isWholeTab);
  return compilePage(tabOf(req), req);
}

export function compileRows(req: RowsRequest, options: CompileOptions = {}): CompiledRows {
  return compileRowsOf(req, (tabReq) => compileTab(tabReq, options), options.isWholeTab);
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
  const tab = compileTab({ ...req, orderBy: [] }, { isCountOnly: true });
  return tab.count ? { count: tab.count } : { knownTotal: tab.knownTotal ?? 0 };
}
