/**
 * The frontier: the known-URL set (parallel arrays indexed by URL id, a few numbers per URL) and the queues of URLs
 * to fetch, with the rules deciding whether a found URL is fetched, checked (external) or recorded as restricted.
 */
import fs from 'node:fs';
import { restrictedReasons } from '../../catalog/export-contract.ts';
import path from 'node:path';
import readline from 'node:readline';
import type { CrawlOptions } from './crawl-options.ts';
import type { NodeRecord } from './crawl-records.ts';
import type { Hosts } from './hosts.ts';
import type { Placement, RestrictedReason, Scope } from './scope.ts';
import { GrowableInt32, GrowableUint32, GrowableUint8 } from './growable.ts';
import { RowWriter } from './row-writer.ts';
import { SpillQueue } from './spill-queue.ts';
import { UrlIndex } from './url-index.ts';

/** A URL's state: known, not to be fetched (see its reason); queued; fetched. */
const State = { Known: 0, Queued: 1, Fetched: 2 } as const;

const PLACEMENTS: readonly Placement[] = ['internal', 'outside_scope', 'external'];
const PLACEMENT_CODES: Record<Placement, string> = { internal: 'i', outside_scope: 'o', external: 'e' };
/** Reason codes: 0 is none, then the contract's reasons in order. */
const REASONS: readonly (RestrictedReason | null)[] = [null, ...restrictedReasons];
const placementCode = (placement: Placement): number => PLACEMENTS.indexOf(placement);
const reasonCode = (reason: RestrictedReason): number => REASONS.indexOf(reason);

export interface NextUrl {
  id: number;
  url: string;
  isExternal: boolean;
}

/**
 * Per URL a few bytes in typed arrays (its fingerprint, placement, state, reason, depth, the page it was found on
 * and its first sitemap), its text on disk in id order (`urls`), and the queues spilled to disk past a few chunks:
 * ten million URLs take a few hundred megabytes.
 */
export class Frontier {
  private readonly index = new UrlIndex();
  private readonly placement = new GrowableUint8();
  private readonly state = new GrowableUint8();
  private readonly reason = new GrowableUint8();
  private readonly depth = new GrowableUint32();
  private readonly foundAt = new GrowableInt32();
  /** Per URL, 1 + its first sitemap's number in `sitemapUrls`, 0 for none. */
  private readonly foundAtSitemap = new GrowableUint32();
  private readonly sitemapNumbers = new Map<string, number>();
  private readonly sitemapNames: string[] = [];
  /** Every known URL's text, one JSON string a line, in id order. */
  private readonly urls: RowWriter;

