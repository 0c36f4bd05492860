/**
 * Test helper: a real crawl (crawlWebsite) into a temp export, loaded with the real loader into a temp DATA_DIR, and
 * the real report engine opened on it, so a test can read any report's rows as the dashboard would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { catalog } from '../../../catalog/index.ts';
import type { CrawlOptions, CrawlResult } from '../../crawl/crawl-options.ts';
import { crawlWebsite } from '../../crawl/crawl.ts';
import { openDatabase } from '../../db/duckdb.ts';
import type { CrawlTarget, RowsRequest } from '../../engine/compile.ts';
import { ReportEngine } from '../../engine/engine.ts';
import { rowsOf } from '../../engine/result.ts';
import { loadCrawl } from '../../load/load-crawl.ts';
import { openCrawlRegistry } from '../../source-data/mid-refresh.ts';

const PAGE_SIZE = 1000;

export interface CrawledSite {
  crawl: CrawlResult;
  /** The DATA_DIR the crawl is loaded into, for a test that opens the app on it. */
  dataDir: string;
  db: DuckDBInstance;
  engine: ReportEngine;
  target: CrawlTarget;
  /** Every row of a report (optionally narrowed by the 'URLs containing' filter), page by page. */
  reportRows(reportId: string, userFilter?: string): Promise<Record<string, unknown>[]>;
  /** Closes the engine and database and removes the export and DATA_DIR. */
  dispose(): void;
}

export async function crawlAndLoad(options: Omit<CrawlOptions, 'outDir'>): Promise<CrawledSite> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `thc-crawl-${options.websiteId}-`));
  const dataDir = path.join(workDir, 'data');
  const exportDir = path.join(workDir, 'export');
  const crawl = await crawlWebsite({ ...options, outDir: exportDir });
  await loadCrawl({ dataDir, exportDir });
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  const engine = new ReportEngine(db, registry);
  const target = await engine.target(registry.crawls(options.websiteId)[0]!);

  async function reportRows(reportId: string, userFilter?: string): Promise<Record<string, unknown>[]> {
    const report = catalog.reports.find((r) => r.id === reportId);
    if (!report) throw new Error(`no report ${reportId}`);
    const request: RowsRequest = {
      report,
      current: target,
      dataDateRange: target.defaultRange,
      differenceType: 'all',
      userFilter,
      showChecked: true,
      orderBy: [],
      limit: PAGE_SIZE,
      offset: 0,
    };
    const rows: Record<string, unknown>[] = [];
    for (;;) {
      const result = await engine.rows({ ...request, offset: rows.length });
      rows.push(...rowsOf(result));
      if (rows.length >= result.total || result.numRows === 0) return rows;
    }
  }

  return {
    crawl,
    dataDir,
    db,
    engine,
    target,
    reportRows,
    dispose() {
      engine.dispose();
      db.closeSync();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
