/**
 * The crawl's counters and the progress it reports: at most every PROGRESS_INTERVAL_MS while responses come in, and
 * every HEARTBEAT_MS whatever happens, so a crawl that stalls shows it (its elapsed time goes on, its last activity
 * does not).
 */
import type { CrawlOptions, CrawlPhase, CrawlProgress } from './crawl-options.ts';

const PROGRESS_INTERVAL_MS = 250;
export const HEARTBEAT_MS = 2000;

/** What the crawl is doing now: URLs queued, pages not parsed, and whether every worker is waiting out a pause. */
export interface CrawlState {
  queued(): number;
  parseFailures(): number;
  isWaiting(): boolean;
}

export class Progress {
  readonly started = Date.now();
  fetched = 0;
  errors = 0;
  private lastReport = 0;
  private lastActivityAt = this.started;
  private isExporting = false;
  private readonly heartbeat: NodeJS.Timeout | null;

  constructor(
    private readonly state: CrawlState,
    private readonly onProgress: CrawlOptions['onProgress'],
  ) {
    this.heartbeat = onProgress ? setInterval(() => this.report(true), HEARTBEAT_MS) : null;
    this.heartbeat?.unref();
  }

  /** A URL was fetched; status null is a fetch that got no response. */
  count(status: number | null): void {
    this.fetched++;
    if (status === null || status >= 400) this.errors++;
    this.lastActivityAt = Date.now();
    this.report(false);
  }

  /** The export starts (isStep false) or has done one more step. */
  exporting(isStep: boolean): void {
    this.isExporting = true;
    if (isStep) this.lastActivityAt = Date.now();
    this.report(true);
  }

  report(isForced: boolean): void {
    const now = Date.now();
    if (!this.onProgress || (!isForced && now - this.lastReport < PROGRESS_INTERVAL_MS)) return;
    this.lastReport = now;
    const elapsedMs = now - this.started;
    const phase: CrawlPhase = this.isExporting ? 'exporting' : this.state.isWaiting() ? 'waiting' : 'fetching';
    const progress: CrawlProgress = {
      pagesDone: this.fetched,
      queued: this.state.queued(),
      errors: this.errors,
      parseFailures: this.state.parseFailures(),
      pagesPerSecond: elapsedMs > 0 ? (this.fetched * 1000) / elapsedMs : 0,
      elapsedMs,
      phase,
      lastActivityAt: this.lastActivityAt,
    };
    this.onProgress(progress);
  }

  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
  }
}
