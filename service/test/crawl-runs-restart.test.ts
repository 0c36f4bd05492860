/**
 * Crawl runs across the life of the service process (node --import tsx service/main.ts, real HTTP): killed mid-crawl
 * (SIGKILL), the next start fails the run as interrupted, removes its export and loads nothing, and the earlier crawl
 * is served as before; stopped with SIGTERM, the service fails its own run the same way before it exits.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRun, CrawlRunsAnswer } from '../../catalog/crawl-runs.ts';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import { INTERRUPTED, RUNS_DIR, runScratchDir, scratchRoot } from '../crawl-runs/runner.ts';
import { isPidAlive } from '../pid-lock.ts';
import { addTestUsers, loadTestCrawl, openStack, tempDir, TestClock } from './auth-fixture.ts';
import { startChainSite, type ChainSite } from './helpers/chain-site.ts';
import { killServices, startService as startServiceProcess } from './helpers/service-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dataDir: string;
let site: ChainSite;

async function waitFor<T>(what: string, seconds: number, probe: () => T | undefined | Promise<T | undefined>) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${seconds} s`);
    await sleep(100);
  }
}

const startService = () => startServiceProcess({ env: { DATA_DIR: dataDir, DATABASE_URL: '' } });

async function signIn(origin: string): Promise<(url: string, payload: object) => Promise<Response>> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'staff@agency.example', password: 'staff-pass' }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  return (url, payload) =>
    fetch(`${origin}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken },
      body: JSON.stringify(payload),
    });
}

const runsOf = async (call: Awaited<ReturnType<typeof signIn>>): Promise<CrawlRun[]> =>
  ((await (await call('/api/crawl-runs/list', { websiteId: 'shop' })).json()) as CrawlRunsAnswer).runs;

/** Starts a crawl of the slow site and waits until it has fetched a few pages; answers the run's id. */
async function startCrawl(call: Awaited<ReturnType<typeof signIn>>): Promise<number> {
  const settings = { ...defaultCrawlSettings('shop.example'), startUrl: site.url, concurrency: 1, schedule: null };
  expect((await call('/api/crawl-runs/save-settings', { websiteId: 'shop', settings })).status).toBe(200);
  const started = await call('/api/crawl-runs/start', { websiteId: 'shop' });
  expect(started.status).toBe(200);
  const { run } = (await started.json()) as { run: CrawlRun };
  await waitFor('the crawl fetched a few pages', 60, async () =>
    (await runsOf(call)).find((r) => r.id === run.id && r.status === 'running' && r.progress.pagesDone >= 3),
  );
  return run.id;
}

/** The crawl workers the process forked. */
const workersOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'crawl-runs/worker.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

const crawlIdsOf = async (call: Awaited<ReturnType<typeof signIn>>): Promise<number[]> =>
  (
    (await (await call('/api/technical-health-check/crawl/get-redux', { websiteId: 'shop' })).json()) as {
      crawlId: number;
    }[]
  ).map((c) => c.crawlId);

beforeAll(async () => {
  dataDir = path.join(tempDir('thc-crawl-restart-'), 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  const clock = new TestClock(new Date());
  const stack = await openStack(dataDir, { clock: clock.fn, env: { DATABASE_URL: '' } });
  await addTestUsers(stack, clock, ['staff']);
  await stack.close();
  site = await startChainSite({ pages: 2000, delayMs: 200 });
});

afterAll(async () => {
  killServices();
  await site?.stop();
});

describe('a crawl run and the service process', () => {
  it('killed mid-crawl: the next start fails the run as interrupted, with its export gone and nothing loaded', async () => {
    const first = await startService();
    const call = await signIn(first.origin);
    const runId = await startCrawl(call);
    const workers = workersOf(first.process.pid!);
    expect(workers).toHaveLength(1);
    await first.stop('SIGKILL');
    // The orphaned worker notices its parent is gone and stops, leaving nothing.
    await waitFor('the worker stopped', 10, () => (isPidAlive(workers[0]!) ? undefined : true));
    const servedAtEnd = site.served;
    // What a killed worker leaves in its scratch, and a folder of a run long gone: the next start removes both.
    fs.writeFileSync(path.join(runScratchDir(dataDir, runId), 'leftover.tmp'), 'x'.repeat(1000));
    fs.mkdirSync(runScratchDir(dataDir, 999_999), { recursive: true });

    const second = await startService();
    const again = await signIn(second.origin);
    const run = (await runsOf(again)).find((r) => r.id === runId);
    expect(run).toMatchObject({ status: 'failed', reason: INTERRUPTED, crawlId: null });
    expect(run?.endedAt).not.toBeNull();
    expect(fs.existsSync(path.join(dataDir, RUNS_DIR, String(runId)))).toBe(false);
    expect(fs.readdirSync(scratchRoot(dataDir))).toEqual([]);
    expect(await crawlIdsOf(again)).toEqual([1]);
    const overview = await again('/api/technical-health-check/overview/get-overview', {
      websiteId: 'shop',
      currentId: 1,
    });
    expect(overview.status).toBe(200);
    expect(site.served).toBe(servedAtEnd);

    // SIGTERM: the stopping service fails its own run before it exits.
    const next = await startCrawl(again);
    expect(await second.stop()).toBe(0);
    const third = await startService();
    const last = await signIn(third.origin);
    expect((await runsOf(last)).find((r) => r.id === next)).toMatchObject({ status: 'failed', reason: INTERRUPTED });
    expect(third.output()).not.toContain(`crawl run ${next} of`);
    expect(fs.readdirSync(path.join(dataDir, RUNS_DIR))).toEqual([path.basename(scratchRoot(dataDir))]);
    expect(fs.readdirSync(scratchRoot(dataDir))).toEqual([]);
    expect(await crawlIdsOf(last)).toEqual([1]);
    expect(await third.stop()).toBe(0);
  });
});
