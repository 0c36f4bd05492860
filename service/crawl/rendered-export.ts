/** The rendered crawl's urls and links columns (catalog/render-contract.ts) as SQL over export-crawl.ts's tables. */
import { renderedLinkColumns, renderedUrlColumns, type HeadField } from '../../catalog/render-contract.ts';

/** A count over a list of the page's render, for pages whose render was tried (NULL otherwise). */
const countOf = (...lists: string[]): string =>
  `CASE WHEN g.rs IS NOT NULL AND g.rs <> 'skipped' THEN ${lists.map((l) => `coalesce(len(g.${l}), 0)`).join(' + ')} END`;

/** The urls columns whose rendered and raw values a rendered crawl compares, as the export computes them. */
export type PageExpressions = Record<
  'page_title' | 'description' | 'canonical_html_url' | 'meta_noindex' | 'meta_nofollow' | 'h1_tag' | 'word_count',
  string
>;

/** Each head field's rendered and raw value; a missing flag or H1 list is the same as a false or empty one. */
const headPairs = (page: PageExpressions): Record<HeadField, [rendered: string, raw: string]> => ({
  title: [page.page_title, 'g.xti'],
  description: [page.description, 'g.xde'],
  canonical: [page.canonical_html_url, 'g.xcn'],
  noindex: [`coalesce(${page.meta_noindex}, false)`, 'coalesce(g.xmn, false)'],
  nofollow: [`coalesce(${page.meta_nofollow}, false)`, 'coalesce(g.xmf, false)'],
  h1: [`coalesce(${page.h1_tag}, [])`, 'coalesce(g.xh1, [])'],
});

/** The head fields JavaScript changed, in HEAD_FIELDS's order, for rendered pages (NULL otherwise). */
function headChanged(page: PageExpressions): string {
  const flags = Object.entries(headPairs(page)).map(
    ([field, [rendered, raw]]) => `CASE WHEN ${rendered} IS DISTINCT FROM ${raw} THEN '${field}' END`,
  );
  return `CASE WHEN g.rn THEN list_filter([${flags.join(', ')}], f -> f IS NOT NULL) END`;
}

/** The urls columns, by name; `g` is the page table, `page` the export's expressions of the compared columns. */
export function renderedUrlExpressions(page: PageExpressions): Record<string, string> {
  const expressions: Record<string, string> = {
    rendered: 'g.rn',
    render_status: 'g.rs',
    render_reason: 'g.rw',
    render_time: 'g.rt',
    raw_page_title: 'g.xti',
    raw_description: 'g.xde',
    raw_canonical_url: 'g.xcn',
    raw_meta_noindex: 'g.xmn',
    raw_meta_nofollow: 'g.xmf',
    raw_h1_tag: 'g.xh1',
    raw_word_count: 'g.xwc',
    raw_links_out_count: 'g.xlc',
    raw_h2_tag: 'g.xh2',
    raw_h3_tag: 'g.xh3',
    raw_hreflang_links_out_count: 'g.xhl',
    raw_has_structured_data: 'g.xsd',
    raw_schema_types: 'g.xst',
    content_hash: 'CASE WHEN g.html THEN g.bh END',
    raw_content_hash: 'g.xbh',
    head_changed_by_javascript: headChanged(page),
    rendered_words_added: `CASE WHEN g.rn THEN ${page.word_count} - coalesce(g.xwc, 0) END`,
    js_error_count: countOf('rce', 'rpe'),
    js_console_errors: 'g.rce',
    js_exceptions: 'g.rpe',
    failed_request_count: countOf('rfq'),
    failed_requests: 'g.rfq',
    robots_blocked_resource_count: countOf('rrb'),
    robots_blocked_resources: 'g.rrb',
    hash_route_count: countOf('rhr'),
    hash_routes: 'g.rhr',
  };
  return expressions;
}

/** The links columns; the link rows carry the linking page's `rn` as f_rn. */
export function renderedLinkExpressions(): Record<string, string> {
  return {
    rendered_only: 'CASE WHEN f_rn THEN coalesce(ro, false) END',
    raw_only: 'CASE WHEN f_rn THEN coalesce(xo, false) END',
  };
}

/** NULL for every rendered column: what a writer that renders nothing (the demo generator) puts there. */
export const unrenderedColumns = (table: 'urls' | 'links'): Record<string, string> =>
  Object.fromEntries((table === 'urls' ? renderedUrlColumns : renderedLinkColumns).map(([name]) => [name, 'NULL']));
