/** A website of the browser tests whose crawls came without marketing data, and the vendor files to import into it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MANIFEST_FILE } from '../../catalog/export-contract.ts';
import { generateSite } from '../../scripts/fixtures/generate.ts';
import { loadCrawl } from '../../service/load/load-crawl.ts';
import { expect, type Page } from '@playwright/test';
import { adminCommands, api, logins, websites } from './helpers.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');
export const PERFORMANCE_CSVS = ['Pages.csv', 'Dates.csv', 'Filters.csv', 'Devices.csv'].map((f) =>
  path.join(repoDir, 'fixtures/sources/search-console/performance', f),
);
export const BULK_CSV = path.join(repoDir, 'fixtures/sources/search-console/bulk/searchdata_url_impression.csv');
const SOURCE_TABLES = ['search_console', 'search_console_queries', 'analytics', 'ads_one', 'ads_two', 'trends'];

/**
 * Two crawls of Alpine's profile (200 URLs, the fixtures' URLs among them) under `websiteId`, loaded into the running
 * service's store without any source table, the website added and the demo staff bound to it.
 */
export async function addSiteWithoutSources(baseURL: string, websiteId: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'thc-e2e-data');
  if (!fs.existsSync(path.join(dataDir, 'store', websiteId))) {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-sources-'));
    try {
      const { crawlDirs } = await generateSite({ outDir, site: websites.alpine.id, urls: 200, crawls: 2 });
      for (const dir of crawlDirs) {
        for (const table of [...SOURCE_TABLES, 'keyword_planner']) fs.rmSync(path.join(dir, `${table}.parquet`));
        const file = path.join(dir, MANIFEST_FILE);
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(file, JSON.stringify({ ...manifest, websiteId }));
        await loadCrawl({ dataDir, exportDir: dir });
      }
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  }
  await adminCommands(baseURL, [
    { command: 'website add', id: websiteId, name: 'E2E Alpine Without Sources', domain: 'www.alpine-travel.eu' },
    { command: 'user bind', email: logins.staff.email, websites: [websiteId] },
  ]);
}

/**
 * Waits until the website has no import job running. The card's progress can be absent for a moment between the
 * upload's answer and the refresh job's first poll, and a second upload meanwhile is refused as running (409).
 */
export async function waitForImportJobs(page: Page, websiteId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await api<{ jobs: { status: string }[] }>(page, '/api/data-sources/list', { websiteId })).jobs.every(
          (job) => job.status !== 'running',
        ),
      { timeout: 120_000 },
    )
    .toBe(true);
}
