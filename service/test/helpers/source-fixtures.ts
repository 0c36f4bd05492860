/** The vendor files of fixtures/sources and a generated site's crawls loaded without their marketing tables. */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Overview, OverviewReport } from '../../../catalog/api.ts';
import { loadCrawl } from '../../load/load-crawl.ts';
import { post, type SignedInApp } from '../auth-fixture.ts';
import { copyOfGeneratedSite } from './demo-fixtures.ts';
import { cachedFixture } from './fixture-cache.ts';

export const REPO = path.resolve(import.meta.dirname, '../../..');
export const FIXTURES = path.join(REPO, 'fixtures/sources');
/** The generated site the fixtures' URLs belong to. */
export const SITE = 'alpine-travel';
const SOURCE_TABLES = [
  'search_console',
  'search_console_queries',
  'analytics',
  'ads_one',
  'ads_two',
  'trends',
  'keyword_planner',
];
export const PERFORMANCE_CSVS = ['Pages.csv', 'Dates.csv', 'Filters.csv', 'Devices.csv'].map((f) =>
  path.join(FIXTURES, 'search-console/performance', f),
);
export const BULK_CSV = path.join(FIXTURES, 'search-console/bulk/searchdata_url_impression.csv');

/**
 * Two crawls of SITE (200 URLs) loaded into `dataDir` with no source table, their exports in `exportsDir`: every source
 * starts not connected. Six test files start so; the crawls are generated and loaded once (fixture-cache.ts) and
 * copied into each file's own directories.
 */
export async function loadSiteWithoutSources(exportsDir: string, dataDir: string): Promise<void> {
  const entry = await cachedFixture('site-without-sources', { site: SITE }, async (scratch) => {
    const site = { outDir: path.join(scratch, 'exports'), site: SITE, urls: 200, crawls: 2 };
    for (const dir of (await copyOfGeneratedSite(site)).crawlDirs) {
      for (const table of SOURCE_TABLES) fs.rmSync(path.join(dir, `${table}.parquet`), { force: true });
      await loadCrawl({ dataDir: path.join(scratch, 'data'), exportDir: dir });
    }
  });
  fs.cpSync(path.join(entry, 'exports'), exportsDir, { recursive: true });
  fs.cpSync(path.join(entry, 'data'), dataDir, { recursive: true });
}

/** Every report of SITE's overview of a crawl, asked for with refresh (the store changed under the app). */
export async function overviewReports(signedIn: SignedInApp<'admin'>, crawlId: number): Promise<OverviewReport[]> {
  const res = await post(signedIn.app, '/api/technical-health-check/overview/get-overview', signedIn.sessions.admin, {
    websiteId: SITE,
    currentId: crawlId,
    refresh: true,
  });
  expect(res.statusCode).toBe(200);
  return Object.values(res.json<Overview>().severityMap).flatMap((s) => s?.reports ?? []);
}
