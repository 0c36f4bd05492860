/** Zod schemas of the catalogue; every catalogue type derives from these. */
import { z } from 'zod';
import { sourceTableIds, type SourceTableId } from './export-contract.ts';

/**
 * The html-page rule of contentType html, stated here once: a 2xx answer with none of these (what only a parsed page
 * has) was not a page but a stylesheet, script, font, image or PDF. Each is optional in the contract, so any one will do.
 */
export const PAGE_CONTENT_COLUMNS = ['html_size', 'page_title', 'word_count'] as const;
/** What tells a page from another 2xx answer (contentType html); such a report's table must have them all. */
export const HTML_PAGE_COLUMNS = ['http_status_code', ...PAGE_CONTENT_COLUMNS] as const;

export const severities = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE'] as const;
export const severitySchema = z.enum(severities);
export type Severity = z.infer<typeof severitySchema>;

export const categoryIds = [
  'analytics',
  'canonical',
  'content',
  'crawl',
  'external',
  'hreflang',
  'images',
  'internal',
  'links',
  'meta',
  'performance',
  'redirects',
  'schema',
  'search-console',
  'security',
  'sitemap',
  'status-code',
] as const;
export const categoryIdSchema = z.enum(categoryIds);
export type CategoryId = z.infer<typeof categoryIdSchema>;

export const categorySchema = z.object({
  id: categoryIdSchema,
  label: z.string().min(1),
  /** A Tabler-style icon name the dashboard maps to an SVG. */
  icon: z.string().min(1),
  /** Position in the spec's category list. */
  order: z.number().int().nonnegative(),
  /** Hidden categories exist as routes but list no reports. */
  isHidden: z.boolean(),
  /** Shown only for websites whose segment has hreflang enabled. */
  isHreflangOnly: z.boolean(),
});
export type Category = z.infer<typeof categorySchema>;

export { sourceTableIds, type SourceTableId };
export const sourceTableIdSchema = z.enum(sourceTableIds as [SourceTableId, ...SourceTableId[]]);

export const subRowKinds = ['redirect-chain', 'duplicate-set', 'link-sources'] as const;

export const reportDefinitionSchema = z.object({
  /** `category/report`, equal to the route's last two segments. */
  id: z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/),
  category: categoryIdSchema,
  title: z.string().min(1),
  description: z.string().min(1),
  severity: severitySchema,
  tableId: sourceTableIdSchema,
  /**
   * html: pages only, leaving out URLs that answered 2xx with another content type (stylesheets, scripts, fonts,
   * PDFs: their html_size is NULL); a URL with no 2xx answer has no content of its own and stays. none: every URL.
   */
  contentType: z.enum(['link', 'html', 'none']),
  internalType: z.enum(['internal', 'external', 'all']),
  /** A DuckDB boolean over one row of the source table; `{CONSTANT_NAME}` stands for a catalogue constant. */
  filter: z.string().min(1),
  keyColumns: z.array(z.string()).min(1),
  subKeyColumns: z.array(z.string()),
  datatableColumns: z.array(z.string()).min(1),
  includeTrends: z.boolean(),
  includeTable: z.boolean(),
  subRow: z.enum(subRowKinds).optional(),
});
export type ReportDefinition = z.infer<typeof reportDefinitionSchema>;

export const displayFormats = [
  'text',
  'boolean',
  'currency',
  'date',
  'compact-number',
  'compact-number-2dp',
  'long-number',
  'long-number-2dp',
  'percent',
  'status-code',
  'url',
  'capitalised',
  'redirect-chain',
  'ai-suggestion',
  'rank-bar',
  'image-list',
  'heading-list',
] as const;
export const displayFormatSchema = z.enum(displayFormats);
export type DisplayFormat = z.infer<typeof displayFormatSchema>;

export const columnGroups = [
  'Checklist',
  'Crawl',
  'Google Search Console',
  'Analytics',
  'Ads platform one',
  'Ads platform two',
  'Trends',
  'Keyword planner',
  'Others',
] as const;

export const columnFamilies = [
  'url',
  'links',
  'sitemap',
  'uncrawled',
  'joined',
  'shared',
  'analytics',
  'ads-one',
  'search-console',
  'trends',
  'keyword-planner',
  'ads-two',
  'others',
] as const;

export const columnVisibilities = ['always', 'isAi', 'conversionGoal', 'ecommerceGoal'] as const;

export const columnJoins = ['search_console', 'analytics', 'checklist', 'ai'] as const;

export const catalogColumnSchema = z.object({
  id: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  /** The column whose value is displayed (often the id itself). */
  displayColumn: z.string(),
  title: z.string().min(1),
  tooltip: z.string().min(1),
  type: z.enum(['string', 'integer', 'number', 'boolean', 'date', 'string-list', 'struct-list']),
  format: displayFormatSchema,
  group: z.enum(columnGroups),
  family: z.enum(columnFamilies),
  /** Report source tables this column can appear in. */
  tables: z.array(sourceTableIdSchema),
  visibility: z.enum(columnVisibilities),
  /** A query-valued column opens the query-report dialog. */
  isQuery: z.boolean().optional(),
  /**
   * Set when the value is not a column of the report's source table but reaches the row another way: a metric
   * joined by URL from a data source over the request's date range (`search_console`, `analytics`), the
   * checklist state (`checklist`), or an AI suggestion fetched by the browser (`ai`). Only the first two are SQL
   * columns that filters may use.
   */
  joinedFrom: z.enum(columnJoins).optional(),
  /**
   * A metric joined from `search_console` or `analytics`: the DuckDB aggregate over that source's rows of one URL
   * in the request's date range (and channel), cast to the column's type. `gsc_top_query` has none: it comes from
   * a relation of its own.
   */
  aggregate: z.string().min(1).optional(),
  /** The export-contract column the value is read or aggregated from, when it comes from one column. */
  source: z.object({ table: z.string(), column: z.string() }).optional(),
});
export type CatalogColumn = z.infer<typeof catalogColumnSchema>;

/**
 * Dated events the 'Issues over time' chart marks (catalog/key-dates.json, editable without code): search engine
 * updates, and calendar events that move search traffic (clock changes, shopping days, public holidays).
 */
export const keyDateKinds = ['search-engine-update', 'calendar'] as const;

export const keyDateSchema = z.object({
  date: z.iso.date(),
  label: z.string().min(1).max(40),
  kind: z.enum(keyDateKinds),
});
export type KeyDate = z.infer<typeof keyDateSchema>;
