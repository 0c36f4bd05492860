/**
 * The crawler: fetches a website breadth-first from its start URL (and its sitemaps), streams what it sees to row
 * files, and at the end turns them into a crawl export (export-crawl.ts). Memory holds the known-URL set (a few
 * numbers per URL) and the pages in flight, never the content of pages already seen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { CrawlOptions, CrawlProgress, CrawlResult, PageVitals } from './crawl-options.ts';
import { exportCrawl, LinkKind, type CrawlRows } from './export-crawl.ts';
import { Fetcher, headerValue, type FetchResponse } from './fetcher.ts';
import { normalizeResolvedUrl, normalizeUrl } from './normalize-url.ts';
import type { ParsedPage } from './parsed-page.ts';
import { ParsePool } from './parse-pool.ts';
import { allowAll, parseRobots, robotsUrlOf, type RobotsRules } from './robots.ts';
import { RowWriter } from './row-writer.ts';
import { Scope, type Placement, type RestrictedReason } from './scope.ts';
import { parseSitemap } from './sitemaps.ts';

export { CrawlError } from './crawl-error.ts';
import { CrawlError } from './crawl-error.ts';

type LinkKindId = (typeof LinkKind)[keyof typeof LinkKind];

/** The start URL is the first URL the crawl knows. */
const START_ID = 0;
/** Sitemap indexes nest at most this deep. */
const MAX_SITEMAP_DEPTH = 5;
const PROGRESS_INTERVAL_MS = 250;

const enum State {
  /** Known, not to be fetched (see reason). */
  Known = 0,
  Queued = 1,
  Fetched = 2,
}

const PLACEMENT_CODES: Record<Placement, string> = { internal: 'i', outside_scope: 'o', external: 'e' };

interface HostState {
  rules: RobotsRules;
  delayMs: number;
  nextAt: number;
}

/** One link of a page to one target, all instances folded into one row (the links table's key is the pair). */
interface Edge {
  t: number;
  k: LinkKindId;
  a: string;
  r: string | null;
  nf: boolean;
  ic: number;
  im: boolean;
  al: boolean | null;
  hl: string | null;
}

