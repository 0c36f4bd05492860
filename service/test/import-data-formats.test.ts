/**
 * The ads, keyword and trends formats end to end: a generated site's crawls loaded without their marketing tables,
 * then each vendor file of fixtures/sources imported by the real CLI. Each source starts "not connected" in the
 * query report, then its rows reach the crawls whose data window holds them and the query report reads them; the
 * same file imported again changes nothing (rows without a landing URL or customer id included).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview, OverviewReport, QueryReport } from '../../catalog/api.ts';
import { generateSite } from '../../scripts/fixtures/generate.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import { readCurrentLoad, storeDir } from '../store/layout.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { expectRefusedImport, queryCrawl, runImportData, type CliRun } from './helpers/import-cli.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sources');
const SITE = 'alpine-travel';
const SOURCE_TABLES = ['search_console', 'search_console_queries', 'analytics', 'ads_one', 'ads_two', 'trends'];

let dataDir: string;
let signedIn: SignedInApp<'admin'>;

const importData = (...args: string[]): CliRun => runImportData(dataDir, SITE, args);
const query = <T>(crawlId: number, sql: string): Promise<T[]> => queryCrawl<T>(dataDir, SITE, crawlId, sql);

/** Per crawl: its live load, the data its Added/Removed diffs read (dataId), and its precomputed counts. */
async function crawlStates(): Promise<{ loadId: string; dataId: string; counts: unknown[] }[]> {
  return Promise.all(
    [1, 2].map(async (crawlId) => {
      const live = readCurrentLoad(dataDir, SITE, crawlId)!;
      const counts = await query(
        crawlId,
        'SELECT report_id, row_count, added_count, removed_count, previous_data_id FROM report_counts ORDER BY report_id',
      );
      return { loadId: live.loadId, dataId: dataIdOf(live.meta), counts };
    }),
  );
}

async function queryReport(text: string, crawlId = 2): Promise<QueryReport> {
  await signedIn.stack.registry.refresh();
  const res = await post(signedIn.app, '/api/technical-health-check/query/get-report', signedIn.sessions.admin, {
    websiteId: SITE,
    query: text,
    currentId: crawlId,
  });
  expect(res.statusCode).toBe(200);
  return res.json<QueryReport>();
}

/** Crawl 2's clicks for "alpine travel" per day, summed over its pages' query rows. */
async function pagesQueryClicks(start: string, end: string): Promise<[string, number][]> {
  const rows = await query<{ date: string; clicks: number }>(
    2,
    `SELECT date::VARCHAR AS date, sum(clicks)::INTEGER AS clicks FROM search_console_queries
     WHERE query = 'alpine travel' AND date BETWEEN '${start}' AND '${end}' GROUP BY date ORDER BY date`,
  );
  return rows.map((r) => [r.date, r.clicks]);
}

/** One import that must succeed with one summary line; a second import of the same files changes nothing. */
function importOnce(source: string, files: string[], flags: string[] = []): string {
  const run = importData('--source', source, ...flags, ...files);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  const before = snapshotTree(storeDir(dataDir));
  const again = importData('--source', source, ...flags, ...files);
  expect(again.stdout).toContain('nothing changed (imported before)');
  expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  return run.stdout;
}

beforeAll(async () => {
  const out = tempDir('thc-formats-exports-');
  const { crawlDirs } = await generateSite({ outDir: out, site: SITE, urls: 200, crawls: 2 });
  dataDir = tempDir('thc-formats-data-');
  for (const dir of crawlDirs) {
    for (const table of [...SOURCE_TABLES, 'keyword_planner'])
      fs.rmSync(path.join(dir, `${table}.parquet`), { force: true });
    await loadCrawl({ dataDir, exportDir: dir });
  }
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
}, 300_000);

afterAll(() => signedIn?.close());

