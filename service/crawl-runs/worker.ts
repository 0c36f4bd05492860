/**
 * The child process of one crawl run (forked by runner.ts under `--import tsx`): crawls the website into the run's
 * export directory, then loads it with the loader of `npm run load-crawl`, telling the runner how it goes over IPC.
 *
 * stop {keep: true} ends fetching and still loads what was fetched; stop {keep: false} drops everything: while
 * crawling by abandoning the crawl's files and exiting, while loading through the loader's signal (the store stays
 * as it was). Either is acknowledged at once with `stopping`: a worker that does not answer within 2 s (its event
 * loop is frozen) is killed by the runner. From the job on, the worker heartbeats every `heartbeatMs` whatever it is
 * doing, so that the runner tells one long export or load step (DuckDB works off this thread) from a frozen worker.
 * A lost parent (the service died) is a stop without keep.
 */
import { abandonCrawlsSync, crawlWebsite } from '../crawl/crawl.ts';
import { defaultUserAgent, nextCrawlId } from '../crawl/crawl-command.ts';
import { egressPolicyFromEnv } from '../crawl/egress.ts';
import type { CrawlProgress } from '../crawl/crawl-options.ts';
import { checkCrawlSettings, type CrawlSettings } from '../../catalog/crawl-runs.ts';
import { compileUrlPattern } from '../../catalog/url-pattern.ts';
import { useDataDirUmask } from '../data-dir.ts';
import { CRAWL_NICE, lowerEveryThread } from '../db/thread-priority.ts';
import { failureReason } from './failure-reason.ts';

export interface WorkerJob {
  runId: number;
  websiteId: string;
  dataDir: string;
  exportDir: string;
  /** The crawl's working files, emptied by the runner at its start and after the run. */
  scratchDir: string;
  settings: CrawlSettings;
  heartbeatMs: number;
  databaseUrl?: string;
}

export type ToWorker = { type: 'job'; job: WorkerJob } | { type: 'stop'; keep: boolean };

export type FromWorker =
  | { type: 'progress'; progress: CrawlProgress }
  | { type: 'stopping' }
  | { type: 'heartbeat' }
  | { type: 'loading'; fetched: number; stoppedEarly: boolean }
  | { type: 'load-progress' }
  | { type: 'loaded'; crawlId: number; fetched: number; stoppedEarly: boolean }
  | { type: 'failed'; reason: string; isInterrupted: boolean };

const crawlAbort = new AbortController();
const loadAbort = new AbortController();
let phase: 'crawling' | 'loading' = 'crawling';
let loader: typeof import('../load/load-crawl.ts') | undefined;

const send = (message: FromWorker): Promise<void> =>
  new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });

function dropEverything(): never {
  abandonCrawlsSync();
  loader?.abandonActiveLoadsSync();
  process.exit(0);
}

async function run(job: WorkerJob): Promise<void> {
  // Settings saved by an older version may hold what is refused now (a pattern RE2 cannot run): fail with the reason.
  const checked = checkCrawlSettings(job.settings);
  if ('error' in checked) throw new Error(checked.error);
  const s = checked.settings;
  const result = await crawlWebsite({
    startUrl: s.startUrl,
    outDir: job.exportDir,
    websiteId: job.websiteId,
    crawlId: nextCrawlId(job.dataDir, job.websiteId),
    maxUrls: s.maxUrls,
    maxDepth: s.maxDepth,
    concurrency: s.concurrency,
    delayMs: s.delayMs,
    userAgent: s.userAgent || defaultUserAgent(),
    respectRobots: s.respectRobots,
    includeSubdomains: s.includeSubdomains,
    include: s.include.map(compileUrlPattern),
    exclude: s.exclude.map(compileUrlPattern),
    sitemaps: s.sitemaps,
    render: s.render,
    renderMode: s.renderMode,
    renderSettings: { loadAssets: s.renderAssets, tabs: s.renderTabs, quietMs: s.renderQuietMs },
    // Always enforced: the service crawls on behalf of whoever typed the URL; only the operator opens private targets.
    egress: egressPolicyFromEnv(process.env),
    checkExternal: s.checkExternal,
    maxDurationMs: s.timeLimitHours * 3_600_000,
    dataWindowDays: s.dataWindowDays,
    scratchDir: job.scratchDir,
    signal: crawlAbort.signal,
    // The crawler reports four times a second at most, and once more at the end.
    onProgress: (progress) => {
      // The crawler's parse workers, DuckDB's and the libuv pool's threads start as they are needed.
      lowerEveryThread(CRAWL_NICE);
      void send({ type: 'progress', progress });
    },
  });
  phase = 'loading';
  await send({ type: 'loading', fetched: result.fetched, stoppedEarly: result.stoppedEarly });
  loader = await import('../load/load-crawl.ts');
  let lastLoadBeat = 0;
  const loaded = await loader.loadCrawl({
    dataDir: job.dataDir,
    exportDir: job.exportDir,
    signal: loadAbort.signal,
    databaseUrl: job.databaseUrl,
    onProgress: () => {
      lowerEveryThread(CRAWL_NICE);
      if (performance.now() - lastLoadBeat < 500) return;
      lastLoadBeat = performance.now();
      void send({ type: 'load-progress' });
    },
  });
  await send({ type: 'loaded', crawlId: loaded.crawlId, fetched: result.fetched, stoppedEarly: result.stoppedEarly });
}

useDataDirUmask();
lowerEveryThread(CRAWL_NICE);
process.on('message', (message: ToWorker) => {
  if (message.type === 'job') {
    setInterval(() => void send({ type: 'heartbeat' }), message.job.heartbeatMs).unref();
    run(message.job).then(
      () => process.exit(0),
      async (error: unknown) => {
        await send({ type: 'failed', reason: failureReason(error), isInterrupted: loadAbort.signal.aborted });
        process.exit(1);
      },
    );
  } else if (message.type === 'stop') {
    void send({ type: 'stopping' });
    if (message.keep) crawlAbort.abort();
    else if (phase === 'loading') loadAbort.abort();
    else dropEverything();
  }
});
process.on('disconnect', dropEverything);
process.on('SIGTERM', dropEverything);
process.on('SIGINT', dropEverything);
