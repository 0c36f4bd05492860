import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, textOf, withConnection } from '../db/duckdb.ts';
import { makeTempDataDir, writeCrawlToStore } from '../test/helpers/make-store.ts';
import { CURRENT_FILE, crawlDir, writeFileAtomic } from './layout.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const crawl = (crawlId: number, loadId?: string) => ({
  websiteId: 'shop',
  crawlId,
  loadId,
  isPrecomputed: false,
  tables: { urls: [{ url: `https://shop.example/${crawlId}`, internal: true }] },
});

async function attached(db: Awaited<ReturnType<typeof openDatabase>>): Promise<string[]> {
  return withConnection(db, async (conn) =>
    (await conn.runAndReadAll(`SELECT database_name FROM duckdb_databases() WHERE database_name LIKE 'crawl_%'`))
      .getRowsJS()
      .map((r) => textOf(r[0]))
      .sort(),
  );
}

describe('CrawlRegistry.refresh', () => {
  it('picks up a new crawl and a replacement, detaches what went, and reports no change when there is none', async () => {
    const dataDir = makeTempDataDir();
    dirs.push(dataDir);
    await writeCrawlToStore(dataDir, crawl(1));
    const db = await openDatabase();
    try {
      const registry = await openCrawlRegistry(dataDir, db);
      let changes = 0;
      registry.onChange(() => changes++);
      expect(await registry.refresh()).toBe(false);
      expect(changes).toBe(0);

      await writeCrawlToStore(dataDir, crawl(2));
      expect(await registry.refresh()).toBe(true);
      expect(registry.crawls('shop').map((c) => [c.crawlId, c.loadId])).toEqual([
        [2, 'load-2'],
        [1, 'load-1'],
      ]);

      await writeCrawlToStore(dataDir, crawl(2, 'load-2b'));
      expect(await registry.refresh()).toBe(true);
      expect(registry.crawl('shop', 2)?.loadId).toBe('load-2b');
      expect(await attached(db)).toEqual([registry.crawl('shop', 1)!.alias, registry.crawl('shop', 2)!.alias].sort());
      expect(changes).toBe(2);

      fs.rmSync(path.join(crawlDir(dataDir, 'shop', 1), CURRENT_FILE));
      expect(await registry.refresh()).toBe(true);
      expect(registry.crawls('shop').map((c) => c.crawlId)).toEqual([2]);
      expect(await attached(db)).toEqual([registry.crawl('shop', 2)!.alias]);
      writeFileAtomic(path.join(crawlDir(dataDir, 'shop', 1), CURRENT_FILE), 'load-1');
      expect(await registry.refresh()).toBe(true);
      expect(registry.crawl('shop', 1)?.meta.loadId).toBe('load-1');
    } finally {
      db.closeSync();
    }
  });

  it('follows a call made during a pass with one more pass, so a load published meanwhile is not missed', async () => {
    const dataDir = makeTempDataDir();
    dirs.push(dataDir);
    await writeCrawlToStore(dataDir, crawl(1));
    await writeCrawlToStore(dataDir, crawl(2));
    const current = path.join(crawlDir(dataDir, 'shop', 2), CURRENT_FILE);
    fs.rmSync(current);
    const db = await openDatabase();
    try {
      const registry = await openCrawlRegistry(dataDir, db);
      const during = registry.refresh();
      // Published after that pass read the store, before it ended (its reading is synchronous).
      writeFileAtomic(current, 'load-2');
      const after = registry.refresh();
      expect(registry.refresh()).toBe(after);
      expect(await during).toBe(false);
      expect(await after).toBe(true);
      expect(registry.crawls('shop').map((c) => c.crawlId)).toEqual([2, 1]);
    } finally {
      db.closeSync();
    }
  });
});
