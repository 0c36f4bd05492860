/**
 * The crawl export contract: one directory per crawl holding manifest.json and one Parquet file per table
 * (`<table>.parquet`). Column names are the spec's; each has one fixed DuckDB type. Optional columns may be
 * absent (read as NULL); unknown extra columns are kept. Website-level data sources (search console,
 * analytics, ads, trends, keyword planner) ship in the same directory, covering dataStart..dataEnd.
 */
import { z } from 'zod';
import { COLUMN_SOURCE_IDS, RENDER_MODES, renderedLinkColumns, renderedUrlColumns } from './render-contract.ts';

/**
 * Why a crawl holds less than the website: stopped by a person (a cancel keeping what was crawled, Ctrl-C), by its
 * time limit, or by its Max URLs setting (URLs past it were listed as crawl_limit, never fetched).
 */
export const PARTIAL_REASONS = ['stopped', 'time-limit', 'max-urls'] as const;
export type PartialReason = (typeof PARTIAL_REASONS)[number];

export const exportColumnSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  type: z.string(),
  required: z.boolean(),
  description: z.string(),
  /** The allowed values of an enum column; the loader refuses any other non-NULL value. */
  values: z.array(z.string()).min(1).optional(),
});

export const exportTableSchema = z.object({
  id: z.string().regex(/^[a-z_]+$/),
  description: z.string(),
  kind: z.enum(['crawl', 'extraction', 'source']),
  required: z.boolean(),
  key: z.array(z.string()).min(1),
  columns: z.array(exportColumnSchema).min(1),
});

/** The one crawl id range of loader, store, app database (INTEGER columns) and API alike. */
export const MAX_CRAWL_ID = 2_147_483_647;
export const crawlIdSchema = z.number().int().min(1).max(MAX_CRAWL_ID);
export const isCrawlId = (id: number): boolean => Number.isInteger(id) && id >= 1 && id <= MAX_CRAWL_ID;

export const websiteIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes');

/**
 * What the crawl was asked to do, as far as it decides which URLs a crawl holds and what it sees of them (scope,
 * limits, robots.txt, rendering, user agent): recorded by the crawler so two crawls can be told comparable or not
 * (catalog/comparability.ts). Absent from exports written before it or by other tools.
 */
