/**
 * The crawl-load section (`--only crawl-load`): the dashboard while the service crawls. The overview and a report's
 * first page (caches bypassed) are timed idle, while a crawl of rust-doc started through the service's crawl-runs
 * calls is `running`, then idle again.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  ACTIVE_RUN_STATUSES,
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunsAnswer,
} from '../../catalog/crawl-runs.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { RUST_DOC_ROOT, startNginx } from '../../scripts/support/real-site.ts';
import { timedPost, type Client } from '../support/client.ts';
import { acceptOf, CRAWLS, readResults, sleep, URLS, writeResults } from '../support/config.ts';
import { startService, stopService } from '../support/service.ts';
import { httpCasesOf, openSession } from '../support/session.ts';
import { compare, ratios, round, stats, type Comparison, type Stats } from '../support/stats.ts';
import { addUnlessThere, prepareSection } from '../support/store.ts';
import {
  PAIRED_THINK_MS,
  PAIRED_WARM_UP_ROUNDS,
  timeRounds,
  type PairedCase,
  type Samples,
} from '../support/timing.ts';

/** The website the crawl-load section crawls rust-doc into: its own, so the benchmark site's crawls stay as they are. */
const CRAWL_LOAD_WEBSITE = 'bench-rust-doc';
/** Requests per dashboard case, idle and during the crawl. */
const CRAWL_LOAD_SAMPLES = Number(process.env.BENCH_CRAWL_LOAD_SAMPLES ?? 60);
/** The dashboard's p95 during a crawl, at most this many times idle: a crawl may slow analysts, not stall them. */
const CRAWL_LOAD_GOAL = 2;
const RUN_POLL_MS = 200;
/**
 * How often the sampling looks at the run: every app-database read drops the service's cached session reads, so a
 * look before every round would make the next request slower by more than the crawl does.
 */
const RUN_LOOK_MS = 2000;

