/**
 * Cancels that must work whatever the crawl is doing (real runner, real child processes, real sites on 127.0.0.1):
 * a worker frozen for real (SIGSTOP, as a pattern or parser spinning at 100% CPU would leave it) is killed within
 * KILL_GRACE_MS and the run queued behind it starts; a cancel keeping what was crawled that the worker never
 * acknowledges ends as cancelled with the reason; a second cancel drops what a first one kept, or is a 409; a run
 * frozen past its time limit is ended. A pattern catastrophic for JavaScript's engine runs in linear time, and the
 * runner times a stall by its own clock.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_AFTER_MS, type CrawlRun } from '../../catalog/crawl-runs.ts';
import { KILLED_KEEPING, KILL_GRACE_MS, scratchRoot } from '../crawl-runs/runner.ts';
import { ALREADY_DROPPING, ALREADY_KEEPING } from '../crawl-runs/runs.ts';
import { isPidAlive } from '../pid-lock.ts';
import { startChainSite, type ChainSite } from './helpers/chain-site.ts';
import { crawlRunCalls, freeze, isEnded, waitUntilDead } from './helpers/crawl-run-calls.ts';
import { loadTestCrawl, openSignedInApp, tempDir, type SignedInApp } from './auth-fixture.ts';

let signedIn: SignedInApp<'admin'>;
let dataDir: string;
let quick: ChainSite;
let slow: ChainSite;
const stopped: number[] = [];

beforeAll(async () => {
  dataDir = tempDir('thc-crawl-cancel-');
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  await loadTestCrawl(dataDir, 'blog', 1, '2026-03-01T09:00:00Z');
  signedIn = await openSignedInApp(dataDir, '2026-03-25T10:00:00Z', ['admin']);
  await signedIn.stack.state.startJobs();
  quick = await startChainSite({ pages: 10, delayMs: 0 });
  slow = await startChainSite({ pages: 400, delayMs: 150 });
});
afterEach(() => {
  // A test that failed half-way must not leave a stopped process behind.
  for (const pid of stopped.splice(0)) if (isPidAlive(pid)) process.kill(pid, 'SIGKILL');
});
afterAll(async () => {
  await signedIn?.close();
  await quick?.stop();
  await slow?.stop();
});

const {
  start: startCrawl,
  listed,
  waitFor: waitForRun,
  cancel,
} = crawlRunCalls(
  () => signedIn.app,
  () => signedIn.sessions.admin,
);
const ended = isEnded;
const crawling = (run: CrawlRun): boolean => run.status === 'running' && run.progress.pagesDone >= 3;

const freezeWorker = (runId: number): number => freeze(signedIn.stack.state.crawlRunner.workerPid(runId), stopped);

describe('a cancel', () => {
  it('kills a frozen worker within 2 s, and the run queued behind it starts', async () => {
    const frozen = await startCrawl('shop', slow.url);
    await waitForRun('shop', frozen.id, crawling);
    const next = await startCrawl('blog', quick.url);
    const pid = freezeWorker(frozen.id);

    // Frozen, its progress stops moving while the service's clock goes on: a minute later it reads as stalled.
    const before = await listed('shop', frozen.id);
    expect(before.run.progress.phase).toBe('fetching');
    expect(before.run.progress.progressAt).toBeGreaterThan(0);
    signedIn.clock.advance(STALLED_AFTER_MS + 1000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const later = await listed('shop', frozen.id);
    expect(later.run.progress.progressAt).toBe(before.run.progress.progressAt);
    expect(later.now - later.run.progress.progressAt!).toBeGreaterThanOrEqual(STALLED_AFTER_MS);

    const asked = performance.now();
    expect((await cancel('shop', frozen.id, false)).statusCode).toBe(200);
    await waitUntilDead(pid);
    expect(performance.now() - asked).toBeLessThan(KILL_GRACE_MS + 1000);
    const run = await waitForRun('shop', frozen.id, ended, 10);
    expect(run).toMatchObject({ status: 'cancelled', crawlId: null, reason: null });
    expect(await waitForRun('blog', next.id, ended)).toMatchObject({ status: 'loaded', crawlId: 2 });
    expect(fs.readdirSync(scratchRoot(dataDir))).toEqual([]);
  });

  it('keeping what was crawled, ends as cancelled with the reason when the worker never acknowledges', async () => {
    const frozen = await startCrawl('shop', slow.url);
    await waitForRun('shop', frozen.id, crawling);
    const pid = freezeWorker(frozen.id);
    const asked = performance.now();
    expect((await cancel('shop', frozen.id, true)).statusCode).toBe(200);
    await waitUntilDead(pid);
    expect(performance.now() - asked).toBeLessThan(KILL_GRACE_MS + 1000);
    const run = await waitForRun('shop', frozen.id, ended, 10);
    expect(run).toMatchObject({ status: 'cancelled', crawlId: null, reason: KILLED_KEEPING });
  });

  it('a second time drops what a first one kept; any other second cancel is a 409 naming why', async () => {
    const queued = await startCrawl('shop', slow.url);
    await waitForRun('shop', queued.id, crawling);
    const keep = await cancel('shop', queued.id, true);
    expect(keep.json<{ run: CrawlRun }>().run).toMatchObject({ isCancelRequested: true, isKeepRequested: true });
    const again = await cancel('shop', queued.id, true);
    expect([again.statusCode, again.json()]).toEqual([409, { error: ALREADY_KEEPING }]);
    const drop = await cancel('shop', queued.id, false);
    expect(drop.statusCode).toBe(200);
    expect(drop.json<{ run: CrawlRun }>().run).toMatchObject({ isCancelRequested: true, isKeepRequested: false });
    const third = await cancel('shop', queued.id, true);
    expect(third.statusCode).toBe(409);
    expect(third.json<{ error: string }>().error).toMatch(
      new RegExp(`^(${ALREADY_DROPPING}|The crawl run has already ended \\(cancelled\\))$`),
    );
    const run = await waitForRun('shop', queued.id, ended, 10);
    expect(run).toMatchObject({ status: 'cancelled', crawlId: null, reason: null });
    expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([1]);
  });
});

describe('the time limit', () => {
  it('ends a run frozen past it, whose worker cannot stop itself', async () => {
    const frozen = await startCrawl('shop', slow.url, { timeLimitHours: 1 });
    await waitForRun('shop', frozen.id, crawling);
    const pid = freezeWorker(frozen.id);
    signedIn.clock.advance(3_600_000 + STALLED_AFTER_MS);
    const run = await waitForRun('shop', frozen.id, ended, KILL_GRACE_MS / 1000 + 5);
    expect(run).toMatchObject({
      status: 'failed',
      crawlId: null,
      // Asked to stop at the limit, it cannot answer; which of the runner's checks ends it first depends on timing.
      reason: expect.stringMatching(
        new RegExp(
          '^The crawl failed: it (was still running past its time limit of 1 h with no progress for a minute|' +
            'did not answer the stop at its time limit of 1 h within 2 s), so it was ended and nothing was kept$',
        ),
      ) as string,
    });
    expect(isPidAlive(pid)).toBe(false);
  });
});

describe('an exclude pattern', () => {
  it('that would take JavaScript forever on these URLs runs in linear time', async () => {
    // `(a+)+$` against ".../aaaa…a/" backtracks 2^40 times in JavaScript's engine; RE2 reads each URL once.
    const run = 'a'.repeat(40);
    const server = http.createServer((request, response) => {
      const links = request.url === '/' ? `<a href="/${run}/">run</a> <a href="/${run}">excluded</a>` : '';
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title><p>${links}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const queued = await startCrawl('shop', `http://127.0.0.1:${port}/`, { exclude: ['(a+)+$'] });
      const done = await waitForRun('shop', queued.id, ended, 120);
      expect(done.status).toBe('loaded');
      expect(done.progress.pagesDone).toBe(2);
      // The crawl itself (loading aside) takes seconds: JavaScript's engine would still be on the first URL.
      expect(done.progress.elapsedMs).toBeLessThan(15_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