describe('Google Ads reports', () => {
  it('feed ads_one: landing pages by day and URL, search terms by keyword, and the query report reads them', async () => {
    expect((await queryReport('alpine travel')).notConnected).toContain('google-ads');
    const before = await crawlStates();

    const landing = importOnce('google-ads', [path.join(FIXTURES, 'google-ads/landing-page-report.csv')]);
    // Ad landing pages feed reports (ad spend at stake): both crawls are new data, their reports computed again.
    const after = await crawlStates();
    for (const i of [0, 1]) expect(after[i]!.dataId).not.toBe(before[i]!.dataId);
    expect(after[1]!.counts).not.toEqual(before[1]!.counts);
    expect(landing).toContain('4 rows of Google Ads report CSV');
    expect(landing).toContain('days 2026-11-02 to 2026-11-03');
    expect(landing).toContain(
      'URLs: 2 matched to crawl 2, 1 not (e.g. https://www.alpine-travel.eu/de/sommer-aktion/)',
    );
    expect(landing).toContain('amounts are in EUR as exported');
    // Both crawls' windows hold 2 and 3 November.
    for (const crawlId of [1, 2])
      expect(
        (await query<{ n: bigint }>(crawlId, `SELECT sum(clicks) AS n FROM ads_one WHERE url LIKE '%/de/'`))[0]?.n,
      ).toBe(78n);

    const terms = importOnce('google-ads', [path.join(FIXTURES, 'google-ads/search-terms-report.csv')]);
    expect(terms).toContain('4 rows of Google Ads report CSV');
    expect(terms).toContain('totals for 2026-11-09 to 2026-11-15 (one period, placed on 2026-11-15)');
    expect(terms).toContain('no page URLs');
    // Two campaigns' rows of one search term and keyword are one row of the contract.
    const rows = await query<{ search_term: string; query: string; clicks: bigint; costs: number }>(
      2,
      `SELECT search_term, query, clicks, costs FROM ads_one WHERE search_term IS NOT NULL ORDER BY search_term`,
    );
    expect(rows.map((r) => [r.search_term, r.query, Number(r.clicks)])).toEqual([
      ['alpine travel', 'alpine travel', 87],
      ['alpine travel reisen', 'alpine travel', 12],
      ['berchtesgaden urlaub', 'berchtesgaden urlaub', 70],
      ['urlaub, deutschland', 'urlaub deutschland', 9],
    ]);
    expect(rows[2]?.costs).toBeCloseTo(56.32 + 5.46, 9);
    // Crawl 1's window ends 8 November: the week's totals are not in it.
    expect(await query(1, `SELECT 1 FROM ads_one WHERE search_term IS NOT NULL`)).toEqual([]);

    const report = await queryReport('Alpine Travel');
    expect(report.notConnected).not.toContain('google-ads');
    expect(report.adsOne.totals).toMatchObject({ clicks: 99, impressions: 1514, conversions: 9 });
    expect(report.adsOne.searchTerms.map((t) => [t.search_term, t.clicks])).toEqual([
      ['alpine travel', 87],
      ['alpine travel reisen', 12],
    ]);
    // The near miss: crawl 1 is connected to Google Ads, but its window holds no search term of the query.
    const older = await queryReport('alpine travel', 1);
    expect(older.notConnected).not.toContain('google-ads');
    expect(older.adsOne.totals).toBeNull();
  }, 600_000);
});

describe('the Microsoft Advertising report', () => {
  it('feeds ads_two by day and landing URL, which the query report totals over the query’s landing pages', async () => {
    expect((await queryReport('alpine travel')).notConnected).toContain('microsoft-ads');
    const out = importOnce('microsoft-ads', [path.join(FIXTURES, 'microsoft-ads/destination-url-report.csv')]);
    expect(out).toContain('4 rows of Microsoft Advertising report CSV');
    expect(out).toContain('days 2026-11-02 to 2026-11-10');
    expect(out).toContain(
      'URLs: 2 matched to crawl 2, 1 not (e.g. http://www.alpine-travel.eu/de/deutschland/?utm_source=bing)',
    );
    const rows = await query<{ date: string; url: string; clicks: bigint; revenue: number }>(
      2,
      `SELECT date::VARCHAR AS date, url, clicks, revenue FROM ads_two ORDER BY date, url`,
    );
    expect(rows.map((r) => [r.date, r.url, Number(r.clicks), r.revenue])).toEqual([
      ['2026-11-02', 'https://www.alpine-travel.eu/de/', 62, 1240.5],
      ['2026-11-02', 'https://www.alpine-travel.eu/de/deutschland/berchtesgaden-urlaub-c16/', 12, 310],
      ['2026-11-10', 'http://www.alpine-travel.eu/de/deutschland/?utm_source=bing', 9, 0],
      ['2026-11-10', 'https://www.alpine-travel.eu/de/', 51, 615],
    ]);
    expect(await query(1, `SELECT 1 FROM ads_two WHERE date = '2026-11-10'`)).toEqual([]);

    // Ads platform two has no query: the query report sums it over the query's landing URLs in Search Console.
    expect((await queryReport('alpine travel')).adsTwo.totals).toBeNull();
    importOnce('search-console', [path.join(FIXTURES, 'search-console/bulk/searchdata_url_impression.csv')]);
    const report = await queryReport('alpine travel');
    expect(report.notConnected).not.toContain('microsoft-ads');
    expect(report.adsTwo.totals).toMatchObject({ clicks: 62 + 51, revenue: 1240.5 + 615 });
  }, 600_000);
});

