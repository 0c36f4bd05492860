/**
 * A page of a rendered crawl (`--render-mode all`): the raw HTML was parsed; unless it says noindex (Google's rule: a
 * raw noindex page is not rendered) the page is loaded in Chromium and its rendered DOM parsed by the same parser,
 * and that is what the crawl reads. The row keeps the raw values of the compared fields beside the rendered ones,
 * and how the render went.
 */
import type { PageRecord } from './crawl-records.ts';
import { normalizeResolvedUrl, normalizeUrl } from './normalize-url.ts';
import type { ParsedPage } from './parsed-page.ts';
import { RENDER_NAVIGATIONS_MAX } from './render-settings.ts';
import type { RenderedPage } from './render/render-result.ts';

export interface PageRenderer {
  render(url: string): Promise<RenderedPage>;
}

export interface RenderedView {
  /** The rendered DOM parsed; null when the page was not rendered or left no DOM (the raw page stands). */
  page: ParsedPage | null;
  /** The render and raw keys of the page row. */
  columns: PageRecord;
  /** Where the page navigated itself to, normalised (a JavaScript redirect seen in the browser). */
  navigatedTo: string | null;
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

/** What the response's Link header says, which a page's hreflang alternates are counted with. */
export interface HeaderLinks {
  canonical: string | null;
  hreflang: { url: string }[];
}

/**
 * The page's hreflang alternates counted as the links table counts them (hreflang_links_out_count): distinct other
 * URLs than the page, the Link header's included, and none the page also links to or names as its canonical (that
 * row of the links table is the stronger kind).
 */
export function hreflangCount(page: ParsedPage, url: string, header: HeaderLinks): number {
  const outranking = new Set([...page.links.map((link) => normalizeResolvedUrl(link.url)), header.canonical]);
  const canonical = page.canonicalUrl === null ? null : normalizeUrl(page.canonicalUrl);
  if (canonical !== url) outranking.add(canonical);
  const targets = new Set(
    [...page.hreflang.map((alternate) => normalizeUrl(alternate.url)), ...header.hreflang.map((a) => a.url)].filter(
      (target): target is string => target !== null && target !== url && !outranking.has(target),
    ),
  );
  return targets.size;
}

/** The raw HTML's values of the fields rendering may change. */
export function rawColumns(raw: ParsedPage, url: string, header: HeaderLinks): PageRecord {
  return {
    xti: raw.title,
    xde: raw.description,
    xcn: raw.canonicalUrl === null ? null : (normalizeUrl(raw.canonicalUrl) ?? raw.canonicalUrl),
    xmn: raw.metaNoindex,
    xmf: raw.metaNofollow,
    xh1: raw.h1,
    xh2: raw.h2,
    xh3: raw.h3,
    xwc: raw.wordCount,
    xlc: raw.links.length,
    xbh: raw.bodyHash,
    xhl: hreflangCount(raw, url, header),
    xsd: raw.hasStructuredData,
    xst: Object.entries(raw.schemaCounts)
      .filter(([, count]) => count > 0)
      .map(([type]) => type),
  };
}

const listOrNull = (list: string[]): string[] | null => (list.length === 0 ? null : list);

/**
 * Renders the page unless its raw response says noindex (`noindexBy` names where), and parses the rendered DOM
 * with `parse`; a DOM that cannot be parsed leaves the raw page standing, with the reason.
 */
export async function renderView(
  renderer: PageRenderer,
  parse: (html: Buffer) => Promise<ParsedPage>,
  url: string,
  raw: ParsedPage,
  header: HeaderLinks,
  noindexBy: string | null,
): Promise<RenderedView> {
  const columns: PageRecord = { ...rawColumns(raw, url, header), rn: false };
  if (noindexBy !== null) {
    return {
      page: null,
      columns: { ...columns, rs: 'skipped', rw: `noindex in the raw ${noindexBy}` },
      navigatedTo: null,
    };
  }
  const rendered = await renderer.render(url);
  Object.assign(columns, {
    rs: rendered.status,
    rw: rendered.reason,
    rt: seconds(rendered.elapsedMs),
    rce: listOrNull(rendered.consoleErrors),
    rpe: listOrNull(rendered.pageErrors),
    rfq: listOrNull(rendered.failedRequests),
    rrb: listOrNull(rendered.robotsBlocked),
    rhr: listOrNull(rendered.hashRoutes),
  });
  const navigatedTo = rendered.navigatedTo === null ? null : normalizeUrl(rendered.navigatedTo);
  if (rendered.html === null) return { page: null, columns, navigatedTo };
  const page = await parse(Buffer.from(rendered.html, 'utf8')).catch((error: Error) => {
    columns.rw = `${rendered.reason}; the rendered DOM was not parsed (${error.message})`;
    return null;
  });
  columns.rn = page !== null;
  return { page, columns, navigatedTo };
}

/** Targets the raw HTML links to (hyperlinks and images): a rendered page's edges to others are rendered-only. */
export function rawTargets(raw: ParsedPage): Set<string> {
  const targets = new Set<string>();
  for (const { url } of [...raw.links, ...raw.images.map((image) => ({ url: image.src }))]) {
    const target = normalizeResolvedUrl(url);
    if (target !== null) targets.add(target);
  }
  return targets;
}

/**
 * Chains of pages that navigate themselves while rendering, by page id: how many such navigations in a row led to a
 * page that waits to be crawled, so that a chain longer than RENDER_NAVIGATIONS_MAX is cut with its reason.
 */
export class RenderNavigations {
  private readonly hops = new Map<number, number>();

  /** How many navigations in a row led to page `id` (0: none), asked once, as the page is recorded. */
  take(id: number): number {
    const hops = this.hops.get(id) ?? 0;
    this.hops.delete(id);
    return hops;
  }

  /** Page `target` was reached by the `hops`th navigation in a row. */
  reach(target: number, hops: number): void {
    if (!this.hops.has(target)) this.hops.set(target, hops);
  }
}

/** Why the `hops`th navigation in a row, to `target`, is not followed; null within the limit. */
export const navigationCut = (hops: number, target: string): string | null =>
  hops <= RENDER_NAVIGATIONS_MAX
    ? null
    : `navigated away to ${target} as page ${hops} in a row to navigate itself while rendering: ` +
      `over the limit of ${RENDER_NAVIGATIONS_MAX}, not followed`;
