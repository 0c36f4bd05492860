/**
 * What the engine derives from one report definition, shared by precompute, the request compiler and the EXPLAIN
 * check so that all three build the same SQL: the row columns, the expanded filter, the internal scope, the
 * joined metrics it needs, and a fingerprint that tells whether precomputed data still matches the definition.
 */
import { createHash } from 'node:crypto';
import { dataSource, sourceOfTable, type DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, type ExportTable } from '../../catalog/export-contract.ts';
import { columnById, columns, filterConstants } from '../../catalog/index.ts';
import { PAGE_CONTENT_COLUMNS, type CatalogColumn, type ReportDefinition } from '../../catalog/schema.ts';
import { linkingPageColumnOf } from '../../catalog/reports.ts';
import { expandFilter, parseFilter } from '../catalog/filter.ts';
import { and, ident, joinSql, raw, sql, tableRef, type SqlFragment } from './sql.ts';

export type MetricFamily = 'search_console' | 'analytics' | 'ads';
/** Every metric family, in the order their joins are written. */
const METRIC_FAMILIES: readonly MetricFamily[] = ['search_console', 'analytics', 'ads'];
/** The source tables of a family: ads are both ads platforms' landing pages. */
const FAMILY_TABLES: Record<MetricFamily, readonly string[]> = {
  search_console: ['search_console'],
  analytics: ['analytics'],
  ads: ['ads_one', 'ads_two'],
};
export type SubRowKind = NonNullable<ReportDefinition['subRow']>;

interface Metric {
  family: MetricFamily;
  /** The catalogue's aggregate over the source rows of one URL; undefined for `gsc_top_query`, joined on its own. */
  aggregate: string | undefined;
  /** The DuckDB type of the value, for the cast and for the empty relation of a crawl without that source. */
  type: string;
}

const METRIC_TYPES: Partial<Record<CatalogColumn['type'], string>> = {
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  string: 'VARCHAR',
};

const isMetricFamily = (join: CatalogColumn['joinedFrom']): join is MetricFamily =>
  (METRIC_FAMILIES as readonly unknown[]).includes(join);

/** Joined metrics (guide §5.1): the catalogue's columns joined from search console, analytics and ads, by id. */
const METRICS: ReadonlyMap<string, Metric> = new Map(
  columns.flatMap((column) => {
    const family = column.joinedFrom;
    if (!isMetricFamily(family)) return [];
    const type = METRIC_TYPES[column.type];
    if (!type) throw new Error(`column ${column.id}: a joined metric cannot have type ${column.type}`);
    return [[column.id, { family, aggregate: column.aggregate, type }] as const];
  }),
);

/**
 * The source tables the reports' SQL reads (the families' tables, and Search Console's queries for `gsc_top_query`);
 * the rest (keyword_planner, trends, search_console_site) feed only the query report, which is never precomputed.
 */
export const ENGINE_SOURCE_TABLES: ReadonlySet<string> = new Set([
  ...Object.values(FAMILY_TABLES).flat(),
  'search_console_queries',
]);

/** The sources the reports read, in catalogue order: connecting or removing one changes what they count. */
export const reportSourcesOf = (connected: readonly DataSourceId[]): DataSourceId[] =>
  connected.filter((id) => dataSource(id).tables.some((t) => ENGINE_SOURCE_TABLES.has(t)));

/** A family is connected when the crawl joined any source of its tables (ads: either platform). */
const isFamilyConnected = (family: MetricFamily, connected: ReadonlySet<DataSourceId>): boolean =>
  FAMILY_TABLES[family].some((t) => {
    const source = sourceOfTable(t);
    return source !== undefined && connected.has(source);
  });

const metricIdsOf = (family: MetricFamily): string[] =>
  [...METRICS].filter(([, m]) => m.family === family).map(([id]) => id);

export interface RowColumn {
  id: string;
  kind: 'table' | 'metric';
}