describe('the Keyword Planner export', () => {
  const stats = path.join(FIXTURES, 'keyword-planner/keyword-stats.csv');

  it('feeds keyword_planner by request day, which each crawl joins up to a window after its own', async () => {
    const before = await queryReport('berchtesgaden urlaub');
    expect(before.notConnected).toContain('keyword-planner');
    expect(before.keywordPlanner).toBeNull();
    const out = importOnce('keyword-planner', [stats]);
    expect(out).toContain('4 rows of Keyword Planner "Keyword Stats" export; as of 2026-11-16; no page URLs');
    expect(out).toContain('monthly searches 2025-11 to 2026-10');

    const report = await queryReport('Berchtesgaden Urlaub');
    expect(report.notConnected).not.toContain('keyword-planner');
    expect(report.keywordPlanner).toMatchObject({
      average_search_volume: 12100,
      total_search_volume: 146_900,
      competition: 'MEDIUM',
      competition_index: 41,
      average_cpc: null,
    });
    expect(report.keywordPlanner?.monthly_records[0]).toEqual({ year: 2025, month: 11, search_volume: 6600 });

    // A request made 10 December: within a window's length after crawl 2's window (to 13 December), not crawl 1's.
    const later = path.join(tempDir('thc-formats-planner-'), 'keyword-stats.csv');
    const text = fs.readFileSync(stats).subarray(2).toString('utf16le');
    const edited = text
      .replace('Keyword Stats 2026-11-16', 'Keyword Stats 2026-12-10')
      .replace('\t12100\t', '\t14800\t');
    fs.writeFileSync(later, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(edited, 'utf16le')]));
    expect(importData('--source', 'keyword-planner', later).status).toBe(0);
    expect((await queryReport('berchtesgaden urlaub')).keywordPlanner?.average_search_volume).toBe(14800);
    expect((await queryReport('berchtesgaden urlaub', 1)).keywordPlanner?.average_search_volume).toBe(12100);
  }, 600_000);
});

describe('the Google Trends timeline', () => {
  it('feeds trends by week start over each crawl window, and the query report draws it', async () => {
    expect((await queryReport('alpine travel')).notConnected).toContain('trends');
    const before = await crawlStates();
    const out = importOnce('trends', [path.join(FIXTURES, 'trends/multiTimeline.csv')]);
    // Only the query report reads Trends: each crawl is refreshed (a new load joins the rows) but stays the same data
    // for the diffs, its precomputed reports kept as they were.
    const after = await crawlStates();
    for (const i of [0, 1]) {
      expect(after[i]!.loadId).not.toBe(before[i]!.loadId);
      expect(after[i]!.dataId).toBe(before[i]!.dataId);
      expect(after[i]!.counts).toEqual(before[i]!.counts);
    }
    expect(out).toContain('16 rows of Google Trends multiTimeline.csv; weeks 2026-09-27 to 2026-11-15');
    expect(out).toContain('interest in Germany');
    const report = await queryReport('alpine travel');
    expect(report.notConnected).not.toContain('trends');
    expect(report.trends).toEqual([
      { date: '2026-10-25', value: 61 },
      { date: '2026-11-01', value: 73 },
      { date: '2026-11-08', value: 100 },
      { date: '2026-11-15', value: 87 },
    ]);
    expect((await queryReport('alpine travel', 1)).trends.map((p) => p.date)).toEqual([
      '2026-10-18',
      '2026-10-25',
      '2026-11-01',
      '2026-11-08',
    ]);
    const topics = await query<{ topic: string; value: number }>(
      2,
      `SELECT topic, value FROM trends WHERE query = 'berchtesgaden urlaub' AND date = '2026-10-25'`,
    );
    expect(topics).toEqual([{ topic: 'alpine travel vs berchtesgaden urlaub', value: 0.5 }]);
  }, 600_000);
});

