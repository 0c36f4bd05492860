/**
 * Recording what a fetch returned: the page row (status, headers, what its HTML says), one edge row per target it
 * links to (all instances folded into one), images missing alt text, and the targets handed to the frontier.
 */
import { DEFAULT_MAX_BODY_BYTES, headerValue, type FetchResponse } from './fetcher.ts';
import type { Frontier } from './frontier.ts';
import { normalizeResolvedUrl, normalizeUrl } from './normalize-url.ts';
import type { ParsedPage } from './parsed-page.ts';
import { ParsePool } from './parse-pool.ts';
import { charsetOf, parseLinkHeader, parseRobotsHeader, redirectTarget } from './response-headers.ts';
import type { RowWriter } from './row-writer.ts';
import { LinkKind, type EdgeRecord, type ImageRecord, type PageRecord } from './crawl-records.ts';
import type { RestrictedReason } from './scope.ts';
import { navigationCut, rawTargets, RenderNavigations, renderView, type PageRenderer } from './rendered-page.ts';

type LinkKindId = (typeof LinkKind)[keyof typeof LinkKind];

/** The start URL is the first URL the crawl knows. */
export const START_ID = 0;

/**
 * One link of a page to one target, all instances folded into one row (the links table's key is the pair): an edge
 * row but for its page (`f`) and with every key present.
 */
interface Edge extends Required<Omit<EdgeRecord, 'f' | 'ro' | 'xo'>> {
  t: number;
  /** The target's URL (not written: the row names it by id). */
  u: string;
  k: LinkKindId;
  a: string;
  r: string | null;
  nf: boolean;
  ic: number;
  im: boolean;
  al: boolean | null;
  hl: string | null;
}

/** An edge before its target is known by id. */
type EdgeOf = Omit<Edge, 't' | 'u'>;

/** A link without anchor or image: canonical, hreflang and redirect links. */
const plainEdge = (k: LinkKindId, r: string | null, hl: string | null): EdgeOf => ({
  k,
  a: '',
  r,
  nf: false,
  ic: 1,
  im: false,
  al: null,
  hl,
});

/**
 * An edge row without its defaults (no anchor, no rel, followed, one instance, no image): links are most of what a
 * crawl writes, and crawl-tables.ts puts the defaults back (EDGE_DEFAULTS).
 */
function edgeLine(f: number, e: Edge, origins: LinkOrigins | null): string {
  let line = `{"f":${f},"t":${e.t},"k":${e.k}`;
  if (e.a !== '') line += `,"a":${JSON.stringify(e.a)}`;
  if (e.r !== null) line += `,"r":${JSON.stringify(e.r)}`;
  if (e.nf) line += ',"nf":true';
  if (e.ic !== 1) line += `,"ic":${e.ic}`;
  if (e.im) line += ',"im":true';
  if (e.al !== null) line += `,"al":${e.al}`;
  if (e.hl !== null) line += `,"hl":${JSON.stringify(e.hl)}`;
  if (origins?.renderedOnly.has(e.t)) line += ',"ro":true';
  if (origins?.rawOnly.has(e.t)) line += ',"xo":true';
  return `${line}}\n`;
}

/** Folding priority when a page links to one target in several ways. */
const KIND_RANK: Record<LinkKindId, number> = { 0: 0, 4: 1, 2: 2, 3: 3, 1: 4, 5: 5 };

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A rendered page's hyperlink and image targets that only one of its versions has, by target id. */
interface LinkOrigins {
  renderedOnly: Set<number>;
  rawOnly: Set<number>;
}

/** Adds a page's link to a target and returns the target's id, or null when the page's other version had it. */
type AddEdge = (target: string, edge: EdgeOf) => number | null;

type Redirect = { target: string; kind: 'http' | 'meta' | 'js' };

export interface PageWriters {
  pages: RowWriter<PageRecord>;
  edges: RowWriter<EdgeRecord>;
  images: RowWriter<ImageRecord>;
}

export class PageRecorder {
  private parser: ParsePool | null = null;
  /** Pages whose HTML could not be parsed. */
  parseFailures = 0;
  private readonly navigations = new RenderNavigations();

  constructor(
    private readonly frontier: Frontier,
    private readonly writers: PageWriters,
    /** The start URL redirected (HTTP, meta or JavaScript) to `target`. */
    private readonly onStartRedirect: (target: string) => Promise<void>,
    /** `--render-mode all`: pages are rendered, and their rendered DOM is what the row and edges read. */
    private readonly renderer: PageRenderer | null = null,
  ) {}

