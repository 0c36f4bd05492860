/** The column catalogue's entries for the rendered crawl's columns (render-contract.ts), spread into columns.ts. */
import type { CatalogColumn, SourceTableId } from './schema.ts';

const URLS: SourceTableId[] = ['urls'];

type Kind = 'boolean' | 'text' | 'url' | 'integer' | 'seconds' | 'list';
const FORMATS: Record<Kind, Pick<CatalogColumn, 'type' | 'format'>> = {
  boolean: { type: 'boolean', format: 'boolean' },
  text: { type: 'string', format: 'text' },
  url: { type: 'string', format: 'url' },
  integer: { type: 'integer', format: 'long-number' },
  seconds: { type: 'number', format: 'long-number-2dp' },
  list: { type: 'string-list', format: 'heading-list' },
};

const entry = (id: string, title: string, tooltip: string, kind: Kind, tables = URLS): CatalogColumn => ({
  id,
  displayColumn: id,
  title,
  tooltip,
  ...FORMATS[kind],
  group: 'Crawl',
  family: tables === URLS ? 'url' : 'links',
  tables: [...tables],
  visibility: 'always',
});

export const renderedColumns: CatalogColumn[] = [
  entry('rendered', 'Rendered', 'The page’s columns come from its rendered DOM, not its raw HTML.', 'boolean'),
  entry(
    'render_status',
    'Render Status',
    'rendered (the network went quiet), timeout (snapshot at the cap), crashed, navigated away, failed, or skipped ' +
      '(the raw HTML says noindex, so the page is not rendered).',
    'text',
  ),
  entry('render_reason', 'Render Reason', 'Why the render ended, with the cap and what was still loading.', 'text'),
  entry('render_time', 'Render Time (s)', 'Seconds from navigation start to the rendered snapshot.', 'seconds'),
  entry('raw_page_title', 'Raw Title', 'The <title> of the HTML the server sent, before JavaScript ran.', 'text'),
  entry('raw_description', 'Raw Description', 'The meta description of the HTML the server sent.', 'text'),
  entry('raw_canonical_url', 'Raw Canonical URL', 'The canonical link of the HTML the server sent.', 'url'),
  entry('raw_meta_noindex', 'Raw Meta Noindex', 'The HTML the server sent says noindex.', 'boolean'),
  entry('raw_meta_nofollow', 'Raw Meta Nofollow', 'The HTML the server sent says nofollow.', 'boolean'),
  entry('raw_h1_tag', 'Raw H1 Headings', 'The H1 headings of the HTML the server sent.', 'list'),
  entry('raw_word_count', 'Raw Word Count', 'Words of body content in the HTML the server sent.', 'integer'),
  entry('raw_links_out_count', 'Raw Links Out', 'Hyperlinks in the HTML the server sent.', 'integer'),
  entry('raw_h2_tag', 'Raw H2 Headings', 'The H2 headings of the HTML the server sent.', 'list'),
  entry('raw_h3_tag', 'Raw H3 Headings', 'The H3 headings of the HTML the server sent.', 'list'),
  entry(
    'raw_hreflang_links_out_count',
    'Raw Hreflang Links Out',
    'Language alternates the HTML the server sent (and its Link header) declares.',
    'integer',
  ),
  entry(
    'raw_has_structured_data',
    'Raw Structured Data',
    'The HTML the server sent carries schema.org markup.',
    'boolean',
  ),
  entry('raw_schema_types', 'Raw Schema Types', 'The schema.org types the HTML the server sent has items of.', 'list'),
  entry(
    'content_hash',
    'Content Hash',
    'Hash of the visible body text (of the rendered page in a rendered crawl): pages with the same text share it.',
    'text',
  ),
  entry('raw_content_hash', 'Raw Content Hash', 'Hash of the visible body text of the HTML the server sent.', 'text'),
  entry(
    'head_changed_by_javascript',
    'Changed by JavaScript',
    'The head fields (title, description, canonical, noindex, nofollow, H1) whose rendered value differs from the ' +
      'HTML the server sent.',
    'list',
  ),
  entry(
    'rendered_words_added',
    'Words Added by Rendering',
    'Words of body content the rendered page has beyond the HTML the server sent (rendered minus raw word count).',
    'integer',
  ),
  entry('js_error_count', 'JavaScript Errors', 'Console errors and uncaught exceptions while rendering.', 'integer'),
  entry('js_console_errors', 'Console Errors', 'What the page logged as errors while rendering.', 'list'),
  entry('js_exceptions', 'Uncaught Exceptions', 'Exceptions the page’s scripts left uncaught while rendering.', 'list'),
  entry('failed_request_count', 'Failed Requests', 'Subrequests that failed or answered 4xx/5xx.', 'integer'),
  entry('failed_requests', 'Failed Request URLs', 'The failed subrequests with their status or error.', 'list'),
  entry(
    'robots_blocked_resource_count',
    'Robots-Blocked Resources',
    'Resources the page requested while rendering that robots.txt disallows: search engines render it without them.',
    'integer',
  ),
  entry('robots_blocked_resources', 'Robots-Blocked URLs', 'The resources robots.txt disallows.', 'list'),
  entry('hash_route_count', 'Hash Routes', 'Hash routes (#/…) the page and its views link to.', 'integer'),
  entry('hash_routes', 'Hash Route List', 'The hash routes, which search engines do not index as pages.', 'list'),
  entry(
    'rendered_only',
    'Rendered Only',
    'The link exists only after JavaScript ran: a crawler reading the raw HTML does not find it.',
    'boolean',
    ['links'],
  ),
  entry(
    'raw_only',
    'Raw Only',
    'The link is only in the HTML the server sent: the rendered page dropped it, though crawlers that do not render follow it.',
    'boolean',
    ['links'],
  ),
];