describe('Search Console ZIP and API responses, and the GA4 Data API', () => {
  const rowCount = async (crawlId: number, reportId: string): Promise<number> =>
    Number(
      (
        await query<{ n: bigint }>(crawlId, `SELECT row_count AS n FROM report_counts WHERE report_id = '${reportId}'`)
      )[0]?.n,
    );

  it('unpacks the Performance report ZIP, and refuses a truncated one naming it', async () => {
    const zip = path.join(FIXTURES, 'search-console/performance-export.zip');
    // Its period (1-14 Nov) holds the bulk export's days imported above: refused, then taken with --replace.
    const refused = importData('--source', 'search-console', zip);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "Filters.csv: its totals for 2026-11-01 to 2026-11-14 (one period) overlap the bulk export's rows (searchdata_url_impression) imported before on 2026-11-02 to 2026-11-03",
    );
    const out = importOnce('search-console', ['--replace', zip]);
    // Pages.csv's 5 rows and Queries.csv's 3 (the property's totals per query).
    expect(out).toContain('8 rows of Search Console Performance report CSV');
    expect(out).toContain('totals for 2026-11-01 to 2026-11-14 (one period, placed on 2026-11-14)');
    expect(out).toContain('countries, devices, search appearance left out (no page URL)');
    expect(
      await query(
        2,
        `SELECT clicks FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/' AND date = '2026-11-14'`,
      ),
    ).toEqual([{ clicks: 412n }]);
    // The period's dates are 1-14 Nov, not only the 14th: the bulk export's 24 + 12 clicks of 2 and 3 Nov went.
    expect(
      await query(2, `SELECT sum(clicks) AS clicks FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/'`),
    ).toEqual([{ clicks: 412n }]);

    const cut = path.join(tempDir('thc-formats-zip-'), 'performance-export.zip');
    fs.writeFileSync(cut, fs.readFileSync(zip).subarray(0, 900));
    const before = snapshotTree(storeDir(dataDir));
    const run = importData('--source', 'search-console', cut);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${cut}: a truncated or damaged ZIP`);
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    // The bulk export's days back, as the tests below expect them.
    const bulk = path.join(FIXTURES, 'search-console/bulk/searchdata_url_impression.csv');
    const back = importData('--source', 'search-console', '--replace', bulk);
    expect(back.status).toBe(0);
    // The period's totals include 2 and 3 Nov: they go whole, or the join would count those days twice.
    expect(back.stdout).toContain('replaced the totals for 2026-11-01 to 2026-11-14 whole');
    expect(
      await query(2, `SELECT sum(clicks) AS clicks FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/'`),
    ).toEqual([{ clicks: 24n + 12n }]);
  }, 600_000);

  it('reads Search Analytics API responses: pages by day, and queries by day for the query report', async () => {
    const pages = importOnce('search-console', [
      path.join(FIXTURES, 'search-console/api/searchanalytics-date-page.json'),
    ]);
    expect(pages).toContain(
      '3 rows of Search Console Search Analytics API response (JSON); days 2026-11-09 to 2026-11-10',
    );
    const queries = importOnce('search-console', [
      path.join(FIXTURES, 'search-console/api/searchanalytics-date-page-query.json'),
    ]);
    expect(queries).toContain('query rows fill the queries only');
    expect(
      await query(
        2,
        `SELECT date::VARCHAR AS date, clicks FROM search_console WHERE url LIKE '%/de/' AND date BETWEEN '2026-11-09' AND '2026-11-10' ORDER BY date`,
      ),
    ).toEqual([
      { date: '2026-11-09', clicks: 29n },
      { date: '2026-11-10', clicks: 25n },
    ]);
    // The ZIP's Queries.csv brought the property's totals for 1-14 Nov, which the query report shows; the pages' query
    // rows by day are these.
    expect((await queryReport('alpine travel')).searchConsole.figures).toBe('property');
    expect(await pagesQueryClicks('2026-11-09', '2026-11-10')).toEqual([
      ['2026-11-09', 21],
      ['2026-11-10', 18],
    ]);
    // Crawl 1's window ends 8 November.
    expect(await query(1, `SELECT 1 FROM search_console_queries WHERE date > '2026-11-08'`)).toEqual([]);
  }, 600_000);

  it('reads the GA4 runReport response and connects the analytics reports', async () => {
    const overview = async (crawlId: number): Promise<OverviewReport[]> => {
      const res = await post(
        signedIn.app,
        '/api/technical-health-check/overview/get-overview',
        signedIn.sessions.admin,
        {
          websiteId: SITE,
          currentId: crawlId,
          refresh: true,
        },
      );
      return Object.values(res.json<Overview>().severityMap).flatMap((s) => s?.reports ?? []);
    };
    expect((await overview(2)).find((e) => e.reportId === 'analytics/all')?.notConnected).toBe('analytics');
    const out = importOnce('analytics', [path.join(FIXTURES, 'analytics/ga4-run-report.json')]);
    expect(out).toContain(
      '4 rows of Google Analytics Data API runReport response (JSON); days 2026-11-09 to 2026-11-10',
    );
    expect(out).toContain('URLs: 2 matched to crawl 2, none unmatched');
    expect(out).toContain('1 rows without a page ("(not set)", "(other)") left out');
    const rows = await query<{ url: string; channel: string; sessions: bigint; revenue: number }>(
      2,
      `SELECT url, channel, sum(sessions) AS sessions, sum(revenue) AS revenue FROM analytics GROUP BY ALL ORDER BY ALL`,
    );
    expect(rows.map((r) => [r.url, r.channel, Number(r.sessions), r.revenue])).toEqual([
      ['https://www.alpine-travel.eu/de/', 'Organic Search', 452, 18845.75],
      ['https://www.alpine-travel.eu/de/', 'Paid Search', 41, 890],
      ['https://www.alpine-travel.eu/de/deutschland/berchtesgaden-urlaub-c16/', 'Organic Search', 52, 0],
    ]);
    expect((await overview(2)).find((e) => e.reportId === 'analytics/all')?.notConnected).toBeUndefined();
    expect(await rowCount(2, 'analytics/all')).toBe(2);
    // The near miss: crawl 1 is connected, but its window (to 8 November) holds none of these days.
    expect((await overview(1)).find((e) => e.reportId === 'analytics/all')?.notConnected).toBeUndefined();
    expect(await rowCount(1, 'analytics/all')).toBe(0);
  }, 600_000);
});

