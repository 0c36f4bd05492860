import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { crawlWebsite } from '../../crawl/crawl.ts';
import type { CrawlOptions, CrawlResult } from '../../crawl/crawl-options.ts';
import { openDatabase } from '../../db/duckdb.ts';
import type { CrawlTarget } from '../../engine/compile.ts';
import { ReportEngine } from '../../engine/engine.ts';
import { loadCrawl } from '../../load/load-crawl.ts';
import { startPlantedSite, type PlantedSite } from './planted-site.ts';
import { openCrawlRegistry } from '../../source-data/mid-refresh.ts';

export const PLANTED_WEBSITE = 'planted';

/** How the tests crawl the planted site (helpers/planted-site.ts): all of it, as fast as it answers. */
export const plantedCrawlOptions = (origin: string, outDir: string, render: number): CrawlOptions => ({
  startUrl: `${origin}/`,
  outDir,
  websiteId: PLANTED_WEBSITE,
  crawlId: 1,
  maxUrls: 10_000,
  maxDepth: 100,
  concurrency: 8,
  delayMs: 0,
  userAgent: 'thc-planted-test',
  respectRobots: true,
  includeSubdomains: false,
  include: [],
  exclude: [],
  sitemaps: [],
  render,
});

/** The planted site crawled into a temp dir, loaded, and its crawl open in a real report engine. */
export interface PlantedReports {
  site: PlantedSite;
  workDir: string;
  /** The crawl export (manifest and Parquet) the loader read. */
  exportDir: string;
  dataDir: string;
  crawl: CrawlResult;
  engine: ReportEngine;
  target: CrawlTarget;
  close: () => Promise<void>;
}

/**
 * Serves the planted site, crawls it (rendering `render` pages), loads the crawl into a fresh DATA_DIR, runs
 * `afterLoad` (e.g. an import into that DATA_DIR), and opens the crawl in a report engine. What it made is closed
 * again by `close()`, or at once when a step fails.
 */
export async function openPlantedReports(options: {
  tempPrefix: string;
  render: number;
  afterLoad?: (planted: Pick<PlantedReports, 'site' | 'workDir' | 'exportDir' | 'dataDir'>) => Promise<void>;
}): Promise<PlantedReports> {
  let site: PlantedSite | undefined;
  let workDir: string | undefined;
  let db: DuckDBInstance | undefined;
  let engine: ReportEngine | undefined;
  const close = async () => {
    engine?.dispose();
    db?.closeSync();
    await site?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    site = await startPlantedSite();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), options.tempPrefix));
    const exportDir = path.join(workDir, 'export');
    const dataDir = path.join(workDir, 'data');
    const crawl = await crawlWebsite(plantedCrawlOptions(site.origin, exportDir, options.render));
    await loadCrawl({ dataDir, exportDir });
    await options.afterLoad?.({ site, workDir, exportDir, dataDir });
    db = await openDatabase();
    const registry = await openCrawlRegistry(dataDir, db);
    engine = new ReportEngine(db, registry);
    const target = await engine.target(registry.crawls(PLANTED_WEBSITE)[0]!);
    return { site, workDir, exportDir, dataDir, crawl, engine, target, close };
  } catch (error) {
    await close();
    throw error;
  }
}
