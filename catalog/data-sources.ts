/**
 * The marketing data sources a website can connect (ARCHITECTURE.md: they belong to a website, not to a crawl):
 * each feeds some of the export contract's source tables and is needed by some report categories. A report whose
 * source a crawl lacks is "not connected", which is never the same as zero rows.
 */
import type { ExportTableId } from './export-contract.ts';
import type { CategoryId } from './schema.ts';

export const dataSourceIds = [
  'search-console',
  'analytics',
  'google-ads',
  'microsoft-ads',
  'keyword-planner',
  'trends',
] as const;
export type DataSourceId = (typeof dataSourceIds)[number];

export interface DataSource {
  id: DataSourceId;
  title: string;
  /** The contract tables this source fills. */
  tables: readonly ExportTableId[];
  /**
   * Those of `tables` whose rows are not the first's by a finer key but rows of their own (Search Console's whole
   * property beside its pages): the coverage counts their days too.
   */
  ownRowsTables?: readonly ExportTableId[];
  /** Report categories whose every report reads this source (or, where two sources list one, either of them). */
  categories: readonly CategoryId[];
  /** The column that places its rows in time: a day (or week start), or the day keyword volumes were requested. */
  dateColumn: 'date' | 'request_date';
  /**
   * Days after a crawl's dataEnd whose rows it still joins. Keyword Planner volumes describe the months before
   * their request, so a request made up to one data window after the window (typically on the crawl's day or a
   * little later) is the crawl's; daily sources join their window exactly.
   */
  joinDaysAfter: number;
}

/** The data window of a crawl made by the product's crawler: the days before its crawl date. */
export const DATA_WINDOW_DAYS = 28;

const daily = { dateColumn: 'date', joinDaysAfter: 0 } as const;

export const dataSources: readonly DataSource[] = [
  {
    id: 'search-console',
    title: 'Search Console',
    tables: ['search_console', 'search_console_queries', 'search_console_site'],
    ownRowsTables: ['search_console_site'],
    categories: ['search-console'],
    ...daily,
  },
  { id: 'analytics', title: 'Analytics', tables: ['analytics'], categories: ['analytics'], ...daily },
  { id: 'google-ads', title: 'Google Ads', tables: ['ads_one'], categories: ['ads'], ...daily },
  { id: 'microsoft-ads', title: 'Microsoft Advertising', tables: ['ads_two'], categories: ['ads'], ...daily },
  {
    id: 'keyword-planner',
    title: 'Keyword Planner',
    tables: ['keyword_planner'],
    categories: [],
    dateColumn: 'request_date',
    joinDaysAfter: DATA_WINDOW_DAYS,
  },
  { id: 'trends', title: 'Google Trends', tables: ['trends'], categories: [], ...daily },
];

export const isDataSourceId = (id: string): id is DataSourceId => (dataSourceIds as readonly string[]).includes(id);

export function dataSource(id: DataSourceId): DataSource {
  const source = dataSources.find((s) => s.id === id);
  if (!source) throw new Error(`data source ${id} is not declared`);
  return source;
}

/** The sources a report of this category needs one of: none for a category of the crawl's own data. */
export const requiredSourcesOf = (category: string): DataSourceId[] =>
  dataSources.filter((s) => (s.categories as readonly string[]).includes(category)).map((s) => s.id);

/** The first source a report of this category needs, if any. */
export const requiredSourceOf = (category: string): DataSourceId | undefined => requiredSourcesOf(category)[0];

/** The source that fills a contract table, if it is a source table. */
export const sourceOfTable = (table: string): DataSourceId | undefined =>
  dataSources.find((s) => (s.tables as readonly string[]).includes(table))?.id;

/** dataStart..dataEnd of a crawl made at `crawledAt`: the DATA_WINDOW_DAYS whole UTC days before its crawl date. */
export function dataWindowBefore(crawledAt: Date, days = DATA_WINDOW_DAYS): { dataStart: string; dataEnd: string } {
  const day = Date.UTC(crawledAt.getUTCFullYear(), crawledAt.getUTCMonth(), crawledAt.getUTCDate());
  const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return { dataStart: iso(day - days * 86_400_000), dataEnd: iso(day - 86_400_000) };
}
