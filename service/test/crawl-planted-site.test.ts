/**
 * Every crawl-fed report fed by a real crawl, not by generated rows: the planted-defect site (helpers/planted-site.ts)
 * crawled by the real crawler with rendering, loaded
 * by the real loader into a temp DATA_DIR, and every crawl-fed report run through the real engine: each planted
 * defect is in its report's rows and each near miss is not. Reports no crawl can feed are listed with their reason
 * in helpers/planted-site.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../catalog/index.ts';
import type { CrawlResult } from '../crawl/crawl-options.ts';
import type { CrawlTarget } from '../engine/compile.ts';
import type { ReportEngine } from '../engine/engine.ts';
import { reportRowUrls } from './helpers/report-rows.ts';
import { openPlantedReports, type PlantedReports } from './helpers/planted-crawl.ts';
import { unfedReports, type PlantedSite } from './helpers/planted-site.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';

describe('the planted-defect site, crawled, loaded and reported', () => {
  let planted: PlantedReports;
  let site: PlantedSite;
  let crawl: CrawlResult;
  let engine: ReportEngine;
  let target: CrawlTarget;

  beforeAll(async () => {
    ensureDebianPackages([debianPackages.chromium]);
    planted = await openPlantedReports({ tempPrefix: 'thc-planted-', render: 1000 });
    ({ site, crawl, engine, target } = planted);
  }, 300_000);

  afterAll(() => planted?.close());

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
