/**
 * Crawl runs end to end in one service (app.inject, real app database, real child processes crawling real websites
 * on 127.0.0.1, the real loader): a run is loaded as the website's next crawl and waits for approval; a cancel drops
 * everything or keeps what was crawled; a start URL nothing answers on fails with one line.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NO_SITEMAP_NOTICE, type Overview } from '../../catalog/api.ts';
import {
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunsAnswer,
  type CrawlSettings,
} from '../../catalog/crawl-runs.ts';
import { dataWindowBefore } from '../../catalog/data-sources.ts';
import { RUNS_DIR, scratchRoot } from '../crawl-runs/runner.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { startChainSite, type ChainSite } from './helpers/chain-site.ts';
import { loadTestCrawl, openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';

type Who = 'client' | 'staff' | 'admin';
/**
 * The `postgres` project runs this file again for the app database's part (vitest.config.ts). Two cases add nothing
 * there: the app database does for them what it does for the others (a run's status, its progress as one JSON value),
 * while their own point (a load interrupted, a parse worker out of heap) is the crawler's, the same on either.
 */
const isAppDbRepeat = inject('postgresUrl') !== undefined;
let signedIn: SignedInApp<Who>;
let dataDir: string;
let quick: ChainSite;
let slow: ChainSite;

beforeAll(async () => {
  dataDir = tempDir('thc-crawl-runs-');
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  await loadTestCrawl(dataDir, 'blog', 1, '2026-03-01T09:00:00Z');
  signedIn = await openSignedInApp(dataDir, '2026-03-25T10:00:00Z', ['client', 'staff', 'admin'], (stack) =>
    stack.state.approvals.approve('shop', 1, 'staff@agency.example', { isMailed: false }).then(() => undefined),
  );
  await signedIn.stack.state.startJobs();
  quick = await startChainSite({ pages: 30, delayMs: 0 });
  slow = await startChainSite({ pages: 400, delayMs: 150 });
});
afterAll(async () => {
  await signedIn?.close();
  await quick?.stop();
  await slow?.stop();
});

const call = (url: string, who: Who, payload: object) => post(signedIn.app, url, signedIn.sessions[who], payload);

async function crawlWith(startUrl: string, websiteId = 'shop', extra: Partial<CrawlSettings> = {}): Promise<CrawlRun> {
  const settings = { ...defaultCrawlSettings('shop.example'), startUrl, concurrency: 1, schedule: null, ...extra };
  expect((await call('/api/crawl-runs/save-settings', 'admin', { websiteId, settings })).statusCode).toBe(200);
  const started = await call('/api/crawl-runs/start', websiteId === 'shop' ? 'staff' : 'admin', { websiteId });
  expect(started.statusCode).toBe(200);
  return started.json<{ run: CrawlRun }>().run;
}

