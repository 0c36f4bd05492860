import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, quoteIdent, withConnection } from '../db/duckdb.ts';
import { CRAWL_DB_FILE, CRAWL_META_FILE, WEBSITE_FILE, crawlDir, websiteDir } from '../store/layout.ts';
import {
  addTestUsers,
  openSignedInApp,
  openStack,
  post,
  signInAs,
  tempDir,
  TestClock,
  writeCrawl,
  type SignedInApp,
} from './auth-fixture.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const NOW = '2025-02-01T12:00:00.000Z';
const crawledAt = '2025-01-20T09:00:00.000Z';

/** shop crawls 1 and 2 and blog crawl 1, readable; beside them every kind of crawl folder this build cannot read. */
async function storeWithUnreadableFolders(): Promise<{ dataDir: string; unreadable: string[] }> {
  const dataDir = tempDir('thc-store-');
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 2 });
  await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1, moduleState: 'APPROVED' });
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 99999999999, crawledAt });
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 2147483648, crawledAt });
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 5 });
  fs.writeFileSync(path.join(crawlDir(dataDir, 'shop', 5), 'load-5', CRAWL_DB_FILE), 'not a database');
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 6 });
  fs.writeFileSync(path.join(crawlDir(dataDir, 'shop', 6), 'load-6', CRAWL_META_FILE), '{"manifest": ');
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 7 });
  const newerMeta = path.join(crawlDir(dataDir, 'shop', 7), 'load-7', CRAWL_META_FILE);
  fs.writeFileSync(newerMeta, JSON.stringify({ layout: 99, ...JSON.parse(fs.readFileSync(newerMeta, 'utf8')) }));
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 8 });
  const foreignDb = path.join(crawlDir(dataDir, 'shop', 8), 'load-8', CRAWL_DB_FILE);
  fs.rmSync(foreignDb);
  (await openDatabase(foreignDb)).closeSync();
  await writeCrawl(dataDir, { websiteId: 'news', crawlId: 1 });
  fs.writeFileSync(path.join(websiteDir(dataDir, 'news'), WEBSITE_FILE), '[]');
  return {
    dataDir,
    unreadable: [
      crawlDir(dataDir, 'shop', 99999999999),
      crawlDir(dataDir, 'shop', 2147483648),
      crawlDir(dataDir, 'shop', 5),
      crawlDir(dataDir, 'shop', 6),
      crawlDir(dataDir, 'shop', 7),
      crawlDir(dataDir, 'shop', 8),
      websiteDir(dataDir, 'news'),
    ],
  };
}

let open: SignedInApp<'staff' | 'client'> | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
  vi.restoreAllMocks();
});

describe('a crawl folder this build cannot read', () => {
  it('is skipped with one warning naming it, at boot and at each store scan, while everything else works', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { dataDir, unreadable } = await storeWithUnreadableFolders();
    open = await openSignedInApp(dataDir, NOW, ['staff', 'client']);
    const { app, sessions, stack } = open;

    const warned = warn.mock.calls.map((call) => String(call[0]));
    for (const folder of unreadable) expect(warned.filter((line) => line.startsWith(`${folder}: `))).toHaveLength(1);
    expect(warned).toHaveLength(unreadable.length);

    const redux = await post(app, '/api/technical-health-check/crawl/get-redux', sessions.staff, { websiteId: 'shop' });
    expect(redux.statusCode).toBe(200);
    expect(redux.json<{ crawlId: number }[]>().map((c) => c.crawlId)).toEqual([2, 1]);

    const approve = await post(app, '/api/technical-health-check/crawl/approve', sessions.staff, {
      moduleId: 'shop:2',
      websiteId: 'shop',
    });
    expect(approve.statusCode).toBe(200);
    expect(approve.json<{ moduleState: string }>().moduleState).toBe('APPROVED');
    const clientView = await post(app, '/api/technical-health-check/crawl/get-redux', sessions.client, {
      websiteId: 'shop',
    });
    expect(clientView.json<{ crawlId: number }[]>().map((c) => c.crawlId)).toEqual([2]);

    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 3 });
    expect(await stack.registry.refresh()).toBe(true);
    await stack.state.sync();
    expect(stack.registry.crawls('shop').map((c) => c.crawlId)).toEqual([3, 2, 1]);
    expect(warn).toHaveBeenCalledTimes(unreadable.length);
  });

  it('is listed by npm run load-crawl -- --check, which exits 1; a clean store exits 0', async () => {
    const { dataDir, unreadable } = await storeWithUnreadableFolders();
    const run = (dir: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--check', '--data-dir', dir], {
        cwd: REPO,
        encoding: 'utf8',
      });
    const bad = run(dataDir);
    expect(bad.status).toBe(1);
    const lines = bad.stdout.trim().split('\n');
    for (const folder of unreadable)
      expect(lines.filter((line) => line.startsWith(`load-crawl: ${folder}: `))).toHaveLength(1);
    expect(lines.at(-1)).toBe(`load-crawl: 3 crawls readable; ${unreadable.length} folders this build cannot read`);

    const clean = tempDir('thc-store-');
    await writeCrawl(clean, { websiteId: 'shop', crawlId: 1 });
    const good = run(clean);
    expect(good.stdout).toBe('load-crawl: 1 crawls readable; every folder is readable\n');
    expect(good.status).toBe(0);
  });
});