export const recordedSettingsSchema = z.object({
  startUrl: z.string(),
  includeSubdomains: z.boolean(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  sitemaps: z.array(z.string()),
  checkExternal: z.boolean(),
  maxUrls: z.number().int(),
  maxDepth: z.number().int(),
  timeLimitHours: z.number(),
  respectRobots: z.boolean(),
  render: z.number().int(),
  /** Absent in exports from before rendered crawls: unknown, never a difference (comparability.ts). */
  renderMode: z.enum(RENDER_MODES).optional(),
  userAgent: z.string(),
});
export type RecordedSettings = z.infer<typeof recordedSettingsSchema>;

export const manifestSchema = z.object({
  websiteId: websiteIdSchema,
  crawlId: crawlIdSchema,
  crawledAt: z.iso.datetime({ offset: true }),
  dataStart: z.iso.date(),
  dataEnd: z.iso.date(),
  startUrl: z.url(),
  crawler: z.object({ name: z.string().min(1), version: z.string().min(1) }),
  /** The crawl was stopped before its frontier was empty (Ctrl-C); the unvisited URLs are uncrawled, crawl_limit. */
  stoppedEarly: z.boolean().optional(),
  /** Why the crawl holds less than the website (stopped, its time limit, its Max URLs); absent for a full crawl. */
  partialReason: z.enum(PARTIAL_REASONS).optional(),
  settings: recordedSettingsSchema.optional(),
  /**
   * A rendered crawl's (renderMode all): where each column's values came from, by table and column
   * (catalog/column-sources.ts, COLUMN_SOURCES); absent from other crawls, whose columns all read the raw response.
   */
  columnSources: z.record(z.string(), z.record(z.string(), z.enum(COLUMN_SOURCE_IDS))).optional(),
});

export type ExportColumn = z.infer<typeof exportColumnSchema>;
export type ExportTable = z.infer<typeof exportTableSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

/** A table whose id and kind keep their literal types, so the table id unions derive from `exportTables`. */
type DeclaredTable<Id extends string, Kind extends ExportTable['kind']> = ExportTable & { id: Id; kind: Kind };
const declare = <const Id extends string, const Kind extends ExportTable['kind']>(
  table: DeclaredTable<Id, Kind>,
): DeclaredTable<Id, Kind> => table;

const REDIRECT_HOP =
  'STRUCT(url VARCHAR, status_code INTEGER, redirects_to VARCHAR, is_js_redirect BOOLEAN, is_meta_redirect BOOLEAN)[]';
const MONTHLY_RECORD = 'STRUCT("year" INTEGER, "month" INTEGER, search_volume BIGINT)[]';

export const restrictedReasons = [
  'robots_disallowed',
  'meta_nofollow',
  'link_nofollow',
  'excluded_by_pattern',
  'outside_scope',
  'crawl_limit',
] as const;

type Col = [name: string, type: string, description: string, values?: readonly string[]];
const columnsOf = (cols: Col[], required: boolean): ExportColumn[] =>
  cols.map(([name, type, description, values]) => ({
    name,
    type,
    required,
    description,
    ...(values && { values: [...values] }),
  }));
const req = (cols: Col[]): ExportColumn[] => columnsOf(cols, true);
const opt = (cols: Col[]): ExportColumn[] => columnsOf(cols, false);

const duplicateFamily = (what: string): Col[] => [
  [`duplicate_${what}`, 'BOOLEAN', `Shares its ${what} with another crawled page`],
  [`duplicate_${what}_count`, 'INTEGER', `Pages in its duplicate ${what} set`],
  [`duplicate_${what}_primary_url`, 'VARCHAR', `The primary page of its duplicate ${what} set`],
];

const headerDirectives = ['noindex', 'nofollow', 'noarchive', 'nosnippet', 'noimageindex', 'notranslate'];
export const schemaTypes = [
  'product',
  'review',
  'faq',
  'recipe',
  'article',
  'news_article',
  'breadcrumb',
  'event',
  'how_to',
  'job_posting',
  'local_business',
  'organization',
  'video_object',
] as const;
export const openGraphFields = ['title', 'description', 'type', 'url', 'image', 'site_name', 'locale'] as const;

const urls = declare({
  id: 'urls',
  description: 'One row per URL the crawl knows: fetched pages, and URLs known only to a sitemap or a data source',
  kind: 'crawl',
  required: true,
  key: ['url'],
  columns: [
    ...req([
      ['url', 'VARCHAR', 'The URL'],
      ['http_status_code', 'INTEGER', 'HTTP status; NULL when the fetch got no response'],
      ['indexable', 'BOOLEAN', 'Eligible for the index (200, no noindex, self-canonical)'],
      ['internal', 'BOOLEAN', "On the website's own domain(s)"],
      ['found_in_web_crawl', 'BOOLEAN', 'Reached by following links from the start URL'],
    ]),
    ...opt([
      ['found_in_sitemap', 'BOOLEAN', 'Listed in at least one sitemap; NULL when the crawl found no sitemap'],
      ['found_at_sitemap', 'VARCHAR', 'The first sitemap listing it'],
      ['found_at_url', 'VARCHAR', 'The first page linking to it'],
      ['page_title', 'VARCHAR', 'The <title> text'],
      ['page_title_length', 'INTEGER', 'Title length in characters'],
      ['description', 'VARCHAR', 'The meta description'],
      ['description_length', 'INTEGER', 'Description length in characters'],
      ['h1_count', 'INTEGER', 'Number of H1 headings'],
      ['h1_length', 'INTEGER', 'Length of the first H1 in characters'],
      ['h1_tag', 'VARCHAR[]', 'H1 texts'],
      ['h2_tag', 'VARCHAR[]', 'H2 texts'],
      ['h3_tag', 'VARCHAR[]', 'H3 texts'],
      ['content_size', 'INTEGER', 'Body content size in bytes'],
      ['word_count', 'INTEGER', 'Words of body content'],
      ['html_size', 'INTEGER', 'HTML document size in bytes'],
      ['canonical_url', 'VARCHAR', 'The resolved canonical (NULL when sources disagree)'],
      ['canonical_header_url', 'VARCHAR', 'Canonical from the HTTP Link header'],
      ['canonical_html_url', 'VARCHAR', 'Canonical from the HTML link tag'],
      ['canonical_links_in_count', 'INTEGER', 'Pages naming this URL as their canonical'],
      ['is_self_canonical', 'BOOLEAN', 'The canonical is the URL itself'],
      ['canonicalized_page', 'BOOLEAN', 'The canonical names another URL'],
      ...duplicateFamily('title'),
      ...duplicateFamily('description'),
      ...duplicateFamily('page'),
      ...duplicateFamily('body'),
      ['primary_page', 'BOOLEAN', 'Not a secondary member of a duplicate set'],
      ['hreflang_links_in_count', 'INTEGER', 'Pages naming this URL as a language alternate'],
      ['hreflang_links_out_count', 'INTEGER', 'Language alternates this page declares'],
      ['links_in_count', 'INTEGER', 'Internal hyperlinks pointing here (not canonical or hreflang links)'],
      ['links_out_count', 'INTEGER', 'Hyperlinks on this page'],
      ['redirect_count', 'INTEGER', 'Redirect hops from this URL to the final response'],
      ['redirect_chain', REDIRECT_HOP, 'The redirect hops, in order'],
      ['redirected_to_url', 'VARCHAR', 'The final URL after redirects'],
      ['redirected_to_status_code', 'INTEGER', 'Status of the final URL'],
      ['is_redirect', 'BOOLEAN', 'Redirects by server status, JavaScript or meta refresh'],
      ['is_redirect_loop', 'BOOLEAN', 'Its redirects return to a URL already visited'],
      ['meta_nofollow', 'BOOLEAN', 'Meta robots nofollow'],
      ['meta_noindex', 'BOOLEAN', 'Meta robots noindex'],
      ...headerDirectives.map((d): Col => [`header_${d}`, 'BOOLEAN', `X-Robots-Tag ${d}`]),
      ['has_structured_data', 'BOOLEAN', 'Carries schema.org markup'],
      ...schemaTypes.map((s): Col => [`${s}_schema_count`, 'INTEGER', `schema.org ${s} items`]),
      ...openGraphFields.map((o): Col => [`og_${o}`, 'VARCHAR', `Open Graph og:${o}`]),
      ['fetch_time', 'DOUBLE', 'Fetch time in seconds'],
      ['fetch_error', 'VARCHAR', 'Why the fetch got no response (timeout, DNS, refused by the egress policy)'],
      ['performance_cls', 'DOUBLE', 'Cumulative layout shift'],
      ['performance_dcl', 'DOUBLE', 'DOM content loaded, seconds'],
      ['performance_fcp', 'DOUBLE', 'First contentful paint, seconds'],
      ['performance_lcp', 'DOUBLE', 'Largest contentful paint, seconds'],
      ['performance_ttfb', 'DOUBLE', 'Time to first byte, milliseconds'],
      ['performance_tti', 'DOUBLE', 'Time to interactive, seconds'],
      ['deeprank', 'DOUBLE', 'Internal link authority, 0-10'],
      ['level', 'INTEGER', 'Clicks from the start URL'],
      ['head_tags_in_body_count', 'INTEGER', 'Head-only tags found in the body'],
      ['body_tags_in_head_count', 'INTEGER', 'Body tags found in the head'],
      ...renderedUrlColumns,
    ]),
  ],
});

const links = declare({
  id: 'links',
  description: 'One row per linking page and target (instance_count counts repeats on the page)',
  kind: 'crawl',
  required: true,
  key: ['url_to', 'url_from'],
  columns: [
    ...req([
      ['url_from', 'VARCHAR', 'The linking page'],
      ['url_to', 'VARCHAR', 'The link target'],
      ['internal', 'BOOLEAN', 'The target is on the website'],
    ]),
    ...opt([
      ['url_from_status_code', 'INTEGER', 'Status of the linking page'],
      ['url_to_status_code', 'INTEGER', 'Status of the target'],
      ['url_from_title', 'VARCHAR', 'Title of the linking page'],
      ['url_to_title', 'VARCHAR', 'Title of the target'],
      ['url_from_https', 'BOOLEAN', 'The linking page is https'],
      ['url_to_https', 'BOOLEAN', 'The target is https'],
      ['url_from_deeprank', 'DOUBLE', 'DeepRank of the linking page'],
      ['url_to_deeprank', 'DOUBLE', 'DeepRank of the target'],
      ['hreflang', 'VARCHAR', 'hreflang attribute of an alternate link'],
      ['attr_rel', 'VARCHAR', 'rel attribute'],
      ['link_type', 'VARCHAR', 'href, canonical, hreflang, redirect or image'],
      ['anchor_text', 'VARCHAR', 'Anchor text of the first instance'],
      ['nofollow', 'BOOLEAN', 'rel=nofollow'],
      ['instance_count', 'INTEGER', 'Times the page links to the target'],
      ['is_redirect', 'BOOLEAN', 'The target redirects'],
      ['is_restricted', 'BOOLEAN', 'The target was not crawled because of a restriction'],
      ['restricted_reason', 'VARCHAR', 'Why the target was not crawled', restrictedReasons],
      ['has_image_link', 'BOOLEAN', 'The link wraps an image'],
      ['has_image_alt_text', 'BOOLEAN', 'The wrapped image has alt text'],
      ...renderedLinkColumns,
    ]),
  ],
});

const uniqueLinks = declare({
  id: 'unique_links',
  description: 'One row per target and anchor text, with the first page that carries it',
  kind: 'crawl',
  required: true,
  key: ['url_to', 'anchor_text'],
  columns: [
    ...req([
      ['url_to', 'VARCHAR', 'The link target'],
      ['anchor_text', 'VARCHAR', 'The anchor text (empty for image links without alt)'],
      ['primary_url_from', 'VARCHAR', 'The first page carrying this link'],
      ['internal', 'BOOLEAN', 'The target is on the website'],
    ]),
    ...opt([
      ['primary_url_from_status_code', 'INTEGER', 'Status of the primary linking page'],
      ['url_from_https', 'BOOLEAN', 'The primary linking page is https'],
      ['url_to_https', 'BOOLEAN', 'The target is https'],
      ['url_to_status_code', 'INTEGER', 'Status of the target'],
      ['url_to_title', 'VARCHAR', 'Title of the target'],
      ['url_to_deeprank', 'DOUBLE', 'DeepRank of the target'],
      ['link_type', 'VARCHAR', 'href, canonical, hreflang, redirect or image'],
      ['instance_count', 'INTEGER', 'Pages carrying this link'],
      ['nofollow', 'BOOLEAN', 'rel=nofollow on the primary instance'],
      ['is_redirect', 'BOOLEAN', 'The target redirects'],
      ['is_restricted', 'BOOLEAN', 'The target was not crawled because of a restriction'],
      ['has_image_link', 'BOOLEAN', 'The link wraps an image'],
      ['has_image_alt_text', 'BOOLEAN', 'The wrapped image has alt text'],
    ]),
  ],
});

const sitemaps = declare({
  id: 'sitemaps',
  description: 'One row per sitemap file the crawl fetched',
  kind: 'crawl',
  required: true,
  key: ['url'],
  columns: [
    ...req([['url', 'VARCHAR', 'The sitemap URL']]),
    ...opt([
      ['sitemap_type', 'VARCHAR', 'index or urlset'],
      ['format', 'VARCHAR', 'xml, txt or rss'],
      ['found_at', 'VARCHAR', 'robots.txt, the sitemap index, or the start URL'],
      ['links_count', 'INTEGER', 'Child sitemaps listed (index files)'],
      ['url_count', 'INTEGER', 'URLs listed'],
      ['fetch_error', 'VARCHAR', 'Why the fetch failed'],
      ['parse_error', 'VARCHAR', 'Why parsing failed'],
      ['http_status_code', 'INTEGER', 'HTTP status of the sitemap'],
      ['restricted_reason', 'VARCHAR', 'Why it was not fetched', restrictedReasons],
      ['file_size', 'INTEGER', 'Size in bytes'],
    ]),
  ],
});

const uncrawledUrls = declare({
  id: 'uncrawled_urls',
  description: 'URLs found but not fetched, with the reason',
  kind: 'crawl',
  required: true,
  key: ['url'],
  columns: req([
    ['url', 'VARCHAR', 'The URL'],
    ['restricted_reason', 'VARCHAR', 'Why it was not fetched', restrictedReasons],
    ['found_at_url', 'VARCHAR', 'The first page linking to it'],
  ]),
});

const largeImages = declare({
  id: 'large_images',
  description: 'Custom extraction 1: images over the size limit',
  kind: 'extraction',
  required: false,
  key: ['url', 'imgSrc'],
  columns: req([
    ['url', 'VARCHAR', 'The page'],
    ['imgSrc', 'VARCHAR', 'The image source'],
    ['imgSize', 'DOUBLE', 'Image size in kB'],
  ]),
});

const imagesMissingAlt = declare({
  id: 'images_missing_alt',
  description: 'Custom extraction 2: images without alt text',
  kind: 'extraction',
  required: false,
  key: ['url', 'imgSrc'],
  columns: req([
    ['url', 'VARCHAR', 'The page'],
    ['imgSrc', 'VARCHAR', 'The image source'],
  ]),
});

const source = <const Id extends string>(
  id: Id,
  description: string,
  key: string[],
  cols: Col[],
): DeclaredTable<Id, 'source'> => ({
  id,
  description,
  kind: 'source',
  required: false,
  key,
  columns: req(cols),
});

const sources = [
  source(
    'search_console',
    'Search console by URL and day',
    ['date', 'url'],
    [
      ['date', 'DATE', 'Day'],
      ['url', 'VARCHAR', 'Landing URL'],
      ['clicks', 'BIGINT', 'Clicks'],
      ['impressions', 'BIGINT', 'Impressions'],
      ['position', 'DOUBLE', 'Average position'],
    ],
  ),
  source(
    'search_console_queries',
    'Search console by URL, query and day',
    ['date', 'url', 'query'],
    [
      ['date', 'DATE', 'Day'],
      ['url', 'VARCHAR', 'Landing URL'],
      ['query', 'VARCHAR', 'Search query'],
      ['clicks', 'BIGINT', 'Clicks'],
      ['impressions', 'BIGINT', 'Impressions'],
      ['position', 'DOUBLE', 'Average position'],
    ],
  ),
  source(
    'search_console_site',
    'Search console for the whole property by query and day',
    ['date', 'query'],
    [
      ['date', 'DATE', 'Day'],
      ['query', 'VARCHAR', 'Search query'],
      ['clicks', 'BIGINT', 'Clicks'],
      ['impressions', 'BIGINT', 'Impressions'],
      ['position', 'DOUBLE', 'Average position of the topmost result'],
    ],
  ),
  source(
    'analytics',
    'Web analytics by URL, channel and day',
    ['date', 'url', 'channel'],
    [
      ['date', 'DATE', 'Day'],
      ['url', 'VARCHAR', 'Landing URL'],
      ['channel', 'VARCHAR', 'Acquisition channel'],
      ['sessions', 'BIGINT', 'Sessions'],
      ['users', 'BIGINT', 'Users'],
      ['new_users', 'BIGINT', 'New users'],
      ['page_views', 'BIGINT', 'Page views'],
      ['conversions', 'BIGINT', 'Goal conversions'],
      ['revenue', 'DOUBLE', 'Revenue in pounds'],
      ['transactions', 'BIGINT', 'Transactions'],
    ],
  ),
  source(
    'ads_one',
    'Ads platform one by URL, query, search term and day',
    ['date', 'url', 'query', 'search_term'],
    [
      ['date', 'DATE', 'Day'],
      ['url', 'VARCHAR', 'Landing URL'],
      ['query', 'VARCHAR', 'Keyword'],
      ['search_term', 'VARCHAR', 'Search term that triggered the ad'],
      ['clicks', 'BIGINT', 'Clicks'],
      ['conversions', 'DOUBLE', 'Conversions'],
      ['all_conversions', 'DOUBLE', 'All conversions'],
      ['costs', 'DOUBLE', 'Costs in pounds'],
      ['impressions', 'BIGINT', 'Impressions'],
      ['revenue', 'DOUBLE', 'Revenue in pounds'],
      ['all_revenue', 'DOUBLE', 'All revenue in pounds'],
    ],
  ),
  source(
    'ads_two',
    'Ads platform two by URL and day',
    ['date', 'url'],
    [
      ['date', 'DATE', 'Day'],
      ['url', 'VARCHAR', 'Landing URL'],
      ['clicks', 'BIGINT', 'Clicks'],
      ['conversions', 'DOUBLE', 'Conversions'],
      ['costs', 'DOUBLE', 'Costs in pounds'],
      ['impressions', 'BIGINT', 'Impressions'],
      ['revenue', 'DOUBLE', 'Revenue in pounds'],
    ],
  ),
  source(
    'trends',
    'Search interest by topic, query and week',
    ['date', 'topic', 'query'],
    [
      ['date', 'DATE', 'Week start'],
      ['topic', 'VARCHAR', 'Topic'],
      ['query', 'VARCHAR', 'Query'],
      ['value', 'DOUBLE', 'Relative interest, 0-100'],
    ],
  ),
  source(
    'keyword_planner',
    'Keyword planner volumes per query',
    ['customer_id', 'request_date', 'query'],
    [
      ['customer_id', 'VARCHAR', 'Ads customer id'],
      ['network', 'VARCHAR', 'Search network'],
      ['countries', 'VARCHAR[]', 'Targeted country codes'],
      ['language', 'VARCHAR', 'Targeted language'],
      ['request_date', 'DATE', 'When the volumes were requested'],
      ['query', 'VARCHAR', 'Keyword'],
      ['average_cpc', 'DOUBLE', 'Average cost per click in pounds'],
      ['average_search_volume', 'BIGINT', 'Average monthly searches'],
      ['total_search_volume', 'BIGINT', 'Searches over the monthly records'],
      ['competition', 'VARCHAR', 'LOW, MEDIUM or HIGH'],
      ['competition_index', 'INTEGER', 'Competition, 0-100'],
      ['monthly_records', MONTHLY_RECORD, 'Searches per month'],
    ],
  ),
];

export const exportTables = [
  urls,
  links,
  uniqueLinks,
  sitemaps,
  uncrawledUrls,
  largeImages,
  imagesMissingAlt,
  ...sources,
] as const satisfies readonly ExportTable[];

export type ExportTableId = (typeof exportTables)[number]['id'];

/** The tables a crawler writes: the crawl tables and the custom extractions (the data sources come from elsewhere). */
export type CrawledTableId = Extract<(typeof exportTables)[number], { kind: 'crawl' | 'extraction' }>['id'];

/** The crawl tables: a report reads its rows from one of them. */
export type SourceTableId = Extract<(typeof exportTables)[number], { kind: 'crawl' }>['id'];
export const sourceTableIds = exportTables
  .filter((t): t is Extract<(typeof exportTables)[number], { kind: 'crawl' }> => t.kind === 'crawl')
  .map((t) => t.id);

export function exportTable(id: ExportTableId): ExportTable {
  const table = exportTables.find((t) => t.id === id);
  if (!table) throw new Error(`export table ${id} is not declared`);
  return table;
}

export const MANIFEST_FILE = 'manifest.json';
export const parquetFileOf = (tableId: string): string => `${tableId}.parquet`;
