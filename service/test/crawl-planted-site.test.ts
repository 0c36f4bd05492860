/**
 * Every crawl-fed report fed by a real crawl, not by generated rows: the planted-defect site (helpers/planted-site.ts)
 * crawled by the real crawler with rendering, loaded
 * by the real loader into a temp DATA_DIR, and every crawl-fed report run through the real engine: each planted
 * defect is in its report's rows and each near miss is not. Reports no crawl can feed are listed with their reason
 * in helpers/planted-site.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../catalog/index.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import type { CrawlResult } from '../crawl/crawl-options.ts';
import { openDatabase } from '../db/duckdb.ts';
import type { CrawlTarget } from '../engine/compile.ts';
import { ReportEngine } from '../engine/engine.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { CrawlRegistry } from '../store/registry.ts';
import { reportRowUrls } from './helpers/report-rows.ts';
import { PLANTED_WEBSITE, plantedCrawlOptions } from './helpers/planted-crawl.ts';
import { startPlantedSite, unfedReports, type PlantedSite } from './helpers/planted-site.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';

const WEBSITE = PLANTED_WEBSITE;

describe('the planted-defect site, crawled, loaded and reported', () => {
  let site: PlantedSite;
  let workDir: string;
  let crawl: CrawlResult;
  let db: DuckDBInstance;
  let engine: ReportEngine;
  let target: CrawlTarget;

  beforeAll(async () => {
    ensureDebianPackages([debianPackages.chromium]);
    site = await startPlantedSite();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-planted-'));
    const outDir = path.join(workDir, 'export');
    const dataDir = path.join(workDir, 'data');
    crawl = await crawlWebsite(plantedCrawlOptions(site.origin, outDir, 1000));
    await loadCrawl({ dataDir, exportDir: outDir });
    db = await openDatabase();
    const registry = await CrawlRegistry.open(dataDir, db);
    engine = new ReportEngine(db, registry);
    target = await engine.target(registry.crawls(WEBSITE)[0]!);
  }, 300_000);

  afterAll(async () => {
    engine?.dispose();
    db?.closeSync();
    await site?.close();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('plants a case for every report a crawl can feed, and names the reason for the others', () => {
    const fed = Object.keys(site.cases).sort();
    const unfed = Object.keys(unfedReports).sort();
    expect(fed.filter((id) => unfed.includes(id))).toEqual([]);
    expect([...fed, ...unfed].sort()).toEqual(reports.map((r) => r.id).sort());
    for (const { fires, nearMiss } of Object.values(site.cases)) {
      expect(fires.length).toBeGreaterThan(0);
      expect(nearMiss.length).toBeGreaterThan(0);
    }
  });

  it('crawled the whole site and stopped by itself', () => {
    expect(crawl.stoppedEarly).toBe(false);
    expect(crawl.fetched).toBeGreaterThan(site.paths.length / 2);
  });

  const fedReports = reports.filter((r) => !(r.id in unfedReports));
  it.each(fedReports.map((r) => [r.id, r] as const))('%s', async (id, report) => {
    const found = await reportRowUrls(engine, report, target);
    const planted = site.cases[id];
    expect(planted, `${id} has a planted case`).toBeDefined();
    for (const url of planted?.fires ?? []) expect(found, `${id}: ${url} fires`).toContain(url);
    for (const url of planted?.nearMiss ?? []) expect(found, `${id}: ${url} is a near miss`).not.toContain(url);
  });
});