export interface ReportShape {
  report: ReportDefinition;
  table: ExportTable;
  keyColumns: readonly string[];
  /**
   * Columns a row carries, in display order: the datatable columns, then any key not among them, then
   * `http_status_code` when an AI column needs it.
   */
  columns: readonly RowColumn[];
  /** Columns stored in the precomputed row table: `columns` plus what the sub-row needs. */
  storedColumns: readonly RowColumn[];
  /** The column the 'URLs containing' filter and the metric joins use. */
  urlColumn: string;
  /** On reports of links: the linking page's column, which 'URLs containing' matches too (catalog/reports.ts). */
  linkingPageColumn?: string;
  filter: string;
  scope: string;
  /** Metric families the filter or the columns use. */
  families: ReadonlySet<MetricFamily>;
  /** The filter reads a metric, so membership depends on the date range. */
  isRangeDependent: boolean;
  subRow?: SubRowKind;
  /** For duplicate sets: the `duplicate_<what>` family whose primary URL groups the set. */
  duplicateOf?: string;
  /**
   * Text columns the precomputed rows also carry as `_rk_<id>`, their dense rank: sorting 1M strings with a top-N
   * heap took 60-800 ms, sorting their integer ranks 15-40 ms. A sole key column needs none (`_ord` is its rank).
   */
  rankedColumns: readonly string[];
  /** The precomputed row tables in the crawl database: current rows, and rows removed since the previous crawl. */
  rowTable: string;
  removedTable: string;
  fingerprint: string;
}

export class ReportShapeError extends Error {
  constructor(reportId: string, problem: string) {
    super(`report ${reportId}: ${problem}`);
    this.name = 'ReportShapeError';
  }
}

/**
 * contentType html (see the report schema): a 2xx answer with nothing a parsed page has (PAGE_CONTENT_COLUMNS: an
 * HTML size, a title, a word count) was not a page. Any one of them, because the contract makes each optional: an
 * export that leaves out html_size still has its pages listed.
 */
const HTML_PAGES = `NOT COALESCE("http_status_code" BETWEEN 200 AND 299 AND ${PAGE_CONTENT_COLUMNS.map((c) => `"${c}" IS NULL`).join(' AND ')}, FALSE)`;

const shapes = new WeakMap<ReportDefinition, ReportShape>();

export function shapeOf(report: ReportDefinition): ReportShape {
  const cached = shapes.get(report);
  if (cached) return cached;
  const shape = buildShape(report);
  shapes.set(report, shape);
  return shape;
}