  /** Links found on pages, fetched first (breadth-first). */
  readonly links: SpillQueue;
  /** URLs only sitemaps have named so far. */
  readonly sitemapUrls: SpillQueue;
  readonly external: SpillQueue;
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
    private readonly workDir: string,
  ) {
    this.urls = new RowWriter(path.join(workDir, 'urls.ndjson'));
    this.links = new SpillQueue(path.join(workDir, 'queue-links'));
    this.sitemapUrls = new SpillQueue(path.join(workDir, 'queue-sitemaps'));
    this.external = new SpillQueue(path.join(workDir, 'queue-external'));
  }

  get count(): number {
    return this.index.size;
  }

  get queued(): number {
    return this.links.size + this.sitemapUrls.size + this.external.size;
  }

  /** The id of a URL, known from now on (found on page `from`, -1 for none, at click depth `depth`). */
  know(url: string, from: number, depth: number): number {
    const { id, isNew } = this.index.add(url);
    if (!isNew) return id;
    this.urls.writeLine(`${JSON.stringify(url)}\n`);
    this.placement.push(placementCode(this.scope.place(url)));
    this.state.push(State.Known);
    this.reason.push(0);
    this.depth.push(depth);
    this.foundAt.push(from);
    this.foundAtSitemap.push(0);
    return id;
  }

  /** The id of a URL already known. */
  idOf(url: string): number | undefined {
    return this.index.get(url);
  }

  depthOf(id: number): number {
    return this.depth.at(id);
  }

  /** Neither queued nor fetched yet. */
  isUnvisited(id: number): boolean {
    return this.state.at(id) === State.Known;
  }

  markFetched(id: number): void {
    this.state.set(id, State.Fetched);
  }

  /** The first sitemap that lists the URL. */
  noteSitemap(id: number, sitemapUrl: string): void {
    if (this.foundAtSitemap.at(id) !== 0) return;
    let n = this.sitemapNumbers.get(sitemapUrl);
    if (n === undefined) {
      n = this.sitemapNames.push(sitemapUrl);
      this.sitemapNumbers.set(sitemapUrl, n);
    }
    this.foundAtSitemap.set(id, n);
  }

  enqueue(id: number, url: string, queue: SpillQueue): void {
    if (this.state.at(id) !== State.Known) return;
    this.state.set(id, State.Queued);
    this.reason.set(id, 0);
    queue.push(id, url);
    if (queue !== this.external) this.internalCount++;
    this.onQueued();
  }

  private restrict(id: number, reason: RestrictedReason): void {
    if (this.state.at(id) === State.Known && this.reason.at(id) === 0) this.reason.set(id, reasonCode(reason));
  }

  /** Decides what to do with a link target: fetch it, check it (external) or record why not. */
  async follow(
    id: number,
    url: string,
    depth: number,
    nofollow: RestrictedReason | null,
    queue: SpillQueue,
  ): Promise<void> {
    if (this.state.at(id) !== State.Known) return;
    const placement = PLACEMENTS[this.placement.at(id)];
    if (placement === 'external') {
      if (this.options.checkExternal !== false) this.enqueue(id, url, this.external);
      return;
    }
    if (placement === 'outside_scope') return this.restrict(id, 'outside_scope');
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
    this.enqueue(id, url, queue);
  }

  /** Links first, then what only sitemaps name, then external checks. */
  next(): NextUrl | null {
    const queued = this.links.shift() ?? this.sitemapUrls.shift();
    if (queued !== undefined) return { ...queued, isExternal: false };
    const external = this.external.shift();
    return external === undefined ? null : { ...external, isExternal: true };
  }

  /** Places every known URL again, after the scope adopted the start URL's twin. */
  async placeAgain(): Promise<void> {
    let id = 0;
    await this.eachUrl((url) => this.placement.set(id++, placementCode(this.scope.place(url))));
  }

  /** The known-URL set as rows; queued URLs the crawl never fetched (a limit, or Ctrl-C) become crawl_limit. */
  async writeNodes(file: string): Promise<void> {
    const out = new RowWriter<NodeRecord>(file);
    let id = 0;
    await this.eachUrl((url) => {
      const state = this.state.at(id);
      const placement = PLACEMENTS[this.placement.at(id)]!;
      const reason =
        state === State.Queued ? 'crawl_limit' : state === State.Known ? REASONS[this.reason.at(id)]! : null;
      const foundAt = this.foundAt.at(id);
      const sitemap = this.foundAtSitemap.at(id);
      out.write({
        id,
        url,
        pl: PLACEMENT_CODES[placement],
        fe: state === State.Fetched,
        rr: placement === 'external' ? null : reason,
        fa: foundAt === -1 ? null : foundAt,
        sm: sitemap === 0 ? null : this.sitemapNames[sitemap - 1]!,
      });
      id++;
      return out.drained();
    });
    await out.close();
  }

  /** Resolves once the URL file has caught up, so new URLs cannot pile up in memory. */
  drained(): Promise<void> {
    return this.urls.drained();
  }

  /** Removes the frontier's files. */
  async close(): Promise<void> {
    await this.urls.close();
    for (const queue of [this.links, this.sitemapUrls, this.external]) queue.close();
  }

  /** Every known URL's text in id order, read back from disk. */
  private async eachUrl(each: (url: string) => void | Promise<void>): Promise<void> {
    await this.urls.settled();
    const lines = readline.createInterface({ input: fs.createReadStream(this.urls.file), crlfDelay: Infinity });
    for await (const line of lines) await each(JSON.parse(line) as string);
  }
}