/** A crawl-runs call (catalog/crawl-runs.ts); a route this build lacks is named as such. */
async function crawlRunsCall<T>(client: Client, call: string, body: object): Promise<T> {
  const response = await client.send(`/api/crawl-runs/${call}`, body);
  const text = await response.text();
  if (response.status === 404 && text.includes(`/api/crawl-runs/${call} does not exist`))
    throw new Error(
      `the service has no POST /api/crawl-runs/${call}: this build does not run crawls (issue 17's crawl runs are missing)`,
    );
  if (!response.ok) throw new Error(`/api/crawl-runs/${call} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function runOf(client: Client, runId: number): Promise<CrawlRun> {
  const { runs } = await crawlRunsCall<CrawlRunsAnswer>(client, 'list', { websiteId: CRAWL_LOAD_WEBSITE });
  const run = runs.find((r) => r.id === runId);
  if (!run) throw new Error(`crawl run ${runId} is not in the list of ${CRAWL_LOAD_WEBSITE}`);
  return run;
}

async function waitForRun(
  client: Client,
  runId: number,
  isWanted: (run: CrawlRun) => boolean,
  what: string,
  timeoutMs = 120_000,
): Promise<CrawlRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await runOf(client, runId);
    if (isWanted(run)) return run;
    if (Date.now() > deadline)
      throw new Error(`crawl run ${runId} was not ${what} within ${timeoutMs / 1000} s (status ${run.status})`);
    await sleep(RUN_POLL_MS);
  }
}

/** One backend: each case's samples. */
const samplesOf = (samples: Samples[][]): Samples[] => samples.map((perBackend) => perBackend[0]!);

/**
 * Saves the website's crawl settings (rust-doc's start page, no schedule), starts a run and, from its first page on,
 * times the cases while it is `running`; then cancels it without keeping its pages and waits for its end.
 */
async function sampleDuringCrawl(client: Client, cases: PairedCase[], siteUrl: string) {
  const settings = {
    ...defaultCrawlSettings('127.0.0.1'),
    startUrl: `${siteUrl}index.html`,
    schedule: null,
  };
  await crawlRunsCall(client, 'save-settings', { websiteId: CRAWL_LOAD_WEBSITE, settings });
  const { run } = await crawlRunsCall<{ run: CrawlRun }>(client, 'start', { websiteId: CRAWL_LOAD_WEBSITE });
  // From its first page on: the worker's start (a child process, at the lowest priority) is not the crawl yet.
  const running = await waitForRun(
    client,
    run.id,
    (r) => r.status !== 'queued' && (r.status !== 'running' || r.progress.pagesDone > 0),
    'crawling',
  );
  if (running.status !== 'running')
    throw new Error(`crawl run ${run.id} went ${running.status} before any sample: ${running.reason ?? ''}`);
  const windowStarted = performance.now();
  let lastLook = windowStarted;
  const during = samplesOf(
    await timeRounds(cases, CRAWL_LOAD_SAMPLES, 0, async () => {
      if (performance.now() - lastLook < RUN_LOOK_MS) return false;
      lastLook = performance.now();
      return (await runOf(client, run.id)).status !== 'running';
    }),
  );
  const windowSeconds = round((performance.now() - windowStarted) / 1000);
  const last = await runOf(client, run.id);
  const loadDuringCrawl = os.loadavg().map(round);
  const pagesCrawled = last.progress.pagesDone - running.progress.pagesDone;
  if (ACTIVE_RUN_STATUSES.includes(last.status)) {
    const cancel = { websiteId: CRAWL_LOAD_WEBSITE, runId: run.id, keepCrawled: false };
    // 409: the run ended (loaded) since the last look.
    const response = await client.send('/api/crawl-runs/cancel', cancel);
    if (!response.ok && response.status !== 409)
      throw new Error(`/api/crawl-runs/cancel → ${response.status}: ${await response.text()}`);
  }
  const ended = await waitForRun(client, run.id, (r) => !ACTIVE_RUN_STATUSES.includes(r.status), 'ended');
  console.log(
    `during the crawl: ${during[0]!.client.length} requests per case in ${windowSeconds} s, ${pagesCrawled} pages crawled; run ${ended.status}`,
  );
  const window = {
    seconds: windowSeconds,
    pagesCrawled,
    pagesPerSecond: round(pagesCrawled / windowSeconds),
    statusAtEnd: last.status,
    runOutcome: ended.status,
  };
  return { settings, during, loadDuringCrawl, window };
}

/**
 * `npm run bench -- --only crawl-load`: the dashboard while the service crawls. The overview and a
 * report's first page (caches bypassed) are timed idle, then while a crawl of rust-doc (Debian's, served by nginx on
 * 127.0.0.1) started through the service's crawl-runs calls is `running`, then idle again; the run is cancelled
 * without keeping its pages once enough samples are in. Its figures go to `crawlLoad` in bench/results.json.
 */
export async function crawlLoadOnly(): Promise<void> {
  ensureDebianPackages([debianPackages.nginx, debianPackages.rustDoc]);
  prepareSection();
  const results = readResults();
  addUnlessThere('website add', [
    ...['website', 'add', '--id', CRAWL_LOAD_WEBSITE, '--name', 'rust-doc (benchmark)', '--domain', '127.0.0.1'],
  ]);
  const started = performance.now();
  const site = await startNginx({ root: RUST_DOC_ROOT });
  const port = await freePort();
  const service = await startService(port);
  try {
    const session = await openSession(port);
    const { client } = session;
    // Before the idle samples: a build without crawl runs is told at once.
    await crawlRunsCall(client, 'get-settings', { websiteId: CRAWL_LOAD_WEBSITE });
    const wanted = new Set(['overview', 'rows: first page, default sort']);
    const cases: PairedCase[] = httpCasesOf(session)
      .httpCases.filter(([name]) => wanted.has(name))
      .map(([name, url, body]) => ({
        name,
        on: [timedPost(client, `/api/technical-health-check${url}`, body, acceptOf(url))],
      }));

    const loadIdle = os.loadavg().map(round);
    const idle = samplesOf(await timeRounds(cases, CRAWL_LOAD_SAMPLES, PAIRED_WARM_UP_ROUNDS));
    console.log(`idle: ${CRAWL_LOAD_SAMPLES} requests per case done`);
    const { settings, during, loadDuringCrawl, window } = await sampleDuringCrawl(client, cases, site.url);
    const loadAfter = os.loadavg().map(round);
    const after = samplesOf(await timeRounds(cases, Math.ceil(CRAWL_LOAD_SAMPLES / 2), 0));
    results.crawlLoad = {
      urls: URLS,
      crawls: CRAWLS,
      at: new Date().toISOString(),
      cores: os.cpus().length,
      seconds: round((performance.now() - started) / 1000),
      site: 'rust-doc',
      settings: { startUrl: settings.startUrl, concurrency: settings.concurrency, delayMs: settings.delayMs },
      thinkMs: PAIRED_THINK_MS,
      goal: CRAWL_LOAD_GOAL,
      loadAverage: { idle: loadIdle, duringCrawl: loadDuringCrawl, after: loadAfter },
      window,
      perCase: cases.map((c, i) => {
        return {
          name: c.name,
          idle: stats(idle[i]!.client),
          duringCrawl: stats(during[i]!.client),
          idleAfter: stats(after[i]!.client),
          ...compare(idle[i]!.client, during[i]!.client),
          /** Inside the service, to the first byte (Server-Timing). */
          server: { idle: stats(idle[i]!.server), duringCrawl: stats(during[i]!.server) },
        };
      }),
    };
    writeResults(results);
    console.log(crawlLoadTable(results.crawlLoad as CrawlLoadResult));
  } finally {
    await stopService(service);
    await site.stop();
  }
}

type CrawlLoadResult = {
  seconds: number;
  goal: number;
  thinkMs: readonly number[];
  loadAverage: Record<'idle' | 'duringCrawl' | 'after', number[]>;
  window: { seconds: number; pagesCrawled: number; pagesPerSecond: number; statusAtEnd: string; runOutcome: string };
  perCase: ({
    name: string;
    idle: Stats;
    duringCrawl: Stats;
    idleAfter: Stats;
    server: Record<'idle' | 'duringCrawl', Stats>;
  } & Comparison)[];
};

function crawlLoadTable(r: CrawlLoadResult): string {
  return [
    `The dashboard during a crawl of rust-doc by the service (pauses ${r.thinkMs.join('–')} ms; goal p95 ≤ ${r.goal}× idle):`,
    '',
    '| case | idle p50 ms | idle p95 ms | during crawl p50 ms | during crawl p95 ms | during ÷ idle, p50 (95% interval) | p95 (95% interval) | idle again p95 ms | in service p95 ms, idle → during |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.perCase.map(
      (c) =>
        `| ${c.name} | ${c.idle.p50} | ${c.idle.p95} | ${c.duringCrawl.p50} | ${c.duringCrawl.p95} | ${ratios(c)} | ${c.idleAfter.p95} | ${c.server.idle.p95} → ${c.server.duringCrawl.p95} |`,
    ),
    '',
    `${r.window.pagesCrawled} pages crawled in the ${r.window.seconds} s window, ${r.window.pagesPerSecond} pages/s (run ${r.window.statusAtEnd} at its end, then ${r.window.runOutcome}); ${r.seconds} s in all`,
    `load average idle ${r.loadAverage.idle.join(', ')}, during the crawl ${r.loadAverage.duringCrawl.join(', ')}, after ${r.loadAverage.after.join(', ')}`,
  ].join('\n');
}
