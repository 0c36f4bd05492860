/** The vendor files of fixtures/sources and a generated site's crawls loaded without their marketing tables. */
import fs from 'node:fs';
import path from 'node:path';
import { generateSite } from '../../../scripts/fixtures/generate.ts';
import { loadCrawl } from '../../load/load-crawl.ts';

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

/** Two crawls of SITE (200 URLs) loaded into `dataDir` with no source table: every source starts not connected. */
export async function loadSiteWithoutSources(exportsDir: string, dataDir: string): Promise<void> {
  const { crawlDirs } = await generateSite({ outDir: exportsDir, site: SITE, urls: 200, crawls: 2 });
  for (const dir of crawlDirs) {
    for (const table of SOURCE_TABLES) fs.rmSync(path.join(dir, `${table}.parquet`), { force: true });
    await loadCrawl({ dataDir, exportDir: dir });
  }
}
