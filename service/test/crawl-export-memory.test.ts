/**
 * The export of a crawl holds no memory by the crawl's size (issue 32): a real crawl of the benchmark's generated
 * site (the first 50,000 URLs of a 200,000-page site, so most of the URLs it knows stay uncrawled), exported under a
 * DuckDB memory limit below what its joins take, completes and loads. Before the urls table read its side tables by
 * position, its eight hash joins could not spill and this export ran out of memory at 96MB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGenerated } from '../../bench/support/generated-site.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import { crawlAndLoad, type CrawledSite } from './helpers/crawl-and-load.ts';
import { testCrawlOptions } from './helpers/crawl-site.ts';

const PAGES = 50_000;
/** Above the fixed cost of writing the crawl's widest table (the pages, about 80MB), below what the joins held before. */
const MEMORY_LIMIT = '96MB';

describe('crawl export under a small memory limit', () => {
  let site: { url: string; close(): Promise<void> };
  let crawled: CrawledSite | undefined;
  const before = process.env.CRAWL_EXPORT_MEMORY_LIMIT;

  beforeAll(async () => {
    site = await serveGenerated(PAGES * 4);
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.CRAWL_EXPORT_MEMORY_LIMIT;
    else process.env.CRAWL_EXPORT_MEMORY_LIMIT = before;
    crawled?.dispose();
    await site.close();
  });

  it(`exports a crawl of ${PAGES.toLocaleString('en')} pages at ${MEMORY_LIMIT} and loads every page`, async () => {
    process.env.CRAWL_EXPORT_MEMORY_LIMIT = MEMORY_LIMIT;
    const { outDir: _outDir, ...options } = testCrawlOptions(site.url, '', {
      websiteId: 'export-memory',
      maxUrls: PAGES,
      concurrency: 16,
    });
    crawled = await crawlAndLoad(options);
    expect(crawled.crawl.tables.urls).toBe(PAGES);
    expect(crawled.target.tables.has('urls')).toBe(true);
    const db = await crawled.db.connect();
    try {
      const count = await db.runAndReadAll(`SELECT count(*)::INTEGER FROM ${crawled.target.alias}.urls`);
      expect(count.getRows()[0]?.[0]).toBe(crawled.crawl.tables.urls);
    } finally {
      db.closeSync();
    }
  }, 180_000);

  it('names the export statement that ran out of memory', async () => {
    process.env.CRAWL_EXPORT_MEMORY_LIMIT = '8MB';
    const outDir = path.join(os.tmpdir(), `thc-export-memory-${process.pid}`);
    try {
      await expect(
        crawlWebsite(testCrawlOptions(site.url, outDir, { websiteId: 'export-memory', maxUrls: 50 })),
      ).rejects.toThrow(/Out of Memory Error[\s\S]*in the export statement: CREATE TABLE n AS SELECT/);
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});
