import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { makeTempDataDir, writeCrawlToStore } from '../test/helpers/make-store.ts';
import { sampleCrawls } from '../test/helpers/sample-crawls.ts';
import { openSampleStore, report, type SampleStore } from '../test/helpers/sample-store.ts';
import { query } from './execute.ts';
import { emsRank } from './precompute.ts';
import { shapeOf } from './report-shape.ts';
import { KEY_ORDINAL_COLUMN } from './stakes.ts';
import { REPORT_COUNTS_TABLE } from './stored-precompute.ts';

const u = (p: string): string => `https://shop.example${p}`;
import { raw } from './sql.ts';

describe('emsRank (guide §3)', () => {
  it('gives the worked examples', () => {
    expect(emsRank('CRITICAL', 2, 100)).toBe(57);
    expect(emsRank('HIGH', 10, 100)).toBe(46);
    expect(emsRank('MEDIUM', 50, 100)).toBe(55);
    expect(emsRank('LOW', 100, 100)).toBe(49);
  });

  it('is 0 without rows or for NONE, and clamps the share at 1', () => {
    expect(emsRank('CRITICAL', 0, 100)).toBe(0);
    expect(emsRank('NONE', 50, 100)).toBe(0);
    expect(emsRank('HIGH', 300, 100)).toBe(90);
    expect(emsRank('LOW', 5, 0)).toBe(49);
    // A single critical row already reaches the orange band.
    expect(emsRank('CRITICAL', 1, 1_000_000)).toBe(50);
    expect(emsRank('CRITICAL', 1, 13)).toBe(64);
  });
});

describe('precomputeCrawl', () => {
  let store: SampleStore;
  beforeAll(async () => {
    store = await openSampleStore();
  });
  afterAll(() => store.close());

  const counts = (crawlId: number, reportId: string) => store.crawls.get(crawlId)!.precomputed.get(reportId);

  it('stores a row per report with counts, base, rank and the diff against the previous crawl', () => {
    expect(counts(2, 'status-code/4xx')).toMatchObject({
      rowCount: 1,
      base: 13,
      emsRank: 64,
      added: 0,
      removed: 1,
      previousCrawlId: 1,
      previousDataId: 'load-1',
    });
    expect(counts(2, 'status-code/5xx')).toMatchObject({ rowCount: 1, added: 1, removed: 0 });
    expect(counts(3, 'status-code/5xx')).toMatchObject({ rowCount: 2, added: 1, removed: 0, previousCrawlId: 2 });
    expect(counts(1, 'status-code/4xx')).toMatchObject({ rowCount: 2, added: null, removed: null });
    expect(counts(1, 'status-code/4xx')?.previousCrawlId).toBeNull();
  });

  it('counts the row that fires and not the near miss', () => {
    // /b has 100 bytes; /b-near has exactly 512, the threshold, and is thin instead.
    expect(counts(2, 'content/empty')?.rowCount).toBe(1);
    expect(counts(2, 'content/thin')?.rowCount).toBe(4);
    // 403 is excluded from broken links.
    expect(counts(2, 'links/internal-broken')?.rowCount).toBe(3);
    expect(counts(2, 'links/external-broken')?.rowCount).toBe(1);
    expect(counts(2, 'sitemap/orphaned')?.rowCount).toBe(1);
    expect(counts(2, 'links/internal-disallowed')?.rowCount).toBe(1);
    expect(counts(2, 'links/internal-http')?.rowCount).toBe(1);
  });

  it('uses the internal scope as the base and gives NONE reports rank 0', () => {
    expect(counts(2, 'crawl/all')).toMatchObject({ rowCount: 14, base: 14, emsRank: 0 });
    expect(counts(2, 'internal/all')).toMatchObject({ rowCount: 13, base: 13, emsRank: 0 });
    expect(counts(2, 'links/internal-broken')?.base).toBe(7);
    expect(counts(2, 'sitemap/sitemaps')).toMatchObject({ rowCount: 2, base: 2 });
  });

  it('evaluates metric filters over the crawl default date range', () => {
    // Search console has / and /c inside 2025-01-01..2025-01-28, and /d only before it.
    expect(counts(2, 'search-console/all')?.rowCount).toBe(2);
    expect(counts(2, 'analytics/all')?.rowCount).toBe(2);
  });

  it('stores current rows and removed rows in key order, flagging the added ones', async () => {
    const alias = store.registry.crawl('shop', 3)!.alias;
    const read = (table: string) =>
      withConnection(store.db, (conn) =>
        query(conn, raw(`SELECT rowid, "_added", "url", "_lc" FROM "${alias}"."${table}" ORDER BY rowid`)),
      );
    expect((await read('rr_status_code__5xx')).values).toEqual([
      [0, 1],
      [false, true],
      [u('/e'), u('/f')],
      [u('/e'), u('/f')],
    ]);
    expect((await read('rm_status_code__5xx')).values).toEqual([[], [], [], []]);
    const removed = await withConnection(store.db, (conn) =>
      query(
        conn,
        raw(`SELECT "url", "http_status_code" FROM "${store.registry.crawl('shop', 2)!.alias}"."rm_status_code__4xx"`),
      ),
    );
    expect(removed.values).toEqual([[u('/old')], [410]]);
  });

  it('numbers the rows of tables stored in the at-stake order in key order', async () => {
    const alias = store.registry.crawl('shop', 2)!.alias;
    const ko = KEY_ORDINAL_COLUMN;
    let rows = 0;
    let outOfKeyOrder = 0;
    for (const shape of catalog.reports.map(shapeOf))
      for (const table of [shape.rowTable, shape.removedTable]) {
        const keys = shape.keyColumns.map((k) => `"${k}"`).join(', ');
        // Each row's key ordinal against its place in key order, and whether it sits elsewhere in the stored order.
        const result = await withConnection(store.db, (conn) =>
          query(
            conn,
            raw(`SELECT count(*), count(*) FILTER (WHERE "${ko}" IS DISTINCT FROM "k"), count(*) FILTER (WHERE rowid <> "k")
              FROM (SELECT rowid, "${ko}", row_number() OVER (ORDER BY ${keys}) - 1 AS "k" FROM "${alias}"."${table}")`),
          ),
        );
        const [n, wrong, moved] = result.values.map((v) => Number(v[0]));
        expect([table, wrong]).toEqual([table, 0]);
        rows += n!;
        outOfKeyOrder += moved!;
      }
    // The near miss: rows the stakes moved out of key order, whose rowid is not their key ordinal.
    expect(rows).toBeGreaterThan(50);
    expect(outOfKeyOrder).toBeGreaterThan(0);
  });

  it('diffs against the previous crawl live when its rows were computed from another definition', async () => {
    const dataDir = makeTempDataDir();
    try {
      const [first, second] = sampleCrawls();
      await writeCrawlToStore(dataDir, first!);
      const changed: ReportDefinition = {
        ...report('status-code/4xx'),
        filter: 'http_status_code BETWEEN 400 AND 599',
      };
      const live = await writeCrawlToStore(dataDir, second!, { reports: [changed] });
      const db = await openDatabase(live.dbFile, { readOnly: true });
      try {
        const result = await withConnection(db, (conn) =>
          query(conn, raw(`SELECT row_count, added_count, removed_count FROM ${REPORT_COUNTS_TABLE}`)),
        );
        // Crawl 1 has /a and /old in 4xx-5xx, crawl 2 has /a and /e.
        expect(result.values.map((v) => v[0])).toEqual([2, 1, 1]);
      } finally {
        db.closeSync();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
