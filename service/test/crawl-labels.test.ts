/**
 * Crawls told apart and partial crawls kept out of the default comparison (issue 28 §2), through the whole app:
 * three crawls on one day, one of them stopped early, beside a crawl a week before.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Crawl, ReportSummary } from '../../catalog/api.ts';
import { noRemovals } from '../../catalog/removal-reasons.ts';
import { openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';
import { writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';

const SITE = 'shop';
const BASE = '/api/technical-health-check';
const page = (p: string): FixtureRow => ({
  url: `https://shop.example${p}`,
  http_status_code: 200,
  indexable: true,
  internal: true,
  found_in_web_crawl: true,
  html_size: 20_000,
});
const full = ['/', '/a', '/b', '/c', '/d', '/e'].map(page);
// Stopped after two pages: a comparison with it would count four pages as added.
const partial = full.slice(0, 2);

let signedIn: SignedInApp<'staff' | 'client'> | undefined;
let app: FastifyInstance;
let staff: Session;
let client: Session;

beforeAll(async () => {
  const dataDir = tempDir('thc-labels-');
  const crawls = [
    { crawlId: 1, crawledAt: '2026-11-18T06:00:00Z', urls: full },
    { crawlId: 2, crawledAt: '2026-11-25T06:00:00Z', urls: full },
    { crawlId: 3, crawledAt: '2026-11-25T09:41:00Z', urls: partial, partialReason: 'stopped' as const },
    { crawlId: 4, crawledAt: '2026-11-25T14:05:00Z', urls: full, moduleState: 'PENDING' as const },
  ];
  for (const { urls, ...crawl } of crawls)
    await writeCrawlToStore(dataDir, { websiteId: SITE, ...crawl, tables: { urls } });
  signedIn = await openSignedInApp(dataDir, '2026-11-26T09:00:00Z', ['staff', 'client']);
  ({ app } = signedIn);
  ({ staff, client } = signedIn.sessions);
});
afterAll(() => signedIn?.close());

const crawlsOf = async (session: Session): Promise<Crawl[]> =>
  (await post(app, `${BASE}/crawl/get-redux`, session, { websiteId: SITE })).json<Crawl[]>();

const summary = async (comparisonId?: number | null, reportId = 'crawl/all'): Promise<ReportSummary> => {
  const response = await post(app, `${BASE}/report/get-summary`, staff, {
    websiteId: SITE,
    currentId: 4,
    ...(comparisonId !== undefined && { comparisonId }),
    reportId,
    tableId: 'urls',
  });
  expect(response.statusCode).toBe(200);
  return response.json<ReportSummary>();
};

describe('crawl labels', () => {
  it('labels each crawl uniquely: the time only where a day holds several, the number always', async () => {
    const crawls = await crawlsOf(staff);
    expect(crawls.map((c) => [c.crawlId, c.label, c.partial])).toEqual([
      [4, '25 Nov 2026, 14:05 (crawl 4)', null],
      [3, '25 Nov 2026, 09:41 (crawl 3, partial)', 'stopped'],
      [2, '25 Nov 2026, 06:00 (crawl 2)', null],
      [1, '18 Nov 2026 (crawl 1)', null],
    ]);
  });

  it('gives a crawl the same label whoever looks, though a client sees fewer crawls of its day', async () => {
    const forStaff = new Map((await crawlsOf(staff)).map((c) => [c.crawlId, c.label]));
    const forClient = await crawlsOf(client);
    expect(forClient.map((c) => c.crawlId)).toEqual([3, 2, 1]);
    for (const c of forClient) expect(c.label).toBe(forStaff.get(c.crawlId));
  });

  it('labels the trend points as the dropdown does', async () => {
    // crawl/all has no chart; 4xx has.
    const { trends } = await summary(undefined, 'status-code/4xx');
    expect(trends.map((t) => t.label)).toEqual([
      '18 Nov 2026 (crawl 1)',
      '25 Nov 2026, 06:00 (crawl 2)',
      '25 Nov 2026, 09:41 (crawl 3, partial)',
      '25 Nov 2026, 14:05 (crawl 4)',
    ]);
  });

  it('names the crawl in the CSV file name', async () => {
    const response = await post(app, `${BASE}/report/export-csv`, staff, {
      websiteId: SITE,
      currentId: 3,
      reportId: 'crawl/all',
      tableId: 'urls',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="all_crawled_urls_25_nov_2026_0941_crawl_3_partial_\d{10}\.csv"/,
    );
  });
});

describe('the default comparison', () => {
  it('skips the partial crawl: Added/Removed are against the full crawl before it', async () => {
    expect((await summary()).differences).toEqual({ all: 6, added: 0, removed: 0, removedByReason: noRemovals() });
    expect((await summary(2)).differences).toEqual({ all: 6, added: 0, removed: 0, removedByReason: noRemovals() });
  });

  it('still compares with a partial crawl chosen, which counts what it missed as added', async () => {
    expect((await summary(3)).differences).toEqual({ all: 6, added: 4, removed: 0, removedByReason: noRemovals() });
  });

  it('is the same on the overview, and none when every older crawl is partial', async () => {
    const overview = async (currentId: number) =>
      (await post(app, `${BASE}/overview/get-overview`, staff, { websiteId: SITE, currentId })).json<{
        comparisonId: number | null;
      }>();
    expect((await overview(4)).comparisonId).toBe(2);
    expect((await overview(3)).comparisonId).toBe(2);
    expect((await overview(2)).comparisonId).toBe(1);
    expect((await overview(1)).comparisonId).toBeNull();
  });
});
