/** The rendered crawl's urls and links columns (catalog/render-contract.ts) as SQL over export-crawl.ts's tables. */
import { renderedLinkColumns, renderedUrlColumns } from '../../../catalog/render-contract.ts';

/** A count over a list of the page's render, for pages whose render was tried (NULL otherwise). */
const countOf = (...lists: string[]): string =>
  `CASE WHEN g.rs IS NOT NULL AND g.rs <> 'skipped' THEN ${lists.map((l) => `coalesce(len(g.${l}), 0)`).join(' + ')} END`;

/** The urls columns, by name; `g` is the page table. */
export function renderedUrlExpressions(): Record<string, string> {
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
  return { rendered_only: 'CASE WHEN f_rn THEN coalesce(ro, false) END' };
}

/** NULL for every rendered column: what a writer that renders nothing (the demo generator) puts there. */
export const unrenderedColumns = (table: 'urls' | 'links'): Record<string, string> =>
  Object.fromEntries((table === 'urls' ? renderedUrlColumns : renderedLinkColumns).map(([name]) => [name, 'NULL']));
