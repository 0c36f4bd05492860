/**
 * Comparable or not (issue 30 §4), end to end: crawls whose manifests record the settings they were run with, loaded
 * by the real loader; the overview and the report summary say which settings differ between the crawl and its
 * comparison, and which of them is partial; crawls run with the same settings (the near miss) or without recorded
 * settings say nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview, ReportSummary } from '../../catalog/api.ts';
import { MANIFEST_FILE, type RecordedSettings } from '../../catalog/export-contract.ts';
import { copyOfGeneratedSite } from './helpers/demo-fixtures.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';

const SITE = 'alpine-travel';
const BASE = '/api/technical-health-check';
const SETTINGS: RecordedSettings = {
  startUrl: 'https://alpine-travel.eu/',
  includeSubdomains: false,
  include: [],
  exclude: ['\\?print'],
  sitemaps: [],
  checkExternal: true,
  maxUrls: 100_000,
  maxDepth: 100,
  timeLimitHours: 6,
  respectRobots: true,
  render: 0,
  userAgent: 'THC/1.0',
};
/**
 * Crawl 1 and 2 alike; crawl 3 with a lower limit, robots.txt ignored and another user agent; crawl 4 partial and
 * without recorded settings, as exports from before the crawler recorded them.
 */
const MANIFESTS: Record<number, object> = {
  1: { settings: SETTINGS },
  2: { settings: SETTINGS },
  3: { settings: { ...SETTINGS, maxUrls: 500, respectRobots: false, userAgent: 'Other/2.0' } },
  4: { partialReason: 'max-urls' },
};

let signedIn: SignedInApp<'admin'>;

beforeAll(async () => {
  const dataDir = tempDir('thc-comparable-data-');
  const { crawlDirs } = await copyOfGeneratedSite({
    outDir: tempDir('thc-comparable-exports-'),
    site: SITE,
    urls: 200,
    crawls: 4,
  });
  for (const dir of crawlDirs) {
    const file = path.join(dir, MANIFEST_FILE);
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { crawlId: number };
    fs.writeFileSync(file, JSON.stringify({ ...manifest, ...MANIFESTS[manifest.crawlId] }));
    await loadCrawl({ dataDir, exportDir: dir });
  }
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
}, 600_000);

afterAll(() => signedIn?.close());

async function overview(currentId: number, comparisonId: number): Promise<Overview> {
  const body = { websiteId: SITE, currentId, comparisonId };
  const response = await post(signedIn.app, `${BASE}/overview/get-overview`, signedIn.sessions.admin, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Overview>();
}

async function summary(currentId: number, comparisonId: number): Promise<ReportSummary> {
  const body = {
    websiteId: SITE,
    currentId,
    comparisonId,
    reportId: 'crawl/all',
    tableId: 'urls',
    differenceType: 'all',
  };
  const response = await post(signedIn.app, `${BASE}/report/get-summary`, signedIn.sessions.admin, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReportSummary>();
}

describe('comparable or not', () => {
  it('says nothing of crawls run with the same settings', async () => {
    expect(await overview(2, 1)).not.toHaveProperty('comparability');
    expect(await summary(2, 1)).not.toHaveProperty('comparability');
  }, 120_000);

  it('lists the settings that differ, in the overview and the summary', async () => {
    const expected = {
      differences: [
        { setting: 'maxUrls', title: 'Max URLs', current: '500', comparison: '100,000' },
        { setting: 'respectRobots', title: 'robots.txt', current: 'ignored', comparison: 'respected' },
        { setting: 'userAgent', title: 'User agent', current: 'Other/2.0', comparison: 'THC/1.0' },
      ],
      partial: { current: null, comparison: null },
    };
    expect((await overview(3, 2)).comparability).toEqual(expected);
    expect((await summary(3, 2)).comparability).toEqual(expected);
  }, 120_000);

  it('says which crawl is partial; settings a crawl did not record are no difference', async () => {
    expect((await overview(4, 3)).comparability).toEqual({
      differences: [],
      partial: { current: 'max-urls', comparison: null },
    });
    expect((await summary(4, 1)).comparability).toEqual({
      differences: [],
      partial: { current: 'max-urls', comparison: null },
    });
    expect((await overview(3, 1)).comparability?.differences.map((d) => d.setting)).toEqual([
      'maxUrls',
      'respectRobots',
      'userAgent',
    ]);
  }, 120_000);
});
