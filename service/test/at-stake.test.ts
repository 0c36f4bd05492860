/**
 * What is at stake on a report's URLs (issue 30 §3), end to end: a generated site's crawls loaded without marketing
 * data have no stake at all (absent, not zero); the vendor files of fixtures/sources imported by the real CLI give each
 * report the sums of its URLs over the crawl's data window, which equal the hand computations below; a figure whose
 * source is not connected stays absent while the others are present.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewReport } from '../../catalog/api.ts';
import { reportById } from '../../catalog/index.ts';
import { compileExport, type DifferenceType } from '../engine/compile.ts';
import { loadCrawlTarget, ReportEngine, tabRequest } from '../engine/engine.ts';
import { rowsOf } from '../engine/result.ts';
import type { StakeOrder } from '../engine/stakes.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { runImportData } from './helpers/import-cli.ts';
import { FIXTURES, SITE, loadSiteWithoutSources, overviewReports } from './helpers/source-fixtures.ts';

let dataDir: string;
let signedIn: SignedInApp<'admin'>;

function importFile(source: string, file: string): void {
  const run = runImportData(dataDir, SITE, ['--source', source, path.join(FIXTURES, file)]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

async function overview(crawlId: number): Promise<Map<string, OverviewReport>> {
  await signedIn.stack.registry.refresh();
  return new Map((await overviewReports(signedIn, crawlId)).map((r) => [r.reportId, r]));
}

const BASE = '/api/technical-health-check/report';

/** The URLs of crawl/all of crawl 2 in the order get-rows gives them, and get-summary's default order. */
async function crawlAllOrder(orderBy?: { id: string; desc: boolean }[]): Promise<{ urls: string[]; order: unknown }> {
  const body = { websiteId: SITE, currentId: 2, reportId: 'crawl/all', tableId: 'urls', differenceType: 'all' };
  const session = signedIn.sessions.admin;
  const rows = await post(signedIn.app, `${BASE}/get-rows`, session, { ...body, limit: 100, orderBy });
  expect(rows.statusCode, rows.body).toBe(200);
  const summary = await post(signedIn.app, `${BASE}/get-summary`, session, body);
  expect(summary.statusCode, summary.body).toBe(200);
  const { defaultOrder } = summary.json<{ defaultOrder: unknown }>();
  return { urls: rows.json<{ rows: { url: string }[] }>().rows.map((r) => r.url), order: defaultOrder };
}

const rounded = (stake: unknown) =>
  stake && typeof stake === 'object'
    ? Object.fromEntries(
        Object.entries(stake).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 100) / 100 : v]),
      )
    : stake;

beforeAll(async () => {
  dataDir = tempDir('thc-stake-data-');
  await loadSiteWithoutSources(tempDir('thc-stake-exports-'), dataDir);
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
}, 300_000);

afterAll(() => signedIn?.close());