/** A link without anchor or image: canonical, hreflang and redirect links. */
const plainEdge = (k: LinkKindId, r: string | null, hl: string | null): Omit<Edge, 't'> => ({
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
 * crawl writes, and export-crawl.ts puts the defaults back (EDGE_DEFAULTS).
 */
function edgeLine(f: number, e: Edge): string {
  let line = `{"f":${f},"t":${e.t},"k":${e.k}`;
  if (e.a !== '') line += `,"a":${JSON.stringify(e.a)}`;
  if (e.r !== null) line += `,"r":${JSON.stringify(e.r)}`;
  if (e.nf) line += ',"nf":true';
  if (e.ic !== 1) line += `,"ic":${e.ic}`;
  if (e.im) line += ',"im":true';
  if (e.al !== null) line += `,"al":${e.al}`;
  if (e.hl !== null) line += `,"hl":${JSON.stringify(e.hl)}`;
  return `${line}}\n`;
}

/** Folding priority when a page links to one target in several ways. */
const KIND_RANK: Record<LinkKindId, number> = { 0: 0, 4: 1, 2: 2, 3: 3, 1: 4, 5: 5 };

/** Work directories of running crawls and the export files they have moved into place so far. */
const activeCrawls = new Set<{ workDir: string; written: string[] }>();

/**
 * Removes, synchronously (for a second Ctrl-C), what running crawls have written: their work directories and any
 * export file already moved into place, so an aborted crawl leaves nothing behind.
 */
export function abandonCrawlsSync(): void {
  for (const crawl of activeCrawls) {
    for (const file of [...crawl.written].reverse()) fs.rmSync(file, { recursive: true, force: true });
    fs.rmSync(crawl.workDir, { recursive: true, force: true });
  }
  activeCrawls.clear();
}

export async function crawlWebsite(options: CrawlOptions): Promise<CrawlResult> {
  const crawler = new Crawler(options);
  try {
    return await crawler.run();
  } finally {
    await crawler.dispose();
  }
}

class Crawler {
  private readonly started = Date.now();
  private readonly startUrl: string;
  /** Where the site is: the start URL, or the twin it redirects to (see Scope.isTwin). */
  private siteUrl: string;
  private notice: string | undefined;
  private readonly scope: Scope;
  private readonly fetcher: Fetcher;
  private parser: ParsePool | null = null;
  private readonly workDir: string;
  private readonly hosts = new Map<string, Promise<HostState>>();
  private readonly controller = new AbortController();
  private readonly active: { workDir: string; written: string[] };

  // The known-URL set: parallel arrays indexed by URL id.
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly placement: Placement[] = [];
  private readonly state: State[] = [];
  private readonly reason: (RestrictedReason | null)[] = [];
  private readonly depth: number[] = [];
  private readonly foundAt: number[] = [];
  private readonly foundAtSitemap: (string | null)[] = [];

  private readonly linkQueue: number[] = [];
  private linkHead = 0;
  private readonly sitemapQueue: number[] = [];
  private sitemapHead = 0;
  private readonly externalQueue: number[] = [];
  private externalHead = 0;
  private internalCount = 0;
  private inFlight = 0;
  private wake: (() => void) | null = null;

  private fetched = 0;
  private errors = 0;
  private lastProgress = 0;

  private pages!: RowWriter;
  private edges!: RowWriter;
  private images!: RowWriter;
  private sitemaps!: RowWriter;

  constructor(private readonly options: CrawlOptions) {
    const start = normalizeUrl(options.startUrl);
    if (!start) throw new CrawlError(`start URL ${options.startUrl} is not an http(s) URL`);
    this.startUrl = start;
    this.siteUrl = start;
    this.scope = new Scope(start, options);
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-'));
    this.active = { workDir: this.workDir, written: [] };
    activeCrawls.add(this.active);
    this.fetcher = new Fetcher({
      concurrency: options.concurrency,
      userAgent: options.userAgent,
      signal: this.controller.signal,
    });
    options.signal?.addEventListener('abort', () => this.controller.abort(), { once: true });
    if (options.signal?.aborted) this.controller.abort();
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async run(): Promise<CrawlResult> {
    this.pages = new RowWriter(path.join(this.workDir, 'pages.ndjson'));
    this.edges = new RowWriter(path.join(this.workDir, 'edges.ndjson'));
    this.images = new RowWriter(path.join(this.workDir, 'images.ndjson'));
    this.sitemaps = new RowWriter(path.join(this.workDir, 'sitemaps.ndjson'));

    const startId = this.know(this.startUrl, -1, 0);
    this.enqueue(startId, this.linkQueue);
    await this.host(this.startUrl);
    this.linkHead++;
    const first = await this.fetchInternal(startId);
    if (first?.status === null && first.error !== 'aborted') {
      throw new CrawlError(`start URL ${this.startUrl} is unreachable (${first.error ?? 'no response'})`);
    }
    await this.readSitemaps(await this.host(this.siteUrl));
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency) }, () => this.work()));
    // The parsers' memory goes back before DuckDB takes its share for the end-of-crawl tables.
    await this.parser?.close();
    this.parser = null;

    const stoppedEarly = this.signal.aborted;
    collectGarbage();
    await Promise.all([this.pages.close(), this.edges.close(), this.images.close(), this.sitemaps.close()]);
    const rows: CrawlRows = {
      workDir: this.workDir,
      pages: this.pages.file,
      edges: this.edges.file,
      images: this.images.file,
      sitemaps: this.sitemaps.file,
      nodes: this.writeNodes(),
      renderCount: this.signal.aborted ? 0 : this.options.render,
      render: (urls) => this.render(urls),
      startId,
    };
    const { manifest, tables } = await exportCrawl(rows, {
      outDir: this.options.outDir,
      websiteId: this.options.websiteId,
      crawlId: this.options.crawlId,
      startUrl: this.startUrl,
      crawledAt: new Date(this.started),
      stoppedEarly,
      written: this.active.written,
    });
    this.reportProgress(true);
    return {
      outDir: this.options.outDir,
      manifest,
      fetched: this.fetched,
      tables,
      stoppedEarly,
      elapsedMs: Date.now() - this.started,
      ...(this.notice === undefined ? {} : { notice: this.notice }),
    };
  }

  async dispose(): Promise<void> {
    activeCrawls.delete(this.active);
    await Promise.all([this.fetcher.close(), this.parser?.close()]);
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }

  // ---- the known-URL set and the queues ------------------------------------------------------------------------

  private know(url: string, from: number, depth: number): number {
    let id = this.ids.get(url);
    if (id !== undefined) return id;
    id = this.urls.length;
    this.ids.set(url, id);
    this.urls.push(url);
    this.placement.push(this.scope.place(url));
    this.state.push(State.Known);
    this.reason.push(null);
    this.depth.push(depth);
    this.foundAt.push(from);
    this.foundAtSitemap.push(null);
    return id;
  }

  private enqueue(id: number, queue: number[]): void {
    if (this.state[id] !== State.Known) return;
    this.state[id] = State.Queued;
    this.reason[id] = null;
    queue.push(id);
    if (queue !== this.externalQueue) this.internalCount++;
    this.wake?.();
  }

  private restrict(id: number, reason: RestrictedReason): void {
    if (this.state[id] === State.Known && this.reason[id] === null) this.reason[id] = reason;
  }

  /** Decides what to do with a link target: fetch it, check it (external) or record why not. */
  private async follow(id: number, depth: number, nofollow: RestrictedReason | null, queue: number[]): Promise<void> {
    if (this.state[id] !== State.Known) return;
    const placement = this.placement[id];
    if (placement === 'external') {
      if (this.options.checkExternal !== false) this.enqueue(id, this.externalQueue);
      return;
    }
    if (placement === 'outside_scope') return this.restrict(id, 'outside_scope');
    const url = this.urls[id] as string;
    if (this.scope.isExcluded(url)) return this.restrict(id, 'excluded_by_pattern');
    if (nofollow !== null) return this.restrict(id, nofollow);
    if (this.options.respectRobots) {
      const host = await this.host(url);
      if (!host.rules.isAllowed(url)) return this.restrict(id, 'robots_disallowed');
    }
    if (depth > this.options.maxDepth || this.internalCount >= this.options.maxUrls) {
      return this.restrict(id, 'crawl_limit');
    }
    this.enqueue(id, queue);
  }

  private next(): { id: number; isExternal: boolean } | null {
    if (this.linkHead < this.linkQueue.length)
      return { id: this.linkQueue[this.linkHead++] as number, isExternal: false };
    if (this.sitemapHead < this.sitemapQueue.length)
      return { id: this.sitemapQueue[this.sitemapHead++] as number, isExternal: false };
    if (this.externalHead < this.externalQueue.length)
      return { id: this.externalQueue[this.externalHead++] as number, isExternal: true };
    return null;
  }

  private async work(): Promise<void> {
    while (!this.signal.aborted) {
      const item = this.next();
      if (!item) {
        if (this.inFlight === 0) {
          this.wake?.();
          return;
        }
        await new Promise<void>((resolve) => {
          const previous = this.wake;
          this.wake = () => {
            this.wake = null;
            previous?.();
            resolve();
          };
        });
        continue;
      }
      this.inFlight++;
      try {
        if (item.isExternal) await this.checkExternal(item.id);
        else await this.fetchInternal(item.id);
      } finally {
        this.inFlight--;
        this.wake?.();
      }
      await this.pages.drained();
      await this.edges.drained();
    }
  }

  // ---- hosts and robots.txt ------------------------------------------------------------------------------------

  private host(url: string): Promise<HostState> {
    const key = originOf(url);
    let host = this.hosts.get(key);
    if (!host) {
      host = this.loadHost(url);
      this.hosts.set(key, host);
    }
    return host;
  }

  /** robots.txt is read for the hosts the crawl fetches pages from; external hosts only get their links checked. */
  private async loadHost(url: string): Promise<HostState> {
    let rules = allowAll;
    if (this.scope.place(url) === 'internal') {
      const robotsUrl = robotsUrlOf(url);
      const response = await this.fetcher.fetch(robotsUrl, { wantsBody: () => true });
      if (response.status !== null && response.status >= 200 && response.status < 300 && response.body) {
        rules = parseRobots(robotsUrl, response.body.toString('utf8'), this.options.userAgent);
      }
    }
    const crawlDelay = this.options.respectRobots ? rules.crawlDelayMs : 0;
    return { rules, delayMs: Math.max(this.options.delayMs, crawlDelay), nextAt: 0 };
  }

  /** Waits for the host's next slot when a delay applies (--delay or robots.txt's crawl-delay). */
  private async politely(url: string): Promise<void> {
    const host = await this.host(url);
    if (host.delayMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, host.nextAt);
    host.nextAt = at + host.delayMs;
    await this.fetcher.pause(at - now);
  }

  // ---- fetching ------------------------------------------------------------------------------------------------

  private async fetchInternal(id: number): Promise<FetchResponse | null> {
    const url = this.urls[id] as string;
    await this.politely(url);
    if (this.signal.aborted) return null;
    const response = await this.fetcher.fetch(url, {
      wantsBody: (status, headers) => status >= 200 && status < 300 && isHtml(headers),
    });
    if (response.error === 'aborted') return response;
    this.state[id] = State.Fetched;
    this.fetched++;
    if (response.status === null || response.status >= 400) this.errors++;
    await this.recordPage(id, response);
    this.reportProgress(false);
    return response;
  }

  /** External targets are checked, never crawled: HEAD, then GET when the server refuses HEAD. */
  private async checkExternal(id: number): Promise<void> {
    const url = this.urls[id] as string;
    await this.politely(url);
    if (this.signal.aborted) return;
    let response = await this.fetcher.fetch(url, { method: 'HEAD' });
    if (response.status === 405 || response.status === 501) {
      response = await this.fetcher.fetch(url);
    }
    if (response.error === 'aborted') return;
    this.state[id] = State.Fetched;
    this.fetched++;
    const location = redirectTarget(response, url);
    this.pages.write({
      id,
      st: response.status,
      err: response.error,
      ct: headerValue(response.headers, 'content-type') ?? null,
      ft: round3(response.elapsedMs / 1000),
      rd: location === null ? null : this.know(location, id, this.depth[id] ?? 0),
      rk: location === null ? null : 'http',
      sz: response.bodySize,
    });
  }

  private async recordPage(id: number, response: FetchResponse): Promise<void> {
    const url = this.urls[id] as string;
    const depth = (this.depth[id] ?? 0) + 1;
    const headers = response.headers;
    const robotsHeader = parseRobotsHeader(headerValue(headers, 'x-robots-tag'));
    const linkHeader = parseLinkHeader(headerValue(headers, 'link'), url);
    const contentType = headerValue(headers, 'content-type') ?? null;
    const edges = new Map<number, Edge>();
    const row: Record<string, unknown> = {
      id,
      st: response.status,
      err: response.error,
      ct: contentType,
      ft: round3(response.elapsedMs / 1000),
      sz: response.bodySize,
      ...robotsHeader,
      ch: linkHeader.canonical === null ? null : this.know(linkHeader.canonical, id, depth),
    };
    const addEdge = (target: string, edge: Omit<Edge, 't'>): number => {
      const t = this.know(target, id, depth);
      const existing = edges.get(t);
      if (!existing) edges.set(t, { t, ...edge });
      else if (KIND_RANK[edge.k] < KIND_RANK[existing.k]) edges.set(t, { t, ...edge, ic: edge.ic + existing.ic });
      else existing.ic += edge.ic;
      return t;
    };
    let isNofollowPage = robotsHeader.hf;
    let redirect: { target: string; kind: 'http' | 'meta' | 'js' } | null = null;

    const location = redirectTarget(response, url);
    if (location !== null) redirect = { target: location, kind: 'http' };
    let page: ParsedPage | null = null;
    if (response.body) {
      this.parser ??= new ParsePool();
      // A page its parser could not take (a worker out of memory on a monster page) is recorded unparsed.
      page = await this.parser.parse(response.body, charsetOf(contentType), url).catch(() => null);
    }
    if (page !== null) {
      isNofollowPage ||= page.metaNofollow;
      const meta = page.metaRefreshUrl === null ? null : normalizeUrl(page.metaRefreshUrl);
      const js = page.jsRedirectUrl === null ? null : normalizeUrl(page.jsRedirectUrl);
      if (redirect === null && meta !== null && meta !== url) redirect = { target: meta, kind: 'meta' };
      else if (redirect === null && js !== null && js !== url) redirect = { target: js, kind: 'js' };
      Object.assign(row, pageColumns(page));
      const canonical = page.canonicalUrl === null ? null : normalizeUrl(page.canonicalUrl);
      // Another scheme's canonical (file:///…) is a known URL never followed, so the page's canonical stays invalid.
      const otherScheme = canonical === null && URL.canParse(page.canonicalUrl ?? '') ? page.canonicalUrl : null;
      const named = canonical ?? otherScheme;
      row.cm = named === null ? null : this.know(named, id, depth);
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
        addEdge(target, {
          k: LinkKind.image,
          a: image.alt ?? '',
          r: null,
          nf: false,
          ic: 1,
          im: true,
          al: !!image.alt,
          hl: null,
        });
        if (image.alt === null || image.alt.trim() === '') this.images.write({ f: id, src: target, ma: true });
        else this.images.write({ f: id, src: target, ma: false });
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
    }
    this.pages.write(row);

    if (id === START_ID && redirect !== null) this.followStartRedirect(redirect.target);
    const follows: Promise<void>[] = [];
    for (const edge of edges.values()) {
      this.edges.writeLine(edgeLine(id, edge));
      const isAlwaysFollowed = edge.k !== LinkKind.href && edge.k !== LinkKind.image;
      const nofollow: RestrictedReason | null = isAlwaysFollowed
        ? null
        : isNofollowPage
          ? 'meta_nofollow'
          : edge.nf
            ? 'link_nofollow'
            : null;
      if (this.state[edge.t] !== State.Known) continue;
      follows.push(this.follow(edge.t, edge.k === LinkKind.redirect ? depth - 1 : depth, nofollow, this.linkQueue));
    }
    await Promise.all(follows);
  }

  /**
   * A start URL redirecting to its twin (www, scheme, port) makes the twin the site, as the user meant it; to another
   * site, the redirect is recorded and that site left alone, with a notice saying so.
   */
  private followStartRedirect(target: string): void {
    if (this.scope.place(target) === 'internal') return;
    if (!this.scope.isTwin(target)) {
      this.notice =
        `start URL ${this.startUrl} redirects to ${target}, another website: the redirect is recorded, ` +
        `that website is not crawled (start at ${target} to crawl it)`;
      return;
    }
    this.scope.adopt(target);
    this.siteUrl = target;
    for (let id = 0; id < this.urls.length; id++) this.placement[id] = this.scope.place(this.urls[id] as string);
  }

  // ---- sitemaps ------------------------------------------------------------------------------------------------

  private async readSitemaps(startHost: HostState): Promise<void> {
    const seen = new Set<string>();
    const listed: { url: string; foundAt: string }[] = [];
    for (const url of startHost.rules.sitemaps) listed.push({ url, foundAt: 'robots.txt' });
    for (const url of this.options.sitemaps) listed.push({ url, foundAt: 'the start URL' });
    const fallback = new URL('/sitemap.xml', this.siteUrl).href;
    const pending: { url: string; foundAt: string; depth: number; isOptional: boolean }[] = [];
    for (const { url, foundAt } of listed) {
      const normal = normalizeUrl(url);
      if (normal !== null) pending.push({ url: normal, foundAt, depth: 0, isOptional: false });
    }
    if (!pending.some((p) => p.url === fallback))
      pending.push({ url: fallback, foundAt: 'the start URL', depth: 0, isOptional: true });
    while (pending.length > 0 && !this.signal.aborted) {
      const sitemap = pending.shift()!;
      if (seen.has(sitemap.url)) continue;
      seen.add(sitemap.url);
      const row: Record<string, unknown> = { url: sitemap.url, found_at: sitemap.foundAt };
      if (this.options.respectRobots && !(await this.host(sitemap.url)).rules.isAllowed(sitemap.url)) {
        if (!sitemap.isOptional) this.sitemaps.write({ ...row, restricted_reason: 'robots_disallowed' });
        continue;
      }
      const response = await this.fetcher.fetch(sitemap.url, {
        wantsBody: (status) => status < 300,
      });
      if (response.error === 'aborted') break;
      const isOk =
        response.status !== null && response.status >= 200 && response.status < 300 && response.body !== null;
      if (sitemap.isOptional && !isOk) continue;
      row.http_status_code = response.status;
      if (!isOk) {
        this.sitemaps.write({ ...row, fetch_error: response.error ?? `HTTP ${response.status ?? ''}`.trim() });
        continue;
      }
      const parsed = parseSitemap(response.body!);
      Object.assign(row, {
        sitemap_type: parsed.type,
        format: parsed.format,
        parse_error: parsed.parseError,
        file_size: response.bodySize,
      });
      if (parsed.type === 'index') {
        row.links_count = parsed.locs.length;
        row.url_count = 0;
        for (const loc of parsed.locs) {
          const child = normalizeUrl(loc, sitemap.url);
          if (child !== null && sitemap.depth < MAX_SITEMAP_DEPTH)
            pending.push({ url: child, foundAt: sitemap.url, depth: sitemap.depth + 1, isOptional: false });
        }
      } else {
        row.links_count = 0;
        row.url_count = parsed.locs.length;
        for (const loc of parsed.locs) {
          const target = normalizeUrl(loc, sitemap.url);
          if (target === null) continue;
          const id = this.know(target, -1, 0);
          this.foundAtSitemap[id] ??= sitemap.url;
          await this.follow(id, 0, null, this.sitemapQueue);
        }
      }
      this.sitemaps.write(row);
    }
  }

  // ---- end of crawl --------------------------------------------------------------------------------------------

  private async render(urls: string[]): Promise<PageVitals[]> {
    if (urls.length === 0 || this.signal.aborted) return [];
    // Loaded on demand: playwright-core is heavy to import and most crawls render nothing.
    const { renderPages } = await import('./render.ts');
    return renderPages(urls, { userAgent: this.options.userAgent, signal: this.signal });
  }

  /** The known-URL set as rows; queued URLs the crawl never fetched (a limit, or Ctrl-C) become crawl_limit. */
  private writeNodes(): string {
    const file = path.join(this.workDir, 'nodes.ndjson');
    const fd = fs.openSync(file, 'w');
    try {
      let chunk: string[] = [];
      for (let id = 0; id < this.urls.length; id++) {
        const state = this.state[id];
        const reason = state === State.Queued ? 'crawl_limit' : state === State.Known ? this.reason[id] : null;
        chunk.push(
          `${JSON.stringify({
            id,
            url: this.urls[id],
            pl: PLACEMENT_CODES[this.placement[id] ?? 'external'],
            fe: state === State.Fetched,
            rr: this.placement[id] === 'external' ? null : reason,
            fa: this.foundAt[id] === -1 ? null : this.foundAt[id],
            sm: this.foundAtSitemap[id],
          })}\n`,
        );
        if (chunk.length >= 4096) {
          fs.writeSync(fd, chunk.join(''));
          chunk = [];
        }
      }
      fs.writeSync(fd, chunk.join(''));
    } finally {
      fs.closeSync(fd);
    }
    return file;
  }

  private reportProgress(isFinal: boolean): void {
    const now = Date.now();
    if (!this.options.onProgress || (!isFinal && now - this.lastProgress < PROGRESS_INTERVAL_MS)) return;
    this.lastProgress = now;
    const elapsedMs = now - this.started;
    const progress: CrawlProgress = {
      pagesDone: this.fetched,
      queued:
        this.linkQueue.length -
        this.linkHead +
        this.sitemapQueue.length -
        this.sitemapHead +
        this.externalQueue.length -
        this.externalHead,
      errors: this.errors,
      pagesPerSecond: elapsedMs > 0 ? (this.fetched * 1000) / elapsedMs : 0,
      elapsedMs,
    };
    this.options.onProgress(progress);
  }
}

