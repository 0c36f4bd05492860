/**
 * The reports a crawl alone leaves unfed (analytics/*, search-console/*), fed the way staff feed them: the planted
 * site crawled by the real crawler and loaded, then its Search Console bulk export and GA4 landing page report
 * (helpers/planted-sources.ts) imported with the real importer, which refreshes the crawl; each report run through
 * the real engine holds its planted rows and none of its near misses (a row a day outside the data window, a URL
 * differing by a trailing slash or by case, a row without sessions).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../catalog/index.ts';
import { MANIFEST_FILE, manifestSchema } from '../../catalog/export-contract.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import { openDatabase, textOf } from '../db/duckdb.ts';
import type { CrawlTarget } from '../engine/compile.ts';
import { ReportEngine } from '../engine/engine.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { tableOf } from '../engine/result.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { importData, type ImportResult } from '../sources/import-data.ts';
import { CrawlRegistry } from '../store/registry.ts';
import { plantedSourceCases, SOURCE_FOLDER, writePlantedSources } from './helpers/planted-sources.ts';
import { PLANTED_WEBSITE, plantedCrawlOptions } from './helpers/planted-crawl.ts';
import { startPlantedSite, unfedReports, type PlantedSite } from './helpers/planted-site.ts';

const WEBSITE = PLANTED_WEBSITE;
const SOURCE_FED = /^(analytics|search-console)\//;

async function rowUrls(engine: ReportEngine, report: ReportDefinition, target: CrawlTarget): Promise<string[]> {
  const result = await engine.rows({
    report,
    current: target,
    dataDateRange: target.defaultRange,
    differenceType: 'all',
    userFilter: SOURCE_FOLDER,
    showChecked: true,
    orderBy: [],
    limit: 1000,
    offset: 0,
  });
  return [...(tableOf(result.columns).getChild(shapeOf(report).urlColumn) ?? [])].map(textOf);
}

describe('the planted site with its vendor files imported', () => {
  let site: PlantedSite;
  let workDir: string;
  let db: DuckDBInstance;
  let engine: ReportEngine;
  let target: CrawlTarget;
  const imported: ImportResult[] = [];

  beforeAll(async () => {
    site = await startPlantedSite();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-planted-sources-'));
    const outDir = path.join(workDir, 'export');
    const dataDir = path.join(workDir, 'data');
    await crawlWebsite(plantedCrawlOptions(site.origin, outDir, 0));
    await loadCrawl({ dataDir, exportDir: outDir });
    const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')));
    const files = writePlantedSources(path.join(workDir, 'vendor'), site.origin, manifest);
    for (const source of ['search-console', 'analytics'] as const)
      imported.push(await importData({ dataDir, websiteId: WEBSITE, source, files: [files[source]], by: 'test' }));
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

  it('imports both files and refreshes the crawl', () => {
    expect(imported.map((r) => [r.source, r.refreshedCrawlIds, r.refreshFailure])).toEqual([
      ['search-console', [1], null],
      ['analytics', [1], null],
    ]);
  });

  it('plants a case for each report the crawl alone leaves unfed', () => {
    const sourceFed = Object.keys(unfedReports).filter((id) => SOURCE_FED.test(id));
    expect(Object.keys(plantedSourceCases(site.origin)).sort()).toEqual(sourceFed.sort());
    expect(sourceFed.length).toBe(6);
  });

  const fed = reports.filter((r) => SOURCE_FED.test(r.id) && r.id in unfedReports);
  it.each(fed.map((r) => [r.id, r] as const))('%s', async (id, report) => {
    const found = await rowUrls(engine, report, target);
    const planted = plantedSourceCases(site.origin)[id]!;
    for (const url of planted.fires) expect(found, `${id}: ${url} fires`).toContain(url);
    for (const url of planted.nearMiss) expect(found, `${id}: ${url} is a near miss`).not.toContain(url);
  });
});
