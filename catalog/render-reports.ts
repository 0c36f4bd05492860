/**
 * The rendered crawl's findings (`--render-mode all`), one definition each, spread into reports.ts's list: what only
 * JavaScript shows (links, content, head values it changes), what goes wrong in the browser, and navigation built
 * on hash routes. In a crawl that rendered nothing their columns are NULL and they hold no rows.
 */
import { HASH_NAVIGATION_ROUTES } from './constants.ts';
import type { ReportDefinition } from './schema.ts';

type Make = (
  draft: Omit<
    ReportDefinition,
    'tableId' | 'contentType' | 'keyColumns' | 'subKeyColumns' | 'includeTrends' | 'includeTable' | 'internalType'
  > &
    Partial<Pick<ReportDefinition, 'contentType' | 'internalType'>>,
) => ReportDefinition;
type MakeLinks = (draft: Parameters<Make>[0] & Pick<ReportDefinition, 'internalType'>) => ReportDefinition;

export const renderReports = (onUrls: Make, onLinks: MakeLinks): ReportDefinition[] => [
  onLinks({
    id: 'links/rendered-only',
    category: 'links',
    title: 'Links only in the rendered page',
    description:
      'Internal links that exist only after JavaScript ran. Crawlers that do not render never find their targets, and search engines find them later, in their rendering queue.',
    severity: 'MEDIUM',
    internalType: 'internal',
    filter: 'COALESCE(rendered_only, FALSE) AND internal',
    datatableColumns: ['url_from', 'url_to', 'anchor_text', 'url_to_status_code', 'link_type', 'rendered_only'],
  }),
  onUrls({
    id: 'meta/changed-by-javascript',
    category: 'meta',
    title: 'Head changed by JavaScript',
    description:
      'Pages whose title, description, canonical, meta robots or H1 differ between the HTML the server sends and the rendered page. Search engines may index either version: send the final values in the HTML.',
    severity: 'MEDIUM',
    filter: 'len(head_changed_by_javascript) > 0',
    datatableColumns: [
      'url',
      'head_changed_by_javascript',
      'raw_page_title',
      'page_title',
      'raw_description',
      'description',
      'raw_canonical_url',
      'canonical_html_url',
      'raw_meta_noindex',
      'meta_noindex',
      'raw_h1_tag',
      'h1_tag',
      'ai_title',
    ],
  }),
  onUrls({
    id: 'content/rendered-only',
    category: 'content',
    title: 'Content only after rendering',
    description:
      'Pages whose body text comes mostly from JavaScript: the rendered page has far more words than the HTML the server sends, so the content depends on rendering to be seen.',
    severity: 'MEDIUM',
    filter:
      'rendered_words_added >= {RENDERED_WORDS_ADDED_MIN} AND rendered_words_added >= ({RENDERED_WORDS_RATIO} - 1) * COALESCE(raw_word_count, 0)',
    datatableColumns: [
      'url',
      'page_title',
      'raw_word_count',
      'word_count',
      'rendered_words_added',
      'raw_links_out_count',
      'links_out_count',
    ],
  }),
  onUrls({
    id: 'crawl/javascript-errors',
    category: 'crawl',
    title: 'Pages with JavaScript errors',
    description:
      'Pages that logged console errors or threw uncaught exceptions while rendering. What the error stopped may be missing for search engines too.',
    severity: 'LOW',
    filter: 'COALESCE(js_error_count, 0) > 0',
    datatableColumns: ['url', 'page_title', 'js_error_count', 'js_exceptions', 'js_console_errors', 'failed_requests'],
  }),
  onUrls({
    id: 'crawl/robots-blocked-resources',
    category: 'crawl',
    title: 'Rendering needs resources robots.txt blocks',
    description:
      'Pages that request scripts, styles or data robots.txt disallows. Search engines render them without those resources, so what they build is missing.',
    severity: 'MEDIUM',
    filter: 'COALESCE(robots_blocked_resource_count, 0) > 0',
    datatableColumns: ['url', 'page_title', 'robots_blocked_resource_count', 'robots_blocked_resources'],
  }),
  onUrls({
    id: 'crawl/render-timeouts',
    category: 'crawl',
    title: 'Pages that did not render in time',
    description:
      'Pages whose rendering timed out, crashed or failed. A search engine gives up on them too, or indexes what was there at that moment.',
    severity: 'HIGH',
    filter: "render_status IN ('timeout', 'crashed', 'failed')",
    datatableColumns: ['url', 'render_status', 'render_reason', 'render_time', 'page_title', 'word_count'],
  }),
  onUrls({
    id: 'crawl/hash-routes',
    category: 'crawl',
    title: 'Navigation built on hash routes',
    description: `Pages whose navigation is built on hash routes (#/…): links to ${HASH_NAVIGATION_ROUTES} or more of them. Search engines treat everything after # as one page, so the views behind these links are not indexed: give each view a URL of its own.`,
    severity: 'HIGH',
    filter: 'COALESCE(hash_route_count, 0) >= {HASH_NAVIGATION_ROUTES}',
    datatableColumns: ['url', 'page_title', 'hash_route_count', 'hash_routes'],
  }),
];