function buildShape(report: ReportDefinition): ReportShape {
  const table = exportTable(report.tableId);
  const tableColumns = new Set(table.columns.map((c) => c.name));
  const families = new Set<MetricFamily>();

  const toRowColumn = (id: string): RowColumn | undefined => {
    if (tableColumns.has(id)) return { id, kind: 'table' };
    const metric = METRICS.get(id);
    if (metric) {
      families.add(metric.family);
      return { id, kind: 'metric' };
    }
    const column = columnById(id);
    // AI suggestions are fetched by the browser and the checklist state is added per request.
    if (column?.joinedFrom === 'ai' || column?.joinedFrom === 'checklist') return undefined;
    throw new ReportShapeError(report.id, `column "${id}" is neither a column of ${table.id} nor a joined metric`);
  };

  // The browser offers AI suggestions only on rows with status 200 (spec §4), so such rows carry the status.
  const hasAi = report.datatableColumns.some((id) => columnById(id)?.joinedFrom === 'ai');
  const statusColumn = hasAi && tableColumns.has('http_status_code') ? ['http_status_code'] : [];
  const ids = [...new Set([...report.datatableColumns, ...report.keyColumns, ...statusColumn])];
  const columns = ids.map(toRowColumn).filter((c): c is RowColumn => c !== undefined);
  for (const key of report.keyColumns)
    if (!tableColumns.has(key)) throw new ReportShapeError(report.id, `key column "${key}" is not in ${table.id}`);

  const filter = expandFilter(report.filter, filterConstants);
  const filterMetrics = parseFilter(report.filter).columns.filter((c) => METRICS.has(c));
  for (const id of filterMetrics) families.add(METRICS.get(id)!.family);

  const storedColumns = [...columns];
  let duplicateOf: string | undefined;
  if (report.subRow === 'redirect-chain' && !storedColumns.some((c) => c.id === 'redirect_chain'))
    storedColumns.push({ id: 'redirect_chain', kind: 'table' });
  if (report.subRow === 'duplicate-set') {
    const primary = report.datatableColumns
      .map((id) => /^duplicate_([a-z]+)_primary_url$/.exec(id)?.[1])
      .find((what) => what !== undefined);
    duplicateOf = primary ?? /\bduplicate_([a-z]+)\b/.exec(report.filter)?.[1];
    if (!duplicateOf || !tableColumns.has(`duplicate_${duplicateOf}_primary_url`))
      throw new ReportShapeError(report.id, 'a duplicate-set sub-row needs a duplicate_<what>_primary_url column');
    const primaryColumn = `duplicate_${duplicateOf}_primary_url`;
    if (!storedColumns.some((c) => c.id === primaryColumn)) storedColumns.push({ id: primaryColumn, kind: 'table' });
  }

  const internalScope =
    !tableColumns.has('internal') || report.internalType === 'all'
      ? 'TRUE'
      : report.internalType === 'internal'
        ? '"internal"'
        : 'NOT "internal"';
  const scope = report.contentType === 'html' ? `${internalScope} AND ${HTML_PAGES}` : internalScope;
  const urlColumn = tableColumns.has('url') ? 'url' : 'url_to';
  const linkingPageColumn = linkingPageColumnOf(report);
  if (linkingPageColumn !== undefined && !tableColumns.has(linkingPageColumn))
    throw new ReportShapeError(report.id, `linking page column "${linkingPageColumn}" is not in ${table.id}`);
  const typeOf = new Map(table.columns.map((c) => [c.name, c.type]));
  const rankedColumns = columns
    .filter((c) => c.kind === 'table' && typeOf.get(c.id) === 'VARCHAR')
    .map((c) => c.id)
    .filter((id) => !(report.keyColumns.length === 1 && report.keyColumns[0] === id));
  const tableSuffix = report.id.replace('/', '__').replace(/[^a-z0-9_]/g, '_');
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        table: table.id,
        scope,
        filter,
        keys: report.keyColumns,
        stored: storedColumns.map((c) => c.id),
        ranked: rankedColumns,
        urlColumn,
        // The catalogue's SQL of the metrics joined to the rows, so editing a metric's aggregate is a change too.
        metrics: [...families]
          .sort()
          .flatMap((f) => metricIdsOf(f).map((id) => [id, METRICS.get(id)!.aggregate ?? null])),
        subRow: report.subRow ?? null,
        duplicateOf: duplicateOf ?? null,
      }),
    )
    .digest('hex')
    .slice(0, 16);

  return {
    report,
    table,
    keyColumns: report.keyColumns,
    columns,
    storedColumns,
    urlColumn,
    ...(linkingPageColumn !== undefined && { linkingPageColumn }),
    filter,
    scope,
    families,
    isRangeDependent: filterMetrics.length > 0,
    rankedColumns,
    ...(report.subRow ? { subRow: report.subRow } : {}),
    ...(duplicateOf ? { duplicateOf } : {}),
    rowTable: `rr_${tableSuffix}`,
    removedTable: `rm_${tableSuffix}`,
    fingerprint,
  };
}

export const rankColumnOf = (id: string): string => `_rk_${id}`;

const SORTED_COPY_SEPARATOR = '__sorted__';
/** A row table's copy in the order of `column`, ascending or descending, then key order (sorted-copies.ts). */
export const sortedCopyOf = (table: string, column: string, desc: boolean): string =>
  `${table}${SORTED_COPY_SEPARATOR}${column}__${desc ? 'desc' : 'asc'}`;
/** The row table a sorted copy belongs to; undefined for any other table. */
export function rowTableOfCopy(name: string): string | undefined {
  const at = name.indexOf(SORTED_COPY_SEPARATOR);
  return at > 0 && /__(asc|desc)$/.test(name) ? name.slice(0, at) : undefined;
}
/** The precomputed lower-case copy of the URL column, for 'URLs containing'. */
export const LOWER_URL_COLUMN = '_lc';

/** A report depends on the date range when its filter or any of its columns reads a joined metric. */
export const usesMetrics = (shape: ReportShape): boolean => shape.families.size > 0;

