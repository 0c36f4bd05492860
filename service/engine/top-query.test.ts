import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/duckdb.ts';
import { makeTempDataDir, writeCrawlToStore } from '../test/helpers/make-store.ts';
import { report } from '../test/helpers/sample-store.ts';
import type { CrawlTarget, RowsRequest } from './compile.ts';
import { ReportEngine } from './engine.ts';
import { rowsOf } from './result.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const u = (p: string): string => `https://tq.example${p}`;
const page = (path: string, status = 200) => ({
  url: u(path),
  http_status_code: status,
  indexable: status === 200,
  internal: true,
  found_in_web_crawl: true,
  page_title: 'Hi',
  page_title_length: 2,
  // An HTML page (a 200 without an HTML size is a stylesheet or a PDF, which the page reports leave out).
  html_size: 20_000,
});
const gsc = (path: string, date: string, clicks: number, impressions: number) => ({
  date,
  url: u(path),
  clicks,
  impressions,
  position: 3,
});
const q = (path: string, query: string, date: string, clicks: number, impressions: number) => ({
  ...gsc(path, date, clicks, impressions),
  query,
});

describe('joined search console top query and the status AI columns need', () => {
  const stores: { engine: ReportEngine; target: CrawlTarget; close: () => void; dir: string }[] = [];
  beforeAll(async () => {
    for (const isPrecomputed of [true, false]) {
      const dir = makeTempDataDir();
      await writeCrawlToStore(dir, {
        websiteId: 'tq',
        crawlId: 1,
        isPrecomputed,
        tables: {
          urls: [page('/a'), page('/b'), page('/c'), page('/gone', 404)],
          search_console: [gsc('/a', '2025-01-05', 10, 100), gsc('/b', '2025-01-05', 1, 10)],
          search_console_queries: [
            // /a: "boots" and "walking boots" tie on clicks; "walking boots" has more impressions.
            q('/a', 'boots', '2025-01-05', 3, 40),
            q('/a', 'boots', '2025-01-06', 2, 10),
            q('/a', 'walking boots', '2025-01-05', 5, 60),
            // Outside the data range (2025-01-01..28): must not count.
            q('/a', 'old query', '2024-12-20', 500, 5000),
            q('/b', '  ', '2025-01-05', 1, 10),
          ],
        },
      });
      const db = await openDatabase();
      const registry = await openCrawlRegistry(dir, db);
      const engine = new ReportEngine(db, registry);
      const target = await engine.target(registry.crawls('tq')[0]!);
      stores.push({ engine, target, dir, close: () => (engine.dispose(), db.closeSync()) });
    }
  });
  afterAll(() => {
    for (const s of stores) {
      s.close();
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });

  const rows = (index: number, reportId: string, orderBy: RowsRequest['orderBy'] = []) => {
    const { engine, target } = stores[index]!;
    const request: RowsRequest = {
      report: report(reportId),
      current: target,
      dataDateRange: target.defaultRange,
      differenceType: 'all',
      showChecked: false,
      orderBy,
      limit: 50,
      offset: 0,
    };
    return engine.rows(request, { bypassCache: true }).then(rowsOf);
  };

  for (const [index, mode] of [
    [0, 'precomputed'],
    [1, 'live'],
  ] as const) {
    it(`names each URL's top query by clicks, then impressions, within the range (${mode})`, async () => {
      const byUrl = new Map((await rows(index, 'search-console/all')).map((r) => [r.url, r.gsc_top_query]));
      expect(Object.fromEntries(byUrl)).toEqual({ [u('/a')]: 'walking boots', [u('/b')]: null });
    });

    it(`sorts by the top query (${mode})`, async () => {
      const sorted = await rows(index, 'search-console/all', [{ id: 'gsc_top_query', desc: true }]);
      expect(sorted.map((r) => r.gsc_top_query)).toEqual(['walking boots', null]);
    });

    it(`gives rows of reports with an AI column their status code (${mode})`, async () => {
      const statuses = (await rows(index, 'meta/short-titles')).map((r) => [r.url, r.http_status_code]);
      expect(statuses).toContainEqual([u('/a'), 200]);
    });
  }
});