async function waitForRun(
  id: number,
  what: string,
  until: (run: CrawlRun) => boolean,
  seconds = 60,
  websiteId = 'shop',
): Promise<CrawlRun> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const runs = (await call('/api/crawl-runs/list', 'admin', { websiteId })).json<CrawlRunsAnswer>().runs;
    const run = runs.find((r) => r.id === id);
    if (run && until(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} ${what} within ${seconds} s: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Cancels a run of shop as its staff; the answer must be 200. */
async function cancelRun(runId: number, keepCrawled: boolean): Promise<CrawlRun> {
  const response = await call('/api/crawl-runs/cancel', 'staff', { websiteId: 'shop', runId, keepCrawled });
  expect(response.statusCode).toBe(200);
  return response.json<{ run: CrawlRun }>().run;
}

const ended = (run: CrawlRun): boolean => !['queued', 'running', 'loading'].includes(run.status);

const crawlsOf = async (who: 'client' | 'staff') =>
  (await call('/api/technical-health-check/crawl/get-redux', who, { websiteId: 'shop' })).json<
    { crawlId: number; moduleState: string; label: string; partial: string | null }[]
  >();

const urlCountOf = async (crawlId: number): Promise<number> => {
  const response = await call('/api/technical-health-check/overview/get-overview', 'staff', {
    websiteId: 'shop',
    currentId: crawlId,
  });
  expect(response.statusCode).toBe(200);
  const record = signedIn.stack.registry.crawl('shop', crawlId)!;
  return record.meta.tables.urls ?? 0;
};

/** What runs left under DATA_DIR/crawl-runs: their export directories and the scratch folder's entries. */
const runDirs = (): string[] => {
  const root = path.join(dataDir, RUNS_DIR);
  if (!fs.existsSync(root)) return [];
  const scratch = path.basename(scratchRoot(dataDir));
  return fs
    .readdirSync(root)
    .flatMap((name) => (name === scratch ? fs.readdirSync(path.join(root, name)).map((n) => `${name}/${n}`) : [name]));
};

describe('a crawl run', () => {
  it('crawls the site in a child process and loads it as the next crawl, pending for staff, unseen by clients', async () => {
    // The website's data window (not the default 28 days) reaches the export's manifest.
    const queued = await crawlWith(quick.url, 'shop', { dataWindowDays: 9 });
    expect(queued.status).toBe('queued');
    const run = await waitForRun(queued.id, 'ended', ended);
    expect(run).toMatchObject({ status: 'loaded', crawlId: 2, partial: null, reason: null, isCancelRequested: false });
    expect(run.progress.pagesDone).toBeGreaterThanOrEqual(31);
    expect(run.startedAt).not.toBeNull();
    expect(run.endedAt).not.toBeNull();
    expect(await urlCountOf(2)).toBeGreaterThanOrEqual(31);
    const { manifest } = signedIn.stack.registry.crawl('shop', 2)!.meta;
    const window = dataWindowBefore(new Date(manifest.crawledAt), 9);
    expect({ dataStart: manifest.dataStart, dataEnd: manifest.dataEnd }).toEqual(window);
    expect(Date.parse(window.dataEnd) - Date.parse(window.dataStart)).toBe(8 * 86_400_000);
    // The site answers /sitemap.xml 404 and robots.txt names none: the overview says so once.
    const staffOverview = await call('/api/technical-health-check/overview/get-overview', 'staff', {
      websiteId: 'shop',
      currentId: 2,
    });
    expect(staffOverview.json<Overview>().notice).toBe(NO_SITEMAP_NOTICE);
    expect(await crawlsOf('staff')).toMatchObject([
      { crawlId: 2, moduleState: 'PENDING' },
      { crawlId: 1, moduleState: 'APPROVED' },
    ]);
    expect((await crawlsOf('client')).map((c) => c.crawlId)).toEqual([1]);
    const overview = await call('/api/technical-health-check/overview/get-overview', 'client', {
      websiteId: 'shop',
      currentId: 2,
    });
    expect([overview.statusCode, overview.json()]).toEqual([404, { error: 'crawl could not be found.' }]);
    expect(runDirs()).toEqual([]);
  });

  it('cancelled without keeping, stops the crawl and loads nothing', async () => {
    const queued = await crawlWith(slow.url);
    await waitForRun(queued.id, 'crawled a few pages', (r) => r.status === 'running' && r.progress.pagesDone >= 3);
    expect(signedIn.stack.state.crawlRunner.runningIds).toEqual([queued.id]);
    const cancel = await cancelRun(queued.id, false);
    expect(cancel.isCancelRequested).toBe(true);
    const run = await waitForRun(queued.id, 'ended', ended, 20);
    expect(run).toMatchObject({ status: 'cancelled', crawlId: null, reason: null });
    const servedAtEnd = slow.served;
    expect(servedAtEnd).toBeLessThan(400);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(slow.served).toBe(servedAtEnd);
    expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([2, 1]);
    expect(runDirs()).toEqual([]);
  });

  it('cancelled keeping what was crawled, loads the partial crawl', async () => {
    const queued = await crawlWith(slow.url);
    await waitForRun(queued.id, 'crawled a few pages', (r) => r.status === 'running' && r.progress.pagesDone >= 5);
    await cancelRun(queued.id, true);
    const run = await waitForRun(queued.id, 'ended', ended);
    expect(run.status).toBe('loaded');
    expect(run.crawlId).toBe(3);
    const kept = /^Cancelled; the (\d+) pages crawled so far were kept$/.exec(run.reason ?? '');
    expect(kept, run.reason ?? 'no reason').not.toBeNull();
    expect(Number(kept![1])).toBeGreaterThanOrEqual(5);
    expect(Number(kept![1])).toBeLessThan(400);
    // History and the dropdowns mark it partial.
    expect(run.partial).toBe('stopped');
    const crawls = await crawlsOf('staff');
    expect(crawls.map((c) => c.crawlId)).toEqual([3, 2, 1]);
    expect(crawls[0]).toMatchObject({ partial: 'stopped' });
    expect(crawls[0]!.label).toMatch(/\(crawl 3, partial\)$/);
    expect(runDirs()).toEqual([]);
  });

  it.skipIf(isAppDbRepeat)(
    'cancelled while loading without keeping, interrupts the load and leaves the store as it was',
    async () => {
      const queued = await crawlWith(quick.url);
      await waitForRun(queued.id, 'loading', (r) => r.status === 'loading' || ended(r));
      await cancelRun(queued.id, false);
      const run = await waitForRun(queued.id, 'ended', ended);
      expect(run).toMatchObject({ status: 'cancelled', crawlId: null });
      expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([3, 2, 1]);
      await signedIn.stack.registry.refresh();
      expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([3, 2, 1]);
      expect(fs.readdirSync(path.join(dataDir, 'store', 'shop')).sort()).toEqual(expect.not.arrayContaining(['4']));
      expect(runDirs()).toEqual([]);
    },
  );

  it('runs one at a time with CRAWL_WORKERS=1: a run of another website waits, queued, until the first ends', async () => {
    const first = await crawlWith(slow.url);
    await waitForRun(first.id, 'running', (r) => r.status === 'running' && r.progress.pagesDone >= 1);
    const second = await crawlWith(quick.url, 'blog');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await waitForRun(second.id, 'listed', () => true, 1, 'blog')).status).toBe('queued');
    expect(signedIn.stack.state.crawlRunner.runningIds).toEqual([first.id]);
    await cancelRun(first.id, false);
    const done = await waitForRun(second.id, 'ended', ended, 60, 'blog');
    expect(done).toMatchObject({ status: 'loaded', crawlId: 2 });
    expect(Date.parse(done.startedAt!)).toBeGreaterThanOrEqual(Date.parse(done.queuedAt));
    expect((await waitForRun(first.id, 'ended', ended)).status).toBe('cancelled');
  });

  it('fails with the reason in one line when nothing answers at the start URL', async () => {
    const closed = await freePort();
    const queued = await crawlWith(`http://127.0.0.1:${closed}/`);
    const run = await waitForRun(queued.id, 'ended', ended);
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(new RegExp(`^start URL http://127\\.0\\.0\\.1:${closed}/ is unreachable \\(.+\\)$`));
    expect(run.reason).not.toContain('\n');
    expect(signedIn.stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([3, 2, 1]);
    expect(runDirs()).toEqual([]);
  });

  it.skipIf(isAppDbRepeat)('counts the pages it could not parse in its history row', async () => {
    // JSON-LD of a million objects: more than a parse worker's heap holds, on its first try and on its retry.
    const killer = `<!doctype html><title>Killer</title><script type="application/ld+json">[${'{},'.repeat(1_000_000)}{}]</script>`;
    const server = http.createServer((request, response) => {
      const body =
        request.url === '/'
          ? '<!doctype html><title>Home</title><a href="/killer">k</a> <a href="/fine">f</a>'
          : request.url === '/killer'
            ? killer
            : request.url === '/fine'
              ? '<!doctype html><title>Fine</title>'
              : null;
      if (body === null) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const queued = await crawlWith(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 'blog');
      const run = await waitForRun(queued.id, 'ended', ended, 120, 'blog');
      expect(run).toMatchObject({ status: 'loaded', progress: { parseFailures: 1 } });
      const runs = (await call('/api/crawl-runs/list', 'admin', { websiteId: 'blog' })).json<CrawlRunsAnswer>().runs;
      const others = runs.filter((r) => r.id !== run.id && r.status === 'loaded');
      expect(others.length).toBeGreaterThan(0);
      for (const other of others) expect(other.progress.parseFailures).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