  /** An internal URL's response: its page row and edges, and its targets followed. */
  async record(id: number, url: string, response: FetchResponse): Promise<void> {
    const { frontier } = this;
    const depth = frontier.depthOf(id) + 1;
    const robotsHeader = parseRobotsHeader(headerValue(response.headers, 'x-robots-tag'));
    const linkHeader = parseLinkHeader(headerValue(response.headers, 'link'), url);
    const contentType = headerValue(response.headers, 'content-type') ?? null;
    const edges = new Map<number, Edge>();
    const row: PageRecord = {
      id,
      st: response.status,
      err: response.error,
      ft: round3(response.elapsedMs / 1000),
      sz: response.bodySize,
      ...robotsHeader,
      ch: linkHeader.canonical === null ? null : frontier.know(linkHeader.canonical, id, depth),
    };
    const addEdge = (target: string, edge: EdgeOf): number => {
      const t = frontier.know(target, id, depth);
      const existing = edges.get(t);
      if (!existing) edges.set(t, { t, u: target, ...edge });
      else if (KIND_RANK[edge.k] < KIND_RANK[existing.k])
        edges.set(t, { t, u: target, ...edge, ic: edge.ic + existing.ic });
      else existing.ic += edge.ic;
      return t;
    };
    const location = redirectTarget(response, url);
    let redirect: Redirect | null = location === null ? null : { target: location, kind: 'http' };
    if (response.isTruncated) row.err = `body over the ${megabytes(DEFAULT_MAX_BODY_BYTES)} limit, truncated`;
    let page: ParsedPage | null = null;
    if (response.body) {
      // A page its parser could not take (a worker out of memory on a monster page) is recorded unparsed.
      page = await this.parse(response.body, url, charsetOf(contentType)).catch((error: Error) => {
        this.parseFailures++;
        row.err = `${row.err ? `${row.err}; ` : ''}HTML not parsed (${error.message})`;
        return null;
      });
    }
    // Rendered crawl: the rendered DOM replaces the raw page; the raw one adds the links only it has.
    let raw: ParsedPage | null = null;
    let origins: LinkOrigins | null = null;
    const navigationsBefore = this.navigations.take(id);
    let navigationHops = 0;
    if (page !== null && this.renderer !== null) {
      const noindexBy = robotsHeader.hn ? 'X-Robots-Tag header' : page.metaNoindex ? 'HTML' : null;
      const parse = (html: Buffer): Promise<ParsedPage> => this.parse(html, url);
      const view = await renderView(this.renderer, parse, url, page, linkHeader, noindexBy);
      Object.assign(row, view.columns);
      if (view.navigatedTo !== null && view.navigatedTo !== url && redirect === null) {
        const cut = navigationCut(navigationsBefore + 1, view.navigatedTo);
        if (cut === null)
          [redirect, navigationHops] = [{ target: view.navigatedTo, kind: 'js' }, navigationsBefore + 1];
        else row.rw = cut;
      }
      if (view.page !== null) [raw, page] = [page, view.page];
    }
    if (page !== null) {
      redirect ??= pageRedirect(page, url);
      Object.assign(row, pageColumns(page));
      const canonical = page.canonicalUrl === null ? null : normalizeUrl(page.canonicalUrl);
      // Another scheme's canonical (file:///…) is a known URL never followed, so the page's canonical stays invalid.
      const otherScheme = canonical === null && URL.canParse(page.canonicalUrl ?? '') ? page.canonicalUrl : null;
      const named = canonical ?? otherScheme;
      row.cm = named === null ? null : frontier.know(named, id, depth);
      this.addPageEdges(page, id, url, canonical, addEdge);
      if (raw !== null) origins = this.addRawEdges(raw, id, url, depth, edges, addEdge);
    }
    for (const resource of page?.resources ?? []) {
      const target = normalizeResolvedUrl(resource);
      if (target !== null) addEdge(target, plainEdge(LinkKind.resource, null, null));
    }
    for (const alternate of linkHeader.hreflang) {
      if (alternate.url === url) continue;
      addEdge(alternate.url, plainEdge(LinkKind.hreflang, 'alternate', alternate.hreflang));
    }
    if (linkHeader.canonical !== null && linkHeader.canonical !== url) {
      addEdge(linkHeader.canonical, plainEdge(LinkKind.canonical, 'canonical', null));
    }
    if (redirect !== null) {
      row.rd = addEdge(redirect.target, plainEdge(LinkKind.redirect, null, null));
      row.rk = redirect.kind;
      if (navigationHops > 0) this.navigations.reach(row.rd, navigationHops);
    }
    this.writers.pages.write(row);
    if (id === START_ID && redirect !== null) await this.onStartRedirect(redirect.target);
    await this.followEdges(id, depth, edges, robotsHeader.hf || (page?.metaNofollow ?? false), origins);
  }

  /** An external URL's check: status and redirect target; nothing of it is parsed. */
  recordExternal(id: number, url: string, response: FetchResponse): void {
    const location = redirectTarget(response, url);
    this.writers.pages.write({
      id,
      st: response.status,
      err: response.error,
      ft: round3(response.elapsedMs / 1000),
      rd: location === null ? null : this.frontier.know(location, id, this.frontier.depthOf(id)),
      rk: location === null ? null : 'http',
      sz: response.bodySize,
    });
  }

