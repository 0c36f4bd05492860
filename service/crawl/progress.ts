/** The crawl's counters and the progress it reports (at most every PROGRESS_INTERVAL_MS, and once at the end). */
import type { CrawlOptions, CrawlProgress } from './crawl-options.ts';
import type { Frontier } from './frontier.ts';

const PROGRESS_INTERVAL_MS = 250;

export class Progress {
  readonly started = Date.now();
  fetched = 0;
  errors = 0;
  private lastReport = 0;

  constructor(
    private readonly frontier: Frontier,
    private readonly onProgress: CrawlOptions['onProgress'],
  ) {}

  /** A URL was fetched; status null is a fetch that got no response. */
  count(status: number | null): void {
    this.fetched++;
    if (status === null || status >= 400) this.errors++;
    this.report(false);
  }

  report(isFinal: boolean): void {
    const now = Date.now();
    if (!this.onProgress || (!isFinal && now - this.lastReport < PROGRESS_INTERVAL_MS)) return;
    this.lastReport = now;
    const elapsedMs = now - this.started;
    const progress: CrawlProgress = {
      pagesDone: this.fetched,
      queued: this.frontier.queued,
      errors: this.errors,
      pagesPerSecond: elapsedMs > 0 ? (this.fetched * 1000) / elapsedMs : 0,
      elapsedMs,
    };
    this.onProgress(progress);
  }
}
