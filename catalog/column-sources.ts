/**
 * Which version of a page each column of a rendered crawl's export (`--render-mode all`) came from: the rendered DOM,
 * the raw response, the browser's own record, both, or the crawl itself (COLUMN_SOURCES says what each means). Every
 * column of every crawled table is named here once (column-sources.test.ts holds it to the contract), and the
 * crawler writes the table into the manifest of each rendered crawl as `columnSources`.
 */
import { openGraphFields, schemaTypes, type CrawledTableId } from './export-contract.ts';
import type { ColumnSource } from './render-contract.ts';

type Sources = Record<string, ColumnSource>;

const each = (names: readonly string[], source: ColumnSource): Sources =>
  Object.fromEntries(names.map((name) => [name, source]));

const DUPLICATE_SETS = ['title', 'description', 'page', 'body'].flatMap((what) => [
  `duplicate_${what}`,
  `duplicate_${what}_count`,
  `duplicate_${what}_primary_url`,
]);
const HEADER_DIRECTIVES = ['noindex', 'nofollow', 'noarchive', 'nosnippet', 'noimageindex', 'notranslate'];

const urls: Sources = {
  ...each(['url', 'internal', 'found_in_sitemap', 'found_at_sitemap'], 'crawl'),
  // The response, as the server sent it.
  ...each(['http_status_code', 'html_size', 'canonical_header_url', 'fetch_time', 'fetch_error'], 'raw'),
  ...each(
    HEADER_DIRECTIVES.map((d) => `header_${d}`),
    'raw',
  ),
  // What the page says: its rendered DOM.
  ...each(
    [
      'page_title',
      'page_title_length',
      'description',
      'description_length',
      'h1_count',
      'h1_length',
      'h1_tag',
      'h2_tag',
      'h3_tag',
      'content_size',
      'word_count',
      'content_hash',
      'canonical_html_url',
      'canonical_links_in_count',
      'meta_nofollow',
      'meta_noindex',
      'has_structured_data',
      'head_tags_in_body_count',
      'body_tags_in_head_count',
      ...DUPLICATE_SETS,
      'primary_page',
    ],
    'rendered',
  ),
  ...each(
    schemaTypes.map((t) => `${t}_schema_count`),
    'rendered',
  ),
  ...each(
    openGraphFields.map((f) => `og_${f}`),
    'rendered',
  ),
  // The status and headers of the response with the rendered head, or the links of both versions.
  ...each(
    [
      'indexable',
      'found_in_web_crawl',
      'found_at_url',
      'canonical_url',
      'is_self_canonical',
      'canonicalized_page',
      'hreflang_links_in_count',
      'hreflang_links_out_count',
      'links_in_count',
      'links_out_count',
      'redirect_count',
      'redirect_chain',
      'redirected_to_url',
      'redirected_to_status_code',
      'is_redirect',
      'is_redirect_loop',
      'deeprank',
      'level',
      'head_changed_by_javascript',
      'rendered_words_added',
    ],
    'both',
  ),
  ...each(
    ['cls', 'dcl', 'fcp', 'lcp', 'ttfb', 'tti'].map((m) => `performance_${m}`),
    'browser',
  ),
  ...each(
    [
      'rendered',
      'render_status',
      'render_reason',
      'render_time',
      'js_error_count',
      'js_console_errors',
      'js_exceptions',
      'failed_request_count',
      'failed_requests',
      'robots_blocked_resource_count',
      'robots_blocked_resources',
      'hash_route_count',
      'hash_routes',
    ],
    'browser',
  ),
  ...each(
    [
      'raw_page_title',
      'raw_description',
      'raw_canonical_url',
      'raw_meta_noindex',
      'raw_meta_nofollow',
      'raw_h1_tag',
      'raw_word_count',
      'raw_links_out_count',
      'raw_h2_tag',
      'raw_h3_tag',
      'raw_hreflang_links_out_count',
      'raw_has_structured_data',
      'raw_schema_types',
      'raw_content_hash',
    ],
    'raw',
  ),
};

/** A link row is the rendered DOM's, or the raw HTML's when only it has the link (raw_only says so). */
const linkAttributes = ['link_type', 'anchor_text', 'nofollow', 'has_image_link', 'has_image_alt_text'];

const links: Sources = {
  ...each(['url_from', 'internal', 'url_from_https', 'url_to_https', 'is_restricted', 'restricted_reason'], 'crawl'),
  ...each(['url_from_status_code', 'url_to_status_code', 'is_redirect'], 'raw'),
  ...each(['url_from_title', 'url_to_title'], 'rendered'),
  ...each(
    [
      'url_to',
      'url_from_deeprank',
      'url_to_deeprank',
      'hreflang',
      'attr_rel',
      'instance_count',
      'rendered_only',
      'raw_only',
      ...linkAttributes,
    ],
    'both',
  ),
};

const uniqueLinks: Sources = {
  ...each(['internal', 'url_from_https', 'url_to_https', 'is_restricted'], 'crawl'),
  ...each(['primary_url_from_status_code', 'url_to_status_code', 'is_redirect'], 'raw'),
  url_to_title: 'rendered',
  ...each(['url_to', 'primary_url_from', 'url_to_deeprank', 'instance_count', ...linkAttributes], 'both'),
};

/** Every column of every table a crawler writes, by table; the data sources' tables come from elsewhere. */
export const columnSources: Record<CrawledTableId, Sources> = {
  urls,
  links,
  unique_links: uniqueLinks,
  sitemaps: each(
    [
      'url',
      'sitemap_type',
      'format',
      'found_at',
      'links_count',
      'url_count',
      'fetch_error',
      'parse_error',
      'http_status_code',
      'restricted_reason',
      'file_size',
    ],
    'crawl',
  ),
  uncrawled_urls: { url: 'crawl', restricted_reason: 'crawl', found_at_url: 'both' },
  large_images: { url: 'crawl', imgSrc: 'both', imgSize: 'raw' },
  images_missing_alt: { url: 'crawl', imgSrc: 'both' },
};
