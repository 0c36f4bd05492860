/**
 * The frontier: the known-URL set (parallel arrays indexed by URL id, a few numbers per URL) and the queues of URLs
 * to fetch, with the rules deciding whether a found URL is fetched, checked (external) or recorded as restricted.
 */
import fs from 'node:fs';
import type { CrawlOptions } from './crawl-options.ts';
import type { NodeRecord } from './crawl-records.ts';
import type { Hosts } from './hosts.ts';
import type { Placement, RestrictedReason, Scope } from './scope.ts';

const enum State {
  /** Known, not to be fetched (see reason). */
  Known = 0,
  Queued = 1,
  Fetched = 2,
}

const PLACEMENT_CODES: Record<Placement, string> = { internal: 'i', outside_scope: 'o', external: 'e' };

/** URL ids in the order they were queued; `head` is the next to fetch. */
export class IdQueue {
  readonly ids: number[] = [];
  head = 0;

  get size(): number {
    return this.ids.length - this.head;
  }

  shift(): number | undefined {
    return this.head < this.ids.length ? this.ids[this.head++] : undefined;
  }
}

export interface NextUrl {
  id: number;
  isExternal: boolean;
}

export class Frontier {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly placement: Placement[] = [];
  private readonly state: State[] = [];
  private readonly reason: (RestrictedReason | null)[] = [];
  private readonly depth: number[] = [];
  private readonly foundAt: number[] = [];
  private readonly foundAtSitemap: (string | null)[] = [];

  /** Links found on pages, fetched first (breadth-first). */
  readonly links = new IdQueue();
  /** URLs only sitemaps have named so far. */
  readonly sitemapUrls = new IdQueue();
  readonly external = new IdQueue();
  /** Internal URLs queued so far: what max URLs counts. */
  internalCount = 0;
  /** An internal URL was left unfetched because max URLs were queued: the crawl is partial. */
  isMaxUrlsReached = false;
  /** Called when a URL is queued, to wake a waiting worker. */
  onQueued: () => void = () => undefined;

  constructor(
    private readonly scope: Scope,
    private readonly options: Pick<CrawlOptions, 'maxDepth' | 'maxUrls' | 'respectRobots' | 'checkExternal'>,
    private readonly hosts: Hosts,
  ) {}

  get count(): number {
    return this.urls.length;
  }

  get queued(): number {
    return this.links.size + this.sitemapUrls.size + this.external.size;
  }

  /** The id of a URL, known from now on (found on page `from`, -1 for none, at click depth `depth`). */
  know(url: string, from: number, depth: number): number {
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

  /** The id of a URL already known. */
  idOf(url: string): number | undefined {
    return this.ids.get(url);
  }

  urlOf(id: number): string {
    return this.urls[id] as string;
  }

  depthOf(id: number): number {
    return this.depth[id] ?? 0;
  }

  /** Neither queued nor fetched yet. */
  isUnvisited(id: number): boolean {
    return this.state[id] === State.Known;
  }

  markFetched(id: number): void {
    this.state[id] = State.Fetched;
  }

  /** The first sitemap that lists the URL. */
  noteSitemap(id: number, sitemapUrl: string): void {
    this.foundAtSitemap[id] ??= sitemapUrl;
  }

  enqueue(id: number, queue: IdQueue): void {
    if (this.state[id] !== State.Known) return;
    this.state[id] = State.Queued;
    this.reason[id] = null;
    queue.ids.push(id);
    if (queue !== this.external) this.internalCount++;
    this.onQueued();
  }

  private restrict(id: number, reason: RestrictedReason): void {
    if (this.state[id] === State.Known && this.reason[id] === null) this.reason[id] = reason;
  }

  /** Decides what to do with a link target: fetch it, check it (external) or record why not. */
  async follow(id: number, depth: number, nofollow: RestrictedReason | null, queue: IdQueue): Promise<void> {
    if (this.state[id] !== State.Known) return;
    const placement = this.placement[id];
    if (placement === 'external') {
      if (this.options.checkExternal !== false) this.enqueue(id, this.external);
      return;
    }
    if (placement === 'outside_scope') return this.restrict(id, 'outside_scope');
    const url = this.urls[id] as string;
    if (this.scope.isExcluded(url)) return this.restrict(id, 'excluded_by_pattern');
    if (nofollow !== null) return this.restrict(id, nofollow);
    if (this.options.respectRobots) {
      const host = await this.hosts.host(url);
      if (!host.rules.isAllowed(url)) return this.restrict(id, 'robots_disallowed');
    }
    if (depth > this.options.maxDepth) return this.restrict(id, 'crawl_limit');
    if (this.internalCount >= this.options.maxUrls) {
      this.isMaxUrlsReached = true;
      return this.restrict(id, 'crawl_limit');
    }
    this.enqueue(id, queue);
  }

  /** Links first, then what only sitemaps name, then external checks. */
  next(): NextUrl | null {
    let id = this.links.shift() ?? this.sitemapUrls.shift();
    if (id !== undefined) return { id, isExternal: false };
    id = this.external.shift();
    return id === undefined ? null : { id, isExternal: true };
  }

  /** Places every known URL again, after the scope adopted the start URL's twin. */
  placeAgain(): void {
    for (let id = 0; id < this.urls.length; id++) this.placement[id] = this.scope.place(this.urls[id] as string);
  }

  /** The known-URL set as rows; queued URLs the crawl never fetched (a limit, or Ctrl-C) become crawl_limit. */
  writeNodes(file: string): void {
    const fd = fs.openSync(file, 'w');
    try {
      let chunk: string[] = [];
      for (let id = 0; id < this.urls.length; id++) {
        const state = this.state[id];
        const reason = state === State.Queued ? 'crawl_limit' : state === State.Known ? this.reason[id] : null;
        const row: NodeRecord = {
          id,
          url: this.urls[id],
          pl: PLACEMENT_CODES[this.placement[id] ?? 'external'],
          fe: state === State.Fetched,
          rr: this.placement[id] === 'external' ? null : reason,
          fa: this.foundAt[id] === -1 ? null : this.foundAt[id],
          sm: this.foundAtSitemap[id],
        };
        chunk.push(`${JSON.stringify(row)}\n`);
        if (chunk.length >= 4096) {
          fs.writeSync(fd, chunk.join(''));
          chunk = [];
        }
      }
      fs.writeSync(fd, chunk.join(''));
    } finally {
      fs.closeSync(fd);
    }
  }
}
