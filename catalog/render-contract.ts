/**
 * The urls and links columns of a rendered crawl (`--render-mode all`), spread into export-contract.ts's tables: how
 * each page's render went, what went wrong in the browser, and the raw HTML's values of the fields the rendered
 * DOM fills (the page columns themselves then come from the rendered DOM; `rendered` says so per row). NULL in a
 * crawl that rendered nothing, but for content_hash, the twin of raw_content_hash that every crawl fills.
 */
/** The crawl's render modes (`--render-mode`, the Crawls page's setting): see service/crawl/render-settings.ts. */
export const RENDER_MODES = ['none', 'sample', 'all'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

export const RENDER_STATUSES = ['rendered', 'timeout', 'crashed', 'navigated', 'failed', 'skipped'] as const;

/** The head fields whose raw and rendered values a rendered crawl compares (`head_changed_by_javascript`). */
export const HEAD_FIELDS = ['title', 'description', 'canonical', 'noindex', 'nofollow', 'h1'] as const;
export type HeadField = (typeof HEAD_FIELDS)[number];

type Col = [name: string, type: string, description: string, values?: readonly string[]];

export const renderedUrlColumns: Col[] = [
  ['rendered', 'BOOLEAN', 'The page columns come from the rendered DOM (false: from the raw HTML)'],
  [
    'render_status',
    'VARCHAR',
    'rendered (network quiet), timeout (snapshot at the cap), crashed, navigated (away), failed, or skipped (raw noindex)',
    RENDER_STATUSES,
  ],
  ['render_reason', 'VARCHAR', 'Why the render ended: network quiet, the cap and what was in flight, the crash'],
  ['render_time', 'DOUBLE', 'Seconds from navigation to the rendered snapshot'],
  ['raw_page_title', 'VARCHAR', 'The <title> of the raw HTML'],
  ['raw_description', 'VARCHAR', 'The meta description of the raw HTML'],
  ['raw_canonical_url', 'VARCHAR', 'The canonical link of the raw HTML'],
  ['raw_meta_noindex', 'BOOLEAN', 'Meta robots noindex in the raw HTML'],
  ['raw_meta_nofollow', 'BOOLEAN', 'Meta robots nofollow in the raw HTML'],
  ['raw_h1_tag', 'VARCHAR[]', 'H1 texts of the raw HTML'],
  ['raw_word_count', 'INTEGER', 'Words of body content in the raw HTML'],
  ['raw_links_out_count', 'INTEGER', 'Hyperlinks in the raw HTML'],
  ['raw_h2_tag', 'VARCHAR[]', 'H2 texts of the raw HTML'],
  ['raw_h3_tag', 'VARCHAR[]', 'H3 texts of the raw HTML'],
  [
    'raw_hreflang_links_out_count',
    'INTEGER',
    'Language alternates the raw HTML and the Link header declare, counted as hreflang_links_out_count is',
  ],
  ['raw_has_structured_data', 'BOOLEAN', 'The raw HTML carries schema.org markup'],
  [
    'raw_schema_types',
    'VARCHAR[]',
    'The schema.org types the raw HTML has items of (as the *_schema_count columns name them)',
  ],
  [
    'content_hash',
    'VARCHAR',
    "Hash of the visible body text (the rendered DOM's in a rendered crawl): equal texts, equal hashes",
  ],
  ['raw_content_hash', 'VARCHAR', 'Hash of the visible body text of the raw HTML'],
  [
    'head_changed_by_javascript',
    'VARCHAR[]',
    `The head fields (${HEAD_FIELDS.join(', ')}) whose rendered value differs from the raw HTML's; empty when none does`,
  ],
  ['rendered_words_added', 'INTEGER', 'Words of body content rendering added: the rendered word count minus the raw'],
  ['js_error_count', 'INTEGER', 'Console errors and uncaught exceptions while rendering'],
  ['js_console_errors', 'VARCHAR[]', 'Console errors while rendering (the first 20)'],
  ['js_exceptions', 'VARCHAR[]', 'Uncaught exceptions while rendering (the first 20)'],
  ['failed_request_count', 'INTEGER', 'Subrequests that failed or answered 4xx/5xx while rendering'],
  ['failed_requests', 'VARCHAR[]', 'The failed subrequests with their status or error (the first 20)'],
  ['robots_blocked_resource_count', 'INTEGER', 'Resources the page requested that robots.txt disallows'],
  ['robots_blocked_resources', 'VARCHAR[]', 'The resources robots.txt disallows (the first 20)'],
  ['hash_route_count', 'INTEGER', 'Hash routes (#/…) the rendered page and its views link to'],
  ['hash_routes', 'VARCHAR[]', 'The hash routes (#/…), which search engines do not index as pages'],
];

export const renderedLinkColumns: Col[] = [
  [
    'rendered_only',
    'BOOLEAN',
    'A hyperlink or image only the rendered page has, not the raw HTML (false on canonical, hreflang and redirect rows)',
  ],
  [
    'raw_only',
    'BOOLEAN',
    'A hyperlink or image only the raw HTML has: the rendered page dropped it (false on canonical, hreflang and redirect rows)',
  ],
];

/**
 * Where the values of a rendered crawl's export columns come from, one of these per column (catalog/column-sources.ts
 * declares them, and the export's manifest carries them as `columnSources`).
 */
export const COLUMN_SOURCES = {
  rendered: 'the rendered DOM (the raw HTML on a row whose rendered is false: a page not rendered)',
  raw: 'the HTTP response or the raw HTML as the server sent it, never changed by rendering',
  browser: 'what the browser recorded while loading the page: its render, errors and requests, its timings',
  both: 'both versions: compared, or merged (the links of both, each marked when only one version has it)',
  crawl: 'the crawl itself (the URL, its scope, robots.txt and sitemaps): the same with or without rendering',
} as const;
export type ColumnSource = keyof typeof COLUMN_SOURCES;
export const COLUMN_SOURCE_IDS = Object.keys(COLUMN_SOURCES) as [ColumnSource, ...ColumnSource[]];