  private parse(body: Buffer, url: string, charset: string | null = 'utf-8'): Promise<ParsedPage> {
    this.parser ??= new ParsePool();
    return this.parser.parse(body, charset, url);
  }

  /**
   * The raw page's links the rendered DOM lost (search engines see those too), added after the rendered page's;
   * returns the hyperlink and image targets only one version has.
   */
  private addRawEdges(
    raw: ParsedPage,
    id: number,
    url: string,
    depth: number,
    edges: Map<number, Edge>,
    addEdge: AddEdge,
  ): LinkOrigins {
    const { frontier } = this;
    const rendered = new Set(edges.keys());
    const inRaw = new Set([...rawTargets(raw)].map((target) => frontier.know(target, id, depth)));
    this.addPageEdges(raw, id, url, null, (target, edge) => {
      const t = frontier.know(target, id, depth);
      return rendered.has(t) ? null : addEdge(target, edge);
    });
    const isLink = (t: number): boolean => {
      const k = edges.get(t)?.k;
      return k === LinkKind.href || k === LinkKind.image;
    };
    return {
      renderedOnly: new Set([...rendered].filter((t) => !inRaw.has(t) && isLink(t))),
      rawOnly: new Set([...inRaw].filter((t) => !rendered.has(t) && isLink(t))),
    };
  }

  /** Gives the parsers' memory back (before the export). */
  async closeParser(): Promise<void> {
    await this.parser?.close();
    this.parser = null;
  }

  private addPageEdges(page: ParsedPage, id: number, url: string, canonical: string | null, addEdge: AddEdge): void {
    for (const link of page.links) {
      const target = normalizeResolvedUrl(link.url);
      if (target === null) continue;
      addEdge(target, {
        k: LinkKind.href,
        a: link.anchorText,
        r: link.rel,
        nf: link.nofollow,
        ic: 1,
        im: link.hasImageLink,
        al: link.hasImageLink ? link.hasImageAltText : null,
        hl: link.hreflang,
      });
    }
    for (const image of page.images) {
      const target = normalizeResolvedUrl(image.src);
      if (target === null) continue;
      const t = addEdge(target, {
        k: LinkKind.image,
        a: image.alt ?? '',
        r: null,
        nf: false,
        ic: 1,
        im: true,
        al: !!image.alt,
        hl: null,
      });
      // An image both versions show is one row (the rendered DOM's).
      if (t === null) continue;
      this.writers.images.write({ f: id, src: target, ma: image.alt === null || image.alt.trim() === '' });
    }
    if (canonical !== null && canonical !== url) {
      addEdge(canonical, plainEdge(LinkKind.canonical, 'canonical', null));
    }
    for (const alternate of page.hreflang) {
      const target = normalizeUrl(alternate.url);
      if (target === null || target === url) continue;
      addEdge(target, plainEdge(LinkKind.hreflang, 'alternate', alternate.hreflang));
    }
  }

  private async followEdges(
    id: number,
    depth: number,
    edges: Map<number, Edge>,
    isNofollowPage: boolean,
    origins: LinkOrigins | null,
  ): Promise<void> {
    const follows: Promise<void>[] = [];
    for (const edge of edges.values()) {
      this.writers.edges.writeLine(edgeLine(id, edge, origins));
      const isAlwaysFollowed = edge.k !== LinkKind.href && edge.k !== LinkKind.image;
      const nofollow: RestrictedReason | null = isAlwaysFollowed
        ? null
        : isNofollowPage
          ? 'meta_nofollow'
          : edge.nf
            ? 'link_nofollow'
            : null;
      if (!this.frontier.isUnvisited(edge.t)) continue;
      const targetDepth = edge.k === LinkKind.redirect ? depth - 1 : depth;
      follows.push(this.frontier.follow(edge.t, edge.u, targetDepth, nofollow, this.frontier.links));
    }
    await Promise.all(follows);
  }
}

/** A meta refresh or JavaScript redirect to another URL than the page's own. */
function pageRedirect(page: ParsedPage, url: string): Redirect | null {
  const meta = page.metaRefreshUrl === null ? null : normalizeUrl(page.metaRefreshUrl);
  if (meta !== null && meta !== url) return { target: meta, kind: 'meta' };
  const js = page.jsRedirectUrl === null ? null : normalizeUrl(page.jsRedirectUrl);
  if (js !== null && js !== url) return { target: js, kind: 'js' };
  return null;
}

function pageColumns(page: ParsedPage): PageRecord {
  return {
    html: true,
    ti: page.title,
    de: page.description,
    h1: page.h1,
    h2: page.h2,
    h3: page.h3,
    wc: page.wordCount,
    cs: page.contentSize,
    bh: page.bodyHash,
    cc: page.hasConflictingCanonicals,
    mn: page.metaNoindex,
    mf: page.metaNofollow,
    sd: page.hasStructuredData,
    sc: page.schemaCounts,
    og: page.openGraph,
    hib: page.headTagsInBody,
    bih: page.bodyTagsInHead,
  };
}