describe('at stake', () => {
  it('is absent, never zero, while no source is connected', async () => {
    const entries = await overview(2);
    expect(entries.size).toBeGreaterThan(40);
    for (const entry of entries.values()) expect([entry.reportId, entry.stake]).toEqual([entry.reportId, null]);
    // Rows keep their key order.
    const { urls, order } = await crawlAllOrder();
    expect(order).toBe('key');
    expect(urls).toEqual([...urls].sort());
  }, 120_000);

  it('sums analytics over the distinct URLs of each report, ad figures absent until an ads source is imported', async () => {
    importFile('analytics', 'analytics/ga4-landing-page-daily.csv');
    const entries = await overview(2);
    // ga4-landing-page-daily.csv, 2 and 3 November (both in crawl 2's window), "(not set)" left out:
    // /de/ 257 + 94 + 240 sessions, 7 + 1 + 5 key events, 18483.19 + 9120.40 revenue; /de/deutschland/ 31, 0, 0;
    // /de/frankreich/?utm_… 12, 1, 410. crawl/all lists every URL, the source-only one too.
    expect(rounded(entries.get('crawl/all')?.stake)).toEqual({
      clicks: null,
      impressions: null,
      sessions: 591 + 31 + 12,
      conversions: 13 + 0 + 1,
      revenue: 27603.59 + 410,
      ad_spend: null,
    });
    // Visited but never reached by the crawl: only the URL with the newsletter's query string.
    expect(rounded(entries.get('analytics/orphaned')?.stake)).toEqual({
      clicks: null,
      impressions: null,
      sessions: 12,
      conversions: 1,
      revenue: 410,
      ad_spend: null,
    });
    // The near miss: a connected source with nothing on a report's URLs is 0, not absent.
    expect(entries.get('analytics/missing')?.stake).toMatchObject({ sessions: 0, conversions: 0, revenue: 0 });
  }, 300_000);

  it("sorts a report's rows by what is at stake on their URL unless the user sorts them", async () => {
    const { urls, order } = await crawlAllOrder();
    expect(order).toBe('at-stake');
    // Sessions above: /de/ 591, /de/deutschland/ 31, the newsletter URL 12; then every URL without any, by key.
    expect(urls.slice(0, 3).map((u) => new URL(u).pathname + new URL(u).search)).toEqual([
      '/de/',
      '/de/deutschland/',
      '/de/frankreich/?utm_source=newsletter&utm_medium=email',
    ]);
    expect(urls.slice(3)).toEqual([...urls.slice(3)].sort());
    // The page came from the row table's stored ordinals, which order the rows as the join with the stakes does.
    const record = signedIn.stack.registry.crawl(SITE, 2)!;
    const target = await loadCrawlTarget(signedIn.stack.db, record);
    expect(target.stakeOrder).toEqual({ visits: 'sessions', isStored: true });
    const previous = await loadCrawlTarget(signedIn.stack.db, signedIn.stack.registry.crawl(SITE, 1)!);
    const rowsFor = async (tab: DifferenceType, extra: Record<string, unknown>) => {
      const engine = new ReportEngine(signedIn.stack.db, signedIn.stack.registry);
      try {
        const req = { ...tabRequest(reportById('crawl/all')!, target, previous, tab), limit: 1000, ...extra };
        return rowsOf(await engine.rows(req, { bypassCache: true }));
      } finally {
        engine.dispose();
      }
    };
    const rowsIn = async (stakeOrder: StakeOrder, tab: DifferenceType = 'all') =>
      (await rowsFor(tab, { stakeOrder })).map((r) => r.url);
    const stored = await rowsIn({ visits: 'sessions', isStored: true });
    const joined = await rowsIn({ visits: 'sessions', isStored: false });
    expect(stored.length).toBeGreaterThan(3);
    expect(stored).toEqual(joined);
    expect(stored.slice(0, 100)).toEqual(urls);
    for (const tab of ['added', 'removed'] as const) {
      const storedTab = await rowsIn({ visits: 'sessions', isStored: true }, tab);
      expect(storedTab.length, tab).toBeGreaterThan(0);
      expect(storedTab, tab).toEqual(await rowsIn({ visits: 'sessions', isStored: false }, tab));
    }
    // The Added tab in the stored order is the first matches a scan meets past the offset: page after page the same
    // rows as in one page, in the same order.
    const added = await rowsIn({ visits: 'sessions', isStored: true }, 'added');
    expect(added.length).toBeGreaterThan(20);
    const addedPages: unknown[] = [];
    for (let offset = 0; offset < added.length; offset += 10)
      addedPages.push(
        ...(await rowsFor('added', { stakeOrder: target.stakeOrder, offset, limit: 10 })).map((r) => r.url),
      );
    expect(addedPages).toEqual(added);
    // The row table is stored in that order: a page, and the whole export, are rowid ranges read without a sort.
    const storedOrder = {
      ...tabRequest(reportById('crawl/all')!, target, undefined, 'all'),
      stakeOrder: target.stakeOrder,
    };
    expect(compileExport(storedOrder, 1000)?.sql).toMatch(/"r"\.rowid >= 0 AND "r"\.rowid < 1000$/);
    // A sort with ties on the table stored in the at-stake order: the ties in key order, and page after page the
    // same rows as in one page, none repeated or skipped, from the far end too.
    const byStatus = async (offset: number, limit: number) =>
      (
        await rowsFor('all', {
          stakeOrder: target.stakeOrder,
          orderBy: [{ id: 'http_status_code', desc: true }],
          offset,
          limit,
        })
      ).map((r) => [r.http_status_code, r.url]);
    const whole = await byStatus(0, 1000);
    expect(new Set(whole.map(([status]) => status)).size).toBeGreaterThan(1);
    expect(whole.length).toBeGreaterThan(new Set(whole.map(([status]) => status)).size);
    const byHand = [...whole].sort(([a, x], [b, y]) =>
      a === b ? (String(x) < String(y) ? -1 : 1) : Number(b ?? -1) - Number(a ?? -1),
    );
    expect(whole).toEqual(byHand);
    const pages = [];
    for (let offset = 0; offset < whole.length; offset += 10) pages.push(...(await byStatus(offset, 10)));
    expect(pages).toEqual(whole);
    // An explicit sort wins, the keys' own order included.
    const byKey = await crawlAllOrder([{ id: 'url', desc: false }]);
    expect(byKey.urls).toEqual([...byKey.urls].sort());
    expect(byKey.urls.slice(0, 3)).not.toEqual(urls.slice(0, 3));
  }, 120_000);

  it('adds the ad spend of both ads platforms over each crawl’s own window', async () => {
    const report = 'ads/broken-landing-pages';
    expect((await overview(2)).get(report)?.notConnected).toBe('google-ads');
    // Either ads platform connects the ads reports.
    importFile('microsoft-ads', 'microsoft-ads/destination-url-report.csv');
    expect((await overview(2)).get(report)?.notConnected).toBeUndefined();
    importFile('google-ads', 'google-ads/landing-page-report.csv');
    // Ad spend on URLs the crawl lists: /de/ 19.27 + 18.13 (Google, 2 and 3 November) + 17.98 + 1.12 (Microsoft,
    // 2 November) + 16.83 (Microsoft, 10 November); berchtesgaden-urlaub-c16/ 14.94 (Google) + 7.80 (Microsoft).
    // /de/sommer-aktion/ and the ?utm_source=bing URL are known to no crawl, so no report lists them.
    const current = await overview(2);
    expect(rounded(current.get('crawl/all')?.stake)).toMatchObject({
      sessions: 634,
      ad_spend: Math.round((19.27 + 18.13 + 17.98 + 1.12 + 16.83 + 14.94 + 7.8) * 100) / 100,
    });
    expect(current.get('analytics/orphaned')?.stake).toMatchObject({ ad_spend: 0 });
    // Crawl 1's window ends 8 November: the Microsoft spend of 10 November is not in it.
    const older = await overview(1);
    expect(rounded(older.get('crawl/all')?.stake)).toMatchObject({
      ad_spend: Math.round((19.27 + 18.13 + 17.98 + 1.12 + 14.94 + 7.8) * 100) / 100,
    });
  }, 600_000);
});
