/**
 * A run at its time limit (real runner, real worker, sites on 127.0.0.1; the runner's clock is the test's, the
 * worker's silence is timed for real): one still fetching stops there and keeps what it crawled, a partial crawl; one
 * writing its export or loading, a step longer than a minute by that clock, the worker heartbeating meanwhile,
 * finishes and keeps the crawl; a worker silent past the limit (frozen with SIGSTOP mid-step) is ended.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_AFTER_MS, type CrawlRun } from '../../catalog/crawl-runs.ts';
import { KILL_GRACE_MS } from '../crawl-runs/runner.ts';
import { isPidAlive } from '../pid-lock.ts';
import { isPartialCrawl } from '../store/crawl-labels.ts';
import { startChainSite, type ChainSite } from './helpers/chain-site.ts';
import { crawlRunCalls, freeze, isEnded, waitUntilDead } from './helpers/crawl-run-calls.ts';
import { loadTestCrawl, openSignedInApp, tempDir, type SignedInApp } from './auth-fixture.ts';

const HOUR_MS = 3_600_000;
const SILENCE_SECONDS = 2;
/** A crawl worker runs at the lowest priority: on a machine busy with other work it may take minutes to start. */
const START_SECONDS = 480;
const TEST_MS = 900_000;
const SLOW_PAGES = 400;
let site: ChainSite;
/** Slow enough that the run is still fetching when the clock reaches its limit. */
let slowSite: ChainSite;
const frozen: number[] = [];

beforeAll(async () => {
  site = await startChainSite({ pages: 30, delayMs: 0 });
  slowSite = await startChainSite({ pages: SLOW_PAGES, delayMs: 100 });
});
afterEach(() => {
  for (const pid of frozen.splice(0)) if (isPidAlive(pid)) process.kill(pid, 'SIGKILL');
});
afterAll(() => Promise.all([site?.stop(), slowSite?.stop()]));

/** The service over a data dir of its own, with website shop's crawl 1 loaded; `env` its environment. */
function openService(env: NodeJS.ProcessEnv) {
  const service: { signedIn?: SignedInApp<'admin'> } = {};
  beforeAll(async () => {
    const dataDir = tempDir('thc-crawl-limit-');
    await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
    service.signedIn = await openSignedInApp(dataDir, '2026-03-25T10:00:00Z', ['admin'], undefined, env);
    await service.signedIn.stack.state.startJobs();
  });
  afterAll(() => service.signedIn?.close());
  const signedIn = (): SignedInApp<'admin'> => service.signedIn!;
  return {
    signedIn,
    ...crawlRunCalls(
      () => signedIn().app,
      () => signedIn().sessions.admin,
    ),
  };
}

/** Exporting or loading: one of the steps a big site can hold for minutes. */
const isStepping = (run: CrawlRun): boolean => run.status === 'loading' || run.progress.phase === 'exporting';

describe('a run reaching its time limit while fetching', () => {
  const { signedIn, start, waitFor } = openService({ CRAWL_SILENCE_SECONDS: '600' });

  it(
    "stops there and keeps the pages crawled so far, by the runner's clock",
    async () => {
      const run = await start('shop', slowSite.url, { timeLimitHours: 1 });
      await waitFor('shop', run.id, (r) => r.progress.pagesDone >= 3 || isEnded(r), START_SECONDS);
      signedIn().clock.advance(HOUR_MS + 1000);
      const ended = await waitFor('shop', run.id, isEnded, 120);
      expect(ended).toMatchObject({ status: 'loaded', crawlId: 2 });
      const kept = /^Stopped at the time limit of 1 h; the (\d+) pages crawled so far were kept$/.exec(
        ended.reason ?? '',
      );
      expect(kept, ended.reason ?? 'no reason').not.toBeNull();
      expect(Number(kept![1])).toBeGreaterThanOrEqual(3);
      expect(Number(kept![1])).toBeLessThan(SLOW_PAGES);
      const crawls = signedIn().stack.registry.crawls('shop');
      expect(crawls.map((c) => c.crawlId)).toEqual([2, 1]);
      expect(crawls.map(isPartialCrawl)).toEqual([true, false]);
    },
    TEST_MS,
  );
});

describe('a run past its time limit, exporting and loading', () => {
  // Silence long enough that a starved worker is not taken for a frozen one: here only the clock runs fast.
  const { signedIn, start, listed, waitFor } = openService({ CRAWL_SILENCE_SECONDS: '600' });

  it(
    'finishes and keeps the crawl while its worker heartbeats, however long a step takes by the clock',
    async () => {
      const run = await start('shop', site.url, { timeLimitHours: 1 });
      await waitFor('shop', run.id, (r) => isStepping(r) || isEnded(r), START_SECONDS);
      const { clock } = signedIn();
      clock.advance(HOUR_MS);
      // Each step now lasts minutes by the runner's clock: the old rule (no progress for a minute) ended the run here.
      const timeLapse = setInterval(() => clock.advance(20_000), 250);
      let longestStill = 0;
      try {
        for (;;) {
          const { run: now, now: at } = await listed('shop', run.id);
          if (isEnded(now)) break;
          if (isStepping(now)) longestStill = Math.max(longestStill, at - now.progress.progressAt!);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        clearInterval(timeLapse);
      }
      expect(longestStill).toBeGreaterThanOrEqual(STALLED_AFTER_MS);
      const done = (await listed('shop', run.id)).run;
      expect(done).toMatchObject({ status: 'loaded', crawlId: 2, reason: null });
      expect(
        signedIn()
          .stack.registry.crawls('shop')
          .map((c) => c.crawlId),
      ).toEqual([2, 1]);
    },
    TEST_MS,
  );
});

describe('a run past its time limit whose worker is silent', () => {
  const { signedIn, start, waitFor } = openService({ CRAWL_SILENCE_SECONDS: String(SILENCE_SECONDS) });

  it(
    `is ended after ${SILENCE_SECONDS} s (CRAWL_SILENCE_SECONDS) of silence mid-step, nothing kept`,
    async () => {
      const run = await start('shop', site.url, { timeLimitHours: 1 });
      await waitFor('shop', run.id, isStepping, START_SECONDS);
      const pid = freeze(signedIn().stack.state.crawlRunner.workerPid(run.id), frozen);
      // Past the limit by a second: it is the silence, not a minute without progress, that ends it.
      signedIn().clock.advance(HOUR_MS + 1000);
      const ended = await waitFor('shop', run.id, isEnded, SILENCE_SECONDS + KILL_GRACE_MS / 1000 + 10);
      expect(ended).toMatchObject({
        status: 'failed',
        crawlId: null,
        reason:
          `The crawl failed: it was still running past its time limit of 1 h and its worker silent for ` +
          `${SILENCE_SECONDS} s, so it was ended and nothing was kept`,
      });
      await waitUntilDead(pid);
      expect(isPidAlive(pid)).toBe(false);
      expect(
        signedIn()
          .stack.registry.crawls('shop')
          .map((c) => c.crawlId),
      ).toEqual([1]);
    },
    TEST_MS,
  );
});