describe('crawl ids outside 1 … 2,147,483,647 are refused by every route', () => {
  it('answers 400 with a JSON body, never a 5xx', async () => {
    const dataDir = tempDir('thc-store-');
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
    open = await openSignedInApp(dataDir, NOW, ['staff', 'client']);
    const { app, sessions } = open;
    const calls: [string, object][] = [
      ['/api/technical-health-check/crawl/approve', { moduleId: 'shop:9999999999', websiteId: 'shop' }],
      ['/api/technical-health-check/crawl/approve', { moduleId: 'shop:2147483648', websiteId: 'shop' }],
      ['/api/technical-health-check/checklist/get-items', { websiteId: 'shop', reportId: 'x', crawlId: 99999999999 }],
      ['/api/technical-health-check/checklist/get-items', { websiteId: 'shop', reportId: 'x', crawlId: '2147483648' }],
      [
        '/api/technical-health-check/checklist/save',
        { websiteId: 'shop', start: 2147483648, submodule: 'x', module: 'x', end: null },
      ],
      ['/api/technical-health-check/crawl/get-redux', { websiteId: 'shop', currentId: 2147483648 }],
    ];
    for (const [url, payload] of calls) {
      const response = await post(app, url, sessions.staff, payload);
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(response.json<{ error: string }>().error).toMatch(/^Invalid /);
    }
  });
});

describe('a 5xx', () => {
  it('answers the 4xx shape with a generic message and a request id; the detail is logged under that id only', async () => {
    const dataDir = tempDir('thc-store-');
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1, moduleState: 'APPROVED' });
    const clock = new TestClock(new Date(NOW));
    const stack = await openStack(dataDir, { clock: clock.fn });
    await addTestUsers(stack, clock, ['staff']);
    const logged: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const config = { dataDir, port: 8080, host: '127.0.0.1', isDemo: false };
    const app = await buildApp({ config, db: stack.db, state: stack.state, logStream });
    try {
      const staff = await signInAs(app, 'staff');
      // A real engine failure: the crawl's database is gone from under the registry.
      const alias = stack.registry.crawl('shop', 1)!.alias;
      await withConnection(stack.db, (conn) => conn.run(`DETACH DATABASE ${quoteIdent(alias)}`));

      const response = await post(app, '/api/technical-health-check/report/get-rows', staff, {
        websiteId: 'shop',
        currentId: 1,
        reportId: 'links/internal-broken',
        skipCache: true,
      });

      expect(response.statusCode).toBe(500);
      const body = response.json<{ error: string; requestId: string }>();
      expect(Object.keys(body).sort()).toEqual(['error', 'requestId']);
      expect(body.error).toBe('An unexpected error occurred; quote the request id when reporting it');
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['x-request-id']).toBe(body.requestId);
      expect(response.body).not.toMatch(/Catalog|Error:|duckdb|crawl_/i);
      const entries = logged.map((line) => JSON.parse(line) as { reqId?: string; err?: { message?: string } });
      const entry = entries.find((e) => e.reqId === body.requestId && e.err);
      expect(entry?.err?.message).toMatch(/Catalog Error/);
    } finally {
      await app.close();
      await stack.close();
    }
  });
});
