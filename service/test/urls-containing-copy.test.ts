/**
 * 'URLs containing' on a row table stored in the at-stake order scans the table's key-ordered copy of `_lc` when it
 * has one (stakes.ts lowerUrlTableOf; written at load only beside large tables, here beside every table with rows).
 * Two stores of the same sample crawls, one with the copies and one without, give the same rows, totals and order
 * for every report, tab, order and page.
 */
import fs from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { openDatabase, textOf } from '../db/duckdb.ts';
import { compileRows, type CrawlTarget, type DifferenceType, type RowsRequest } from '../engine/compile.ts';
import { ReportEngine } from '../engine/engine.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { rowsOf } from '../engine/result.ts';
import { lowerUrlTableOf } from '../engine/stakes.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';
import { listLiveCrawls } from '../store/layout.ts';
import { makeTempDataDir, writeCrawlToStore } from './helpers/make-store.ts';
import { SITE, sampleCrawls } from './helpers/sample-crawls.ts';

interface Store {
  dataDir: string;
  db: DuckDBInstance;
  engine: ReportEngine;
  crawls: Map<number, CrawlTarget>;
}

/** The copies of `_lc` the precompute wrote in each crawl database. */
async function copiesIn(dataDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const crawl of listLiveCrawls(dataDir)) {
    const db = await openDatabase(crawl.dbFile);
    const conn = await db.connect();
    try {
      const reader = await conn.runAndReadAll(
        `SELECT table_name FROM duckdb_tables() WHERE ends_with(table_name, '_lc')`,
      );
      written.push(...reader.getRowsJS().map((r) => textOf(r[0])));
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }
  return written;
}

async function openStore(withCopies: boolean): Promise<Store & { copies: string[] }> {
  const dataDir = makeTempDataDir();
  // Beside every row table with rows, as the load writes them beside large ones only.
  for (const crawl of sampleCrawls())
    await writeCrawlToStore(dataDir, crawl, withCopies ? { lowerUrlCopyMinRows: 1 } : {});
  const copies = await copiesIn(dataDir);
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  const engine = new ReportEngine(db, registry);
  const crawls = new Map<number, CrawlTarget>();
  for (const record of registry.crawls(SITE)) crawls.set(record.crawlId, await engine.target(record));
  return { dataDir, db, engine, crawls, copies };
}

const close = (store: Store | undefined) => {
  store?.engine.dispose();
  store?.db.closeSync();
  if (store) fs.rmSync(store.dataDir, { recursive: true, force: true });
};

let plain: Store;
let copied: Store & { copies: string[] };
beforeAll(async () => {
  plain = await openStore(false);
  copied = await openStore(true);
}, 120_000);
afterAll(() => {
  close(plain);
  close(copied);
});

function request(store: Store, reportId: string, tab: DifferenceType, extra: Partial<RowsRequest>): RowsRequest {
  const current = store.crawls.get(2)!;
  return {
    report: catalog.reports.find((r) => r.id === reportId)!,
    current,
    comparison: store.crawls.get(1),
    dataDateRange: current.defaultRange,
    differenceType: tab,
    showChecked: false,
    orderBy: [],
    limit: 10,
    offset: 0,
    ...extra,
  };
}

describe("'URLs containing' over the key-ordered copy of _lc", () => {
  it('gives the rows, totals and order of the scan of the row table', async () => {
    expect(copied.crawls.get(2)!.stakeOrder).toEqual({ visits: 'sessions', isStored: true });
    expect(copied.copies.length).toBeGreaterThan(10);
    const pages = [
      { offset: 0, limit: 10 },
      { offset: 1, limit: 10 },
      { offset: 5, limit: 10 },
    ];
    let compared = 0;
    let readCopy = 0;
    for (const report of catalog.reports) {
      const shape = shapeOf(report);
      const orders: Partial<RowsRequest>[] = [
        { stakeOrder: copied.crawls.get(2)!.stakeOrder },
        {},
        { orderBy: [{ id: shape.urlColumn, desc: true }] },
      ];
      for (const tab of ['all', 'removed'] as const) {
        const table = tab === 'all' ? shape.rowTable : shape.removedTable;
        const hasCopy = copied.crawls.get(2)!.tables.has(lowerUrlTableOf(table));
        if (!hasCopy) continue;
        for (const userFilter of ['SHOP.example/', '/d', 'no-such-url'])
          for (const order of orders)
            for (const page of pages) {
              const extra = { userFilter, ...order, ...page };
              const of = async (store: Store) => {
                const req = request(store, report.id, tab, extra);
                const result = await store.engine.rows(req, { bypassCache: true });
                return { total: result.total, rows: rowsOf(result), count: await store.engine.count(req) };
              };
              const label = JSON.stringify([report.id, tab, extra]);
              const expected = await of(plain);
              expect(await of(copied), label).toEqual(expected);
              expect(expected.count, label).toBe(expected.total);
              const compiled = compileRows(request(copied, report.id, tab, extra));
              const sql = `${compiled.count?.sql ?? ''} ${compiled.combined?.sql ?? ''}`;
              if (sql.includes(`"${lowerUrlTableOf(table)}"`)) readCopy++;
              if (expected.total > 0) compared++;
            }
      }
    }
    // The near miss: without matching rows, or without the copy being read, the comparison would prove nothing.
    expect(compared).toBeGreaterThan(50);
    expect(readCopy).toBeGreaterThan(50);
  }, 120_000);
});
