/**
 * What a crawl is asked to do and what it reports back: the one interface between the crawler
 * (service/crawl/), its CLI (scripts/crawl.ts), the service's crawl runs and the tests.
 */
import type { Manifest, RecordedSettings } from '../../catalog/export-contract.ts';
import type { EgressPolicy } from './egress.ts';
import type { UrlPattern } from '../../catalog/url-pattern.ts';
import type { RenderMode, RenderSettings } from './render-settings.ts';

export type { UrlPattern };

export interface CrawlOptions {
  startUrl: string;
  /** The export directory: manifest.json and the contract's Parquet tables are written here. */
  outDir: string;
  websiteId: string;
  crawlId: number;
  maxUrls: number;
  maxDepth: number;
  /** Requests in flight per host. */
  concurrency: number;
  /** Pause between requests to one host, in milliseconds (raised to robots.txt's crawl-delay when respected). */
  delayMs: number;
  userAgent: string;
  respectRobots: boolean;
  includeSubdomains: boolean;
  /** Compiled by compileUrlPattern (linear time); a RegExp will do in tests. */
  include: UrlPattern[];
  exclude: UrlPattern[];
  /** Check external link targets (HEAD, GET on 405/501); false leaves their status unknown. Default true. */
  checkExternal?: boolean;
  /** Sitemaps to read besides robots.txt's `Sitemap:` lines and /sitemap.xml. */
  sitemaps: string[];
  /** Indexable pages to render in Chromium for the performance_* columns; 0 renders none. */
  render: number;
  /**
   * `all`: every in-scope HTML page is rendered in Chromium and its rendered DOM is what the crawl reads (the raw
   * values kept beside it); `sample` and `none` (the default) read the raw HTML only.
   */
  renderMode?: RenderMode;
  /** The rendered crawl's limits (render-settings.ts has the defaults). */
  renderSettings?: Partial<Omit<RenderSettings, 'mode'>>;
  /**
   * Where the crawl may connect (pages, robots.txt, sitemaps, external checks, rendering): public addresses, and what
   * the allow-list opens. Absent: CRAWL_ALLOW and CRAWL_DNS_SERVERS from the environment.
   */
  egress?: EgressPolicy;
  /** The deadline of one response, connection to the end of the body, in milliseconds (20 s by default). */
  timeoutMs?: number;
  /**
   * Wall-clock limit of the run, in milliseconds (default DEFAULT_MAX_DURATION_MS, 6 h): when reached, fetching stops
   * and the crawl writes a complete export of what it fetched (stoppedEarly), with a notice saying so.
   */
  maxDurationMs?: number;
  /** Days before the crawl date its data window holds (the manifest's dataStart..dataEnd); default 28. */
  dataWindowDays?: number;
  /** Where the crawl's work directory (row files, DuckDB's spill) is made; default os.tmpdir(). */
  scratchDir?: string;
  /** Aborting stops fetching; the crawl still writes a complete export of what it fetched (stoppedEarly). */
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

/**
 * What a crawl is doing: fetching; waiting (every worker waits out a host's pause, robots.txt's crawl-delay or
 * --delay); exporting (the crawl's tables and Parquet files are being written).
 */
export type CrawlPhase = 'fetching' | 'waiting' | 'exporting';

/** Reported at most every 250 ms while things happen, and at least every 2 s whatever happens. */
export interface CrawlProgress {
  pagesDone: number;
  queued: number;
  errors: number;
  /** Pages whose HTML could not be parsed so far. */
  parseFailures: number;
  pagesPerSecond: number;
  elapsedMs: number;
  phase: CrawlPhase;
  /** When the last response was received or the last export step ended (epoch milliseconds). */
  lastActivityAt: number;
}

/** The default wall-clock limit of a run. */
export const DEFAULT_MAX_DURATION_MS = 6 * 60 * 60 * 1000;

export interface CrawlResult {
  outDir: string;
  manifest: Manifest;
  /** URLs fetched (pages, redirects, errors, non-HTML). */
  fetched: number;
  /** Rows per written table. */
  tables: Record<string, number>;
  /** Stopped by the signal or the time limit before the frontier was empty. */
  stoppedEarly: boolean;
  elapsedMs: number;
  /** Pages whose HTML could not be parsed (recorded without what their HTML says, with the reason). */
  parseFailures: number;
  /**
   * What the user should know about how the crawl went, in one line (a start URL redirecting to another site, a
   * crawl-delay capped, the time limit reached); several are joined by "; ".
   */
  notice?: string;
}

export type { PageVitals } from './crawl-records.ts';

/** What the crawl was asked, as its manifest records it (catalog/comparability.ts tells crawls comparable by it). */
export function recordedSettingsOf(options: CrawlOptions, startUrl: string): RecordedSettings {
  const text = (p: UrlPattern): string => p.source ?? '';
  return {
    startUrl,
    includeSubdomains: options.includeSubdomains,
    include: options.include.map(text),
    exclude: options.exclude.map(text),
    sitemaps: options.sitemaps,
    checkExternal: options.checkExternal ?? true,
    maxUrls: options.maxUrls,
    maxDepth: options.maxDepth,
    timeLimitHours: (options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS) / 3_600_000,
    respectRobots: options.respectRobots,
    render: options.render,
    renderMode: options.renderMode ?? 'none',
    userAgent: options.userAgent,
  };
}
