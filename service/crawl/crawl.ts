/**
 * The crawler: fetches a website breadth-first from its start URL (and its sitemaps), streams what it sees to row
 * files, and at the end turns them into a crawl export (export-crawl.ts). Memory holds the known-URL set (a few
 * numbers per URL, frontier.ts) and the pages in flight, never the content of pages already seen. This file runs
 * the workers; the frontier, per-host politeness (hosts.ts), sitemaps (sitemap-reader.ts), page rows
 * (page-recorder.ts) and progress (progress.ts) each have their own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  DEFAULT_MAX_DURATION_MS,
  recordedSettingsOf,
  type CrawlOptions,
  type CrawlResult,
  type PageVitals,
} from './crawl-options.ts';
import { CrawlError } from './crawl-error.ts';
import {
  recordFileOf,
  type EdgeRecord,
  type ImageRecord,
  type PageRecord,
  type SitemapRecord,
} from './crawl-records.ts';
import { exportCrawl, type CrawlRows } from './export-crawl.ts';
import { Egress, egressPolicyFromEnv } from './egress.ts';
import { Fetcher, type FetchResponse } from './fetcher.ts';
import { Frontier } from './frontier.ts';
import { Hosts, MAX_CRAWL_DELAY_MS } from './hosts.ts';
import { normalizeUrl } from './normalize-url.ts';
import { PageRecorder } from './page-recorder.ts';
import { Progress } from './progress.ts';
import { isHtml } from './response-headers.ts';
import { RowWriter } from './row-writer.ts';
import { Scope } from './scope.ts';
import { readSitemaps } from './sitemap-reader.ts';
import { renderPoolFor } from './render/crawl-rendering.ts';
import type { RenderPool } from './render/render-pool.ts';

export { CrawlError } from './crawl-error.ts';

/** setTimeout's longest delay (about 24.8 days); a longer limit is as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  private readonly startUrl: string;
  /** Where the site is: the start URL, or the twin it redirects to (see Scope.isTwin). */
  private siteUrl: string;
  private readonly notices: string[] = [];
  /** Stops the run at its wall-clock limit. */
  private readonly timeLimit: NodeJS.Timeout;
  private isTimeLimitReached = false;
  private readonly scope: Scope;
  private readonly fetcher: Fetcher;
  private readonly hosts: Hosts;
  private readonly frontier: Frontier;
  private readonly progress: Progress;
  private readonly workDir: string;
  private readonly controller = new AbortController();
  private readonly active: { workDir: string; written: string[] };
  private readonly pages: RowWriter<PageRecord>;
  private readonly edges: RowWriter<EdgeRecord>;
  private readonly images: RowWriter<ImageRecord>;
  private readonly sitemaps: RowWriter<SitemapRecord>;
  private readonly recorder: PageRecorder;
  private readonly renderPool: RenderPool | null;
  private inFlight = 0;
  private wake: (() => void) | null = null;

  constructor(private readonly options: CrawlOptions) {
    const start = normalizeUrl(options.startUrl);
    if (!start) throw new CrawlError(`start URL ${options.startUrl} is not an http(s) URL`);
    this.startUrl = start;
    this.siteUrl = start;
    this.scope = new Scope(start, options);
    const scratchDir = options.scratchDir ?? os.tmpdir();
    fs.mkdirSync(scratchDir, { recursive: true, mode: 0o700 });
    this.workDir = fs.mkdtempSync(path.join(scratchDir, 'thc-crawl-'));
    this.active = { workDir: this.workDir, written: [] };
    activeCrawls.add(this.active);
    const egress = new Egress(options.egress ?? egressPolicyFromEnv(process.env));
    this.fetcher = new Fetcher({
      concurrency: options.concurrency,
      userAgent: options.userAgent,
      egress,
      timeoutMs: options.timeoutMs,
      signal: this.controller.signal,
    });
    options.signal?.addEventListener('abort', () => this.controller.abort(), { once: true });
    if (options.signal?.aborted) this.controller.abort();
    const maxDurationMs = options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS;
    this.timeLimit = setTimeout(
      () => {
        this.isTimeLimitReached = !this.controller.signal.aborted;
        this.controller.abort();
      },
      Math.min(maxDurationMs, MAX_TIMER_MS),
    );
    this.timeLimit.unref();
    this.hosts = new Hosts(this.fetcher, this.scope, options);
    this.frontier = new Frontier(this.scope, options, this.hosts, this.workDir);
    this.frontier.onQueued = () => this.wake?.();
    this.progress = new Progress(
      {
        queued: () => this.frontier.queued,
        parseFailures: () => this.recorder.parseFailures,
        isWaiting: () => this.hosts.pausing > 0 && this.hosts.pausing >= this.inFlight,
      },
      options.onProgress,
    );
    this.pages = new RowWriter(path.join(this.workDir, recordFileOf('pages')));
    this.edges = new RowWriter(path.join(this.workDir, recordFileOf('edges')));
    this.images = new RowWriter(path.join(this.workDir, recordFileOf('images')));
    this.sitemaps = new RowWriter(path.join(this.workDir, recordFileOf('sitemaps')));
    this.renderPool = renderPoolFor(options, egress, this.hosts, this.scope, this.signal);
    this.recorder = new PageRecorder(
      this.frontier,
      { pages: this.pages, edges: this.edges, images: this.images },
      (target) => this.followStartRedirect(target),
      this.renderPool,
    );
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  async run(): Promise<CrawlResult> {
    const { frontier } = this;
    const startId = frontier.know(this.startUrl, -1, 0);
    frontier.enqueue(startId, this.startUrl, frontier.links);
    await this.hosts.host(this.startUrl);
    frontier.links.shift();
    const first = await this.fetchInternal(startId, this.startUrl);
    if (first?.status === null && first.error !== 'aborted') {
      throw new CrawlError(`start URL ${this.startUrl} is unreachable (${first.error ?? 'no response'})`);
    }
    const unreadSitemaps = await readSitemaps(
      {
        scope: this.scope,
        fetcher: this.fetcher,
        hosts: this.hosts,
        frontier,
        sitemaps: this.sitemaps,
        options: this.options,
        signal: this.signal,
      },
      this.siteUrl,
    );
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency) }, () => this.work()));
    // The parsers' memory goes back before DuckDB takes its share for the end-of-crawl tables.
    await Promise.all([this.recorder.closeParser(), this.renderPool?.close()]);

    const stoppedEarly = this.signal.aborted;
    const partialReason = this.isTimeLimitReached
      ? 'time-limit'
      : stoppedEarly
        ? 'stopped'
        : frontier.isMaxUrlsReached
          ? 'max-urls'
          : undefined;
    clearTimeout(this.timeLimit);
    this.noteHowItWent(unreadSitemaps);
    collectGarbage();
    await Promise.all([this.pages.close(), this.edges.close(), this.images.close(), this.sitemaps.close()]);
    const nodes = path.join(this.workDir, recordFileOf('nodes'));
    await frontier.writeNodes(nodes);
    this.progress.exporting(false);
    const rows: CrawlRows = {
      workDir: this.workDir,
      pages: this.pages.file,
      edges: this.edges.file,
      images: this.images.file,
      sitemaps: this.sitemaps.file,
      nodes,
      renderCount: this.signal.aborted ? 0 : this.options.render,
      render: (urls) => this.render(urls),
      startId,
    };
    const { manifest, tables } = await exportCrawl(rows, {
      outDir: this.options.outDir,
      websiteId: this.options.websiteId,
      crawlId: this.options.crawlId,
      startUrl: this.startUrl,
      crawledAt: new Date(this.progress.started),
      dataWindowDays: this.options.dataWindowDays,
      stoppedEarly,
      partialReason,
      settings: recordedSettingsOf(this.options, this.startUrl),
      written: this.active.written,
      onStep: () => this.progress.exporting(true),
    });
    this.progress.report(true);
    return {
      outDir: this.options.outDir,
      manifest,
      fetched: this.progress.fetched,
      tables,
      stoppedEarly,
      elapsedMs: Date.now() - this.progress.started,
      parseFailures: this.recorder.parseFailures,
      ...(this.notices.length === 0 ? {} : { notice: this.notices.join('; ') }),
    };
  }

  async dispose(): Promise<void> {
    activeCrawls.delete(this.active);
    clearTimeout(this.timeLimit);
    this.progress.stop();
    await Promise.all([
      this.fetcher.close(),
      this.recorder.closeParser(),
      this.renderPool?.close(),
      this.frontier.close(),
    ]);
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }

  private async work(): Promise<void> {
    while (!this.signal.aborted) {
      const item = this.frontier.next();
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
        if (item.isExternal) await this.checkExternal(item.id, item.url);
        else await this.fetchInternal(item.id, item.url);
      } finally {
        this.inFlight--;
        this.wake?.();
      }
      await this.pages.drained();
      await this.edges.drained();
      await this.frontier.drained();
    }
  }

  private async fetchInternal(id: number, url: string): Promise<FetchResponse | null> {
    await this.hosts.politely(url);
    if (this.signal.aborted) return null;
    const response = await this.fetcher.fetch(url, {
      wantsBody: (status, headers) => status >= 200 && status < 300 && isHtml(headers),
    });
    if (response.error === 'aborted') return response;
    this.frontier.markFetched(id);
    this.progress.count(response.status);
    await this.recorder.record(id, url, response);
    return response;
  }

  /** External targets are checked, never crawled: HEAD, then GET when the server refuses HEAD. */
  private async checkExternal(id: number, url: string): Promise<void> {
    await this.hosts.politely(url);
    if (this.signal.aborted) return;
    let response = await this.fetcher.fetch(url, { method: 'HEAD' });
    if (response.status === 405 || response.status === 501) {
      response = await this.fetcher.fetch(url);
    }
    if (response.error === 'aborted') return;
    this.frontier.markFetched(id);
    this.progress.count(response.status);
    this.recorder.recordExternal(id, url, response);
  }

  /**
   * A start URL redirecting to its twin (www, scheme, port) makes the twin the site, as the user meant it; to another
   * site, the redirect is recorded and that site left alone, with a notice saying so.
   */
  private async followStartRedirect(target: string): Promise<void> {
    if (this.scope.place(target) === 'internal') return;
    if (!this.scope.isTwin(target)) {
      this.notices.push(
        `start URL ${this.startUrl} redirects to ${target}, another website: the redirect is recorded, ` +
          `that website is not crawled (start at ${target} to crawl it)`,
      );
      return;
    }
    this.scope.adopt(target);
    this.siteUrl = target;
    await this.frontier.placeAgain();
  }

  private noteHowItWent(unreadSitemaps: string | null): void {
    for (const { origin, askedMs } of this.hosts.cappedDelays) {
      this.notices.push(
        `${origin}/robots.txt asks for a crawl-delay of ${askedMs / 1000} s; ${MAX_CRAWL_DELAY_MS / 1000} s was used`,
      );
    }
    if (unreadSitemaps !== null) this.notices.push(unreadSitemaps);
    if (this.isTimeLimitReached) {
      const minutes = (this.options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS) / 60_000;
      this.notices.push(
        `the time limit of ${Number(minutes.toFixed(2))} minutes was reached: fetching stopped, ` +
          'the export holds what was crawled and lists the rest as crawl_limit',
      );
    }
  }

  private async render(urls: string[]): Promise<PageVitals[]> {
    if (urls.length === 0 || this.signal.aborted) return [];
    // Loaded on demand: playwright-core is heavy to import and most crawls render nothing.
    const { renderPages } = await import('./render.ts');
    return renderPages(urls, { userAgent: this.options.userAgent, egress: this.fetcher.egress, signal: this.signal });
  }
}

/**
 * One full collection before the export: the crawl's garbage would otherwise still hold its pages while DuckDB takes
 * its share, and that sum is the crawl's peak RSS (measured on rust-doc: about 560 MB with it, 595–620 MB without).
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