describe('the Search Console bulk export as newline-delimited JSON, and GA4 report CSVs', () => {
  const ndjson = path.join(FIXTURES, 'search-console/bulk/searchdata_url_impression.ndjson');
  const bulkCsv = path.join(FIXTURES, 'search-console/bulk/searchdata_url_impression.csv');
  const pagesAndScreens = path.join(FIXTURES, 'analytics/ga4-pages-and-screens.csv');
  const u = (p: string): string => `https://www.alpine-travel.eu${p}`;

  it('reads the bulk export as BigQuery writes it in JSON lines, the same rows as its CSV', async () => {
    const out = importOnce('search-console', [ndjson]);
    expect(out).toContain(
      '8 rows of Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
    );
    expect(out).toContain('days 2026-11-02 to 2026-11-03');
    const queries = await query<{ date: string; query: string; clicks: bigint; impressions: bigint; position: number }>(
      2,
      `SELECT date::VARCHAR AS date, query, sum(clicks) AS clicks, sum(impressions) AS impressions,
              max(position) AS position
       FROM search_console_queries WHERE url = '${u('/de/')}' AND date <= '2026-11-03' GROUP BY ALL ORDER BY ALL`,
    );
    // Two devices summed, sum_position zero-based; the anonymized query (null in JSON) is in the URL's totals only.
    expect(queries.map((q) => [q.date, q.query, Number(q.clicks), Number(q.impressions)])).toEqual([
      ['2026-11-02', 'alpine travel', 23, 200],
      ['2026-11-03', 'alpine travel', 12, 110],
    ]);
    expect(queries[0]?.position).toBeCloseTo((96 + 72) / 200 + 1, 9);
    expect(
      await query(2, `SELECT clicks FROM search_console WHERE url = '${u('/de/')}' AND date = '2026-11-02'`),
    ).toEqual([{ clicks: 24n }]);
    // The fragment goes, as the crawler drops it.
    expect(
      await query(2, `SELECT clicks FROM search_console WHERE url = '${u('/de/frankreich/')}' AND date = '2026-11-03'`),
    ).toEqual([{ clicks: 1n }]);
    expect((await queryReport('alpine travel')).searchConsole.figures).toBe('property');
    expect(await pagesQueryClicks('2026-11-01', '2026-11-03')).toEqual([
      ['2026-11-02', 23],
      ['2026-11-03', 12],
    ]);
    // The CSV of the same export holds the same rows: nothing changes.
    const before = snapshotTree(storeDir(dataDir));
    const csv = importData('--source', 'search-console', bulkCsv);
    expect(csv.stderr).toBe('');
    expect(csv.stdout).toContain('nothing changed');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  }, 600_000);

  it('reads a GA4 report without a Date column as totals over its period, views standing in for sessions', async () => {
    // The runReport response's days (9 and 10 Nov) lie in its period: its totals would count them again.
    expectRefusedImport(
      dataDir,
      SITE,
      ['--source', 'analytics', pagesAndScreens],
      'ga4-pages-and-screens.csv: its totals for 2026-11-01 to 2026-11-14 (one period) overlap the analytics rows by date imported before on 2026-11-09 to 2026-11-10',
    );
    const out = importOnce('analytics', [pagesAndScreens], ['--replace']);
    expect(out).toContain(
      '4 rows of Google Analytics 4 report CSV; totals for 2026-11-01 to 2026-11-14 (one period, placed on 2026-11-14)',
    );
    expect(out).toContain('1 rows without a page ("(not set)", "(other)") left out');
    const rows = await query<{ url: string; channel: string; sessions: unknown; page_views: bigint; users: bigint }>(
      2,
      `SELECT url, channel, sessions, page_views, users FROM analytics WHERE date = '2026-11-14' ORDER BY url`,
    );
    // Pages and screens has no Sessions column: sessions are unknown (NULL), never 0.
    expect(rows.map((r) => [r.url, r.channel, r.sessions, Number(r.page_views), Number(r.users)])).toEqual([
      [u('/de/'), '(all)', null, 5120, 2210],
      [u('/de/alte-angebote/'), '(all)', null, 37, 30],
      [u('/de/deutschland/'), '(all)', null, 1480, 902],
      [u('/de/deutschland/berchtesgaden-urlaub-c16/'), '(all)', null, 611, 402],
    ]);
    // A page the period's report saw is in Analytics, so not "missing", with its sessions empty, not 0.
    expect(await query(2, `SELECT ga_sessions FROM rr_analytics__all WHERE url = '${u('/de/deutschland/')}'`)).toEqual([
      { ga_sessions: null },
    ]);
    expect(await query(2, `SELECT url FROM rr_analytics__missing WHERE url = '${u('/de/deutschland/')}'`)).toEqual([]);
    const [counts] = await query<{ all: bigint; missing: bigint; base: bigint }>(
      2,
      `SELECT max(row_count) FILTER (report_id = 'analytics/all') AS "all",
              max(row_count) FILTER (report_id = 'analytics/missing') AS missing,
              max(base) FILTER (report_id = 'analytics/missing') AS base
       FROM report_counts`,
    );
    expect(Number(counts!.all)).toBeGreaterThanOrEqual(3);
    expect(Number(counts!.missing)).toBeLessThan(Number(counts!.base));
  }, 600_000);

  it('refuses a bad GA4 cell naming the file, line and column, and imports nothing', () => {
    const file = path.join(tempDir('thc-formats-bad-'), 'ga4.csv');
    const daily = fs.readFileSync(path.join(FIXTURES, 'analytics/ga4-landing-page-daily.csv'), 'utf8');
    fs.writeFileSync(file, daily.replace('/de/,20261102,Direct,94,', '/de/,20261102,Direct,9x4,'));
    const before = snapshotTree(storeDir(dataDir));
    const run = importData('--source', 'analytics', file);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(`import-data: ${file}:12:4: Sessions "9x4" is not a number`);
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  }, 120_000);
});