export interface DateRange {
  start: string;
  end: string;
}

export interface MetricScope {
  range: DateRange;
  /** Analytics channel; undefined for all channels. */
  channel?: string | undefined;
}

/**
 * Per URL aggregates of one data source over the range; an empty relation when the crawl lacks the source. Search
 * console also names each URL's top query (most clicks, then impressions, then alphabetical) from
 * `search_console_queries`, NULL when the crawl lacks that table.
 */
export function metricRelation(
  alias: string,
  family: MetricFamily,
  scope: MetricScope,
  tables: ReadonlySet<string>,
): SqlFragment {
  const ids = metricIdsOf(family);
  const sources = FAMILY_TABLES[family].filter((t) => tables.has(t));
  if (sources.length === 0) {
    const cols = ids.map((id) => `NULL::${METRICS.get(id)!.type} AS ${ident(id).sql}`).join(', ');
    return raw(`SELECT NULL::VARCHAR AS "_m_url", ${cols} WHERE FALSE`);
  }
  const aggregates = raw(
    ids
      .flatMap((id) => {
        const { aggregate, type } = METRICS.get(id)!;
        return aggregate === undefined ? [] : [`CAST(${aggregate} AS ${type}) AS ${ident(id).sql}`];
      })
      .join(', '),
  );
  const channel = family === 'analytics' && scope.channel !== undefined ? sql`"channel" = ${scope.channel}` : undefined;
  const inRange = sql`"date" BETWEEN CAST(${scope.range.start} AS DATE) AND CAST(${scope.range.end} AS DATE)`;
  const where = and([inRange, channel]);
  // Ads rows of both platforms, with the columns they share, as one relation.
  const from =
    family === 'ads'
      ? sql`(${joinSql(
          sources.map((t) => sql`SELECT "date", "url", "clicks", "costs" FROM ${tableRef(alias, t)}`),
          ' UNION ALL ',
        )})`
      : tableRef(alias, family);
  const perUrl = sql`SELECT "url" AS "_m_url", ${aggregates} FROM ${from} WHERE ${where} GROUP BY "url"`;
  if (family !== 'search_console') return perUrl;
  if (!tables.has('search_console_queries')) return sql`SELECT *, NULL::VARCHAR AS "gsc_top_query" FROM (${perUrl})`;
  const perQuery = sql`SELECT "url", "query", sum("clicks") AS "c", sum("impressions") AS "i" FROM ${tableRef(alias, 'search_console_queries')} WHERE ${inRange} AND "query" IS NOT NULL AND trim("query") <> '' GROUP BY "url", "query"`;
  const top = sql`SELECT "url", first("query" ORDER BY "c" DESC, "i" DESC, "query") AS "gsc_top_query" FROM (${perQuery}) GROUP BY "url"`;
  return sql`SELECT "a".*, "q"."gsc_top_query" FROM (${perUrl}) "a" LEFT JOIN (${top}) "q" ON "q"."url" = "a"."_m_url"`;
}

export interface SourceOptions {
  alias: string;
  metrics: MetricScope;
  /** Tables present in the crawl database. */
  tables: ReadonlySet<string>;
  /** The sources the crawl joined (connected.ts); a family none of them feeds is not connected. */
  connected: ReadonlySet<DataSourceId>;
  /** Metric families to join; defaults to the report's own. */
  families?: ReadonlySet<MetricFamily>;
  /** Ready-made per URL aggregates (precompute materialises them once per crawl). */
  metricRelations?: Partial<Record<MetricFamily, SqlFragment>>;
}