// ---- pure helpers ------------------------------------------------------------------------------------------------

/** `scheme://host:port` of a normalised URL, without parsing it again. */
const originOf = (url: string): string => {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? url : url.slice(0, slash);
};

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

function isHtml(headers: FetchResponse['headers']): boolean {
  const type = headerValue(headers, 'content-type');
  if (type === undefined) return true;
  return /^\s*(text\/html|application\/xhtml\+xml)/i.test(type);
}

function charsetOf(contentType: string | null): string | null {
  const match = contentType === null ? null : /charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? null;
}

function redirectTarget(response: FetchResponse, url: string): string | null {
  if (response.status === null || response.status < 300 || response.status > 399) return null;
  const location = headerValue(response.headers, 'location');
  return location === undefined ? null : normalizeUrl(location, url);
}

export interface RobotsHeader {
  hn: boolean;
  hf: boolean;
  ha: boolean;
  hs: boolean;
  hi: boolean;
  ht: boolean;
}

/** X-Robots-Tag directives; a value scoped to a named user agent (`otherbot: noindex`) applies all the same. */
export function parseRobotsHeader(value: string | undefined): RobotsHeader {
  const directives = new Set(
    (value ?? '')
      .toLowerCase()
      .split(/[,;]/)
      .map((part) => part.replace(/^\s*[\w-]+\s*:\s*(?=[a-z])/, '').trim()),
  );
  const isNone = directives.has('none');
  return {
    hn: isNone || directives.has('noindex'),
    hf: isNone || directives.has('nofollow'),
    ha: directives.has('noarchive'),
    hs: directives.has('nosnippet'),
    hi: directives.has('noimageindex'),
    ht: directives.has('notranslate'),
  };
}

export interface LinkHeader {
  canonical: string | null;
  hreflang: { hreflang: string; url: string }[];
}

/** `Link: <url>; rel="canonical", <url>; rel="alternate"; hreflang="de"`, targets resolved against the page. */
export function parseLinkHeader(value: string | undefined, pageUrl: string): LinkHeader {
  const result: LinkHeader = { canonical: null, hreflang: [] };
  if (!value) return result;
  for (const match of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const target = normalizeUrl(match[1] ?? '', pageUrl);
    const params = match[2] ?? '';
    if (target === null) continue;
    const rel = /\brel\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1]?.toLowerCase().split(/\s+/) ?? [];
    const hreflang = /\bhreflang\s*=\s*"?([^";,]+)"?/i.exec(params)?.[1];
    if (rel.includes('canonical')) result.canonical ??= target;
    else if (rel.includes('alternate') && hreflang) result.hreflang.push({ hreflang, url: target });
  }
  return result;
}

function pageColumns(page: ParsedPage): Record<string, unknown> {
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

/**
 * One full collection before the export: the crawl's garbage would otherwise still hold its pages while DuckDB takes
 * its share, and that sum is the crawl's peak RSS (measured on rust-doc: about 560 MB with it, 595–620 MB without).
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