/** The source table of a report with the joined metrics it needs as extra columns. */
export function sourceRelation(shape: ReportShape, options: SourceOptions): SqlFragment {
  const families = options.families ?? shape.families;
  const base = tableRef(options.alias, shape.table.id);
  if (families.size === 0) return sql`SELECT * FROM ${base}`;
  const selects: string[] = ['"t".*'];
  const joins: SqlFragment[] = [];
  let n = 0;
  for (const family of METRIC_FAMILIES) {
    if (!families.has(family)) continue;
    const m = `"m${n++}"`;
    // A URL the source does not know is "not found" (FALSE) with 0 clicks, sessions or spend when the crawl joined
    // the source, empty (NULL) when the source is not connected: never the same. A sum the source's rows lack (a
    // GA4 report without sessions) stays empty, and so does a ratio without a denominator.
    const isConnected = isFamilyConnected(family, options.connected);
    for (const id of metricIdsOf(family)) {
      const col = ident(id).sql;
      const { type, aggregate } = METRICS.get(id)!;
      if (isConnected && type === 'BOOLEAN') selects.push(`COALESCE(${m}.${col}, FALSE) AS ${col}`);
      else if (isConnected && /^sum\("\w+"\)$/.test(aggregate ?? ''))
        selects.push(`CASE WHEN ${m}."_m_url" IS NULL THEN 0 ELSE ${m}.${col} END AS ${col}`);
      else selects.push(`${m}.${col}`);
    }
    const relation =
      options.metricRelations?.[family] ?? metricRelation(options.alias, family, options.metrics, options.tables);
    joins.push(sql`LEFT JOIN (${relation}) ${raw(m)} ON ${raw(m)}."_m_url" = "t".${ident(shape.urlColumn)}`);
  }
  return sql`SELECT ${raw(selects.join(', '))} FROM ${base} "t" ${joinsOf(joins)}`;
}

const joinsOf = (joins: SqlFragment[]): SqlFragment => joins.reduce((acc, j) => sql`${acc} ${j}`, raw(''));

/** Row columns as a select list over a relation aliased `alias`. */
export const columnList = (columns: readonly RowColumn[], alias?: string): SqlFragment =>
  raw(columns.map((c) => (alias ? `${ident(alias).sql}.${ident(c.id).sql}` : ident(c.id).sql)).join(', '));

/** The report's rows in one crawl, computed from its base tables: the stored columns of every matching row. */
export function reportRowsLive(shape: ReportShape, options: SourceOptions): SqlFragment {
  const source = sourceRelation(shape, options);
  return sql`SELECT ${columnList(shape.storedColumns)} FROM (${source}) "src" WHERE ${raw(shape.scope)} AND (${raw(shape.filter)})`;
}

/** Rows of the report's source table in its internal scope: the rank's base. */
export const baseCountSql = (shape: ReportShape, alias: string): SqlFragment =>
  sql`SELECT count(*) AS n FROM ${tableRef(alias, shape.table.id)} WHERE ${raw(shape.scope)}`;

/** How many source items a sub-row lists at most. */
export const SUB_ROW_LIMIT = 20;

/**
 * The sub-row list of each row of `rows` (a relation aliased "r" with the stored columns), as an expression:
 * link sources from `links`, or the other members of the row's duplicate set. Redirect chains are a column.
 */
export function subRowExpression(shape: ReportShape, alias: string): SqlFragment | undefined {
  switch (shape.subRow) {
    case 'redirect-chain':
      return raw('"r"."redirect_chain"');
    case 'link-sources':
      return sql`(SELECT min("l"."url_from", ${raw(String(SUB_ROW_LIMIT))}) FROM ${tableRef(alias, 'links')} "l" WHERE "l"."url_to" = "r"."url_to" AND "l"."anchor_text" = "r"."anchor_text")`;
    case 'duplicate-set': {
      // A set is the pages naming the same primary URL, plus the primary itself. Equality only, so DuckDB
      // decorrelates the subquery into one hash join.
      const primary = ident(`duplicate_${shape.duplicateOf}_primary_url`);
      const urls = tableRef(alias, 'urls');
      const members = sql`SELECT ${primary} AS "p", "url" FROM ${urls} WHERE ${primary} IS NOT NULL UNION SELECT DISTINCT ${primary}, ${primary} FROM ${urls} WHERE ${primary} IS NOT NULL`;
      const limit = raw(String(SUB_ROW_LIMIT + 1));
      return sql`list_filter((SELECT min("m"."url", ${limit}) FROM (${members}) "m" WHERE "m"."p" = "r".${primary}), lambda x: x <> "r"."url")[1:${raw(String(SUB_ROW_LIMIT))}]`;
    }
    default:
      return undefined;
  }
}
