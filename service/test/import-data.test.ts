/**
 * npm run import-data end to end: a generated site's crawls loaded without their marketing tables, then the vendor
 * files of fixtures/sources imported by the real CLI. Search Console and analytics start "not connected" (no counts,
 * 409 for rows), then their reports fill with the imported rows over each crawl's data window; importing the same
 * rows again, or replacing them with the same rows from Parquet, changes nothing; bad input, a file of the wrong
 * source and a held lock are refused with one line and leave the store as it was.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewReport, QueryReport, ReportSummary } from '../../catalog/api.ts';
import { openDatabase, quoteLiteral, textOf } from '../db/duckdb.ts';
import { readCurrentLoad, readCrawlMeta, storeDir } from '../store/layout.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import {
  expectRefusedImport,
  runImportData,
  runImportDataOnTerminal,
  queryCrawl,
  type CliRun,
} from './helpers/import-cli.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';
import {
  BULK_CSV,
  FIXTURES,
  PERFORMANCE_CSVS,
  SITE,
  loadSiteWithoutSources,
  overviewReports,
} from './helpers/source-fixtures.ts';

const performance = PERFORMANCE_CSVS;
const bulkCsv = BULK_CSV;

let dataDir: string;
let signedIn: SignedInApp<'admin'>;

const importData = (...args: string[]): CliRun => runImportData(dataDir, SITE, args);
const query = <T>(crawlId: number, sql: string): Promise<T[]> => queryCrawl<T>(dataDir, SITE, crawlId, sql);

const rowCount = async (crawlId: number, reportId: string): Promise<number> =>
  Number(
    (await query<{ n: bigint }>(crawlId, `SELECT row_count AS n FROM report_counts WHERE report_id = '${reportId}'`))[0]
      ?.n,
  );

const overview = (crawlId: number): Promise<OverviewReport[]> => overviewReports(signedIn, crawlId);

const reportCall = (reportId: string, crawlId: number) => ({
  websiteId: SITE,
  segmentId: null,
  currentId: crawlId,
  comparisonId: null,
  dataDateRange: null,
  differenceType: 'all',
  reportId,
  tableId: 'urls',
  showChecked: true,
  userFilter: '',
  channel: null,
});

beforeAll(async () => {
  dataDir = tempDir('thc-import-data-');
  await loadSiteWithoutSources(tempDir('thc-import-exports-'), dataDir);
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
}, 300_000);

afterAll(() => signedIn?.close());

describe('a website without data sources', () => {
  it('shows search console and analytics reports as not connected, not as zero', async () => {
    const entries = await overview(2);
    const analytics = entries.filter((e) => e.reportId.startsWith('analytics/'));
    expect(analytics.map((e) => [e.reportId, e.notConnected, e.ems_rank, e.ems_lumar_row_count]).sort()).toEqual([
      ['analytics/all', 'analytics', 0, 0],
      ['analytics/missing', 'analytics', 0, 0],
      ['analytics/orphaned', 'analytics', 0, 0],
    ]);
    expect(entries.find((e) => e.reportId === 'search-console/missing')?.notConnected).toBe('search-console');
    // The near miss: a crawl-fed report is connected whatever the sources.
    expect(entries.find((e) => e.reportId === 'status-code/4xx')?.notConnected).toBeUndefined();
    // Precomputed, analytics/missing would flag every indexable page.
    expect(await rowCount(2, 'analytics/missing')).toBeGreaterThan(50);

    const summary = await post(
      signedIn.app,
      '/api/technical-health-check/report/get-summary',
      signedIn.sessions.admin,
      {
        ...reportCall('analytics/missing', 2),
        skipCache: true,
      },
    );
    expect(summary.json<ReportSummary>().notConnected).toBe('analytics');
    const rows = await post(signedIn.app, '/api/technical-health-check/report/get-rows', signedIn.sessions.admin, {
      ...reportCall('analytics/missing', 2),
      limit: 10,
      offset: 0,
      orderBy: [],
    });
    expect(rows.statusCode).toBe(409);
    expect(rows.json()).toEqual({
      error: 'Analytics is not connected for website "alpine-travel"',
      notConnected: 'analytics',
    });
  });
});

describe('importing Search Console files', () => {
  it('joins the Performance report into each crawl whose window holds its period, and refreshes the counts', async () => {
    const loadBefore = readCurrentLoad(dataDir, SITE, 2)!.loadId;
    const run = importData('--source', 'search-console', ...performance);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toContain('5 rows of Search Console Performance report CSV');
    expect(run.stdout).toContain('totals for 2026-11-01 to 2026-11-14 (one period, placed on 2026-11-14)');
    expect(run.stdout).toContain('URLs: 4 matched to crawl 2, 1 not (e.g. https://alpine-travel.eu/de/datenschutz)');
    expect(run.stdout).toContain('devices left out (no page URL)');

    const live = readCurrentLoad(dataDir, SITE, 2)!;
    expect(live.loadId).not.toBe(loadBefore);
    expect(readCrawlMeta(live.dir).sources?.['search-console']).toMatch(/^[a-z0-9-]+$/);
    const rows = await query<{ url: string; date: string; clicks: bigint; position: number }>(
      2,
      `SELECT url, date::VARCHAR AS date, clicks, position FROM search_console ORDER BY url`,
    );
    expect(rows.map((r) => [r.url, r.date, Number(r.clicks), r.position])).toEqual([
      ['https://alpine-travel.eu/de/datenschutz', '2026-11-14', 0, 43],
      ['https://www.alpine-travel.eu/de/', '2026-11-14', 412, 6.8],
      ['https://www.alpine-travel.eu/de/deutschland/', '2026-11-14', 95, 9.12],
      ['https://www.alpine-travel.eu/de/deutschland/berchtesgaden-urlaub-c16/', '2026-11-14', 31, 11.4],
      ['https://www.alpine-travel.eu/de/frankreich/', '2026-11-14', 8, 17.03],
    ]);
    expect(await rowCount(2, 'search-console/all')).toBe(4);
    // The non-www URL the crawl never reached is kept as a URL of another host: visible, not lost.
    expect(
      await query(
        2,
        `SELECT internal, found_in_web_crawl FROM urls WHERE url = 'https://alpine-travel.eu/de/datenschutz'`,
      ),
    ).toEqual([{ internal: false, found_in_web_crawl: false }]);
    // Crawl 1's window ends 2026-11-08: connected, but the period's totals are not in it.
    expect(await query(1, 'SELECT * FROM search_console')).toEqual([]);
    expect(await rowCount(1, 'search-console/all')).toBe(0);

    const entries = await overview(2);
    expect(entries.find((e) => e.reportId === 'search-console/all')?.notConnected).toBeUndefined();
    expect(entries.find((e) => e.reportId === 'analytics/all')?.notConnected).toBe('analytics');
    // A page the connected source does not know has 0 clicks, not empty, in every report row table that shows them.
    const tables = await query<{ name: string }>(
      2,
      `SELECT table_name AS name FROM information_schema.columns WHERE column_name = 'gsc_clicks' AND (table_name LIKE 'rr\\_%' ESCAPE '\\' OR table_name LIKE 'rm\\_%' ESCAPE '\\')`,
    );
    expect(tables.some((t) => t.name.startsWith('rr_'))).toBe(true);
    expect(tables.some((t) => t.name.startsWith('rm_'))).toBe(true);
    let absent = 0;
    for (const { name } of tables) {
      const [counts] = await query<{ zero: bigint; empty: bigint }>(
        2,
        `SELECT count(*) FILTER (WHERE gsc_clicks = 0) AS zero, count(*) FILTER (WHERE gsc_clicks IS NULL) AS empty
         FROM ${name} WHERE url NOT IN (SELECT url FROM search_console)`,
      );
      expect(Number(counts!.empty)).toBe(0);
      absent += Number(counts!.zero);
    }
    expect(absent).toBeGreaterThan(0);
  }, 300_000);

  it('changes nothing when the same files are imported again', () => {
    const before = snapshotTree(storeDir(dataDir));
    const run = importData('--source', 'search-console', ...performance);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('nothing changed (imported before)');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    // On a terminal a progress bar comes first (off one, as above, the summary is the only line).
    const onTerminal = runImportDataOnTerminal(dataDir, SITE, ['--source', 'search-console', ...performance]);
    expect(onTerminal.status).toBe(0);
    expect(onTerminal.stdout).toMatch(/import-data \[[^\]]*\] 0\/2 reading and checking the files/);
    expect(onTerminal.stdout).toMatch(/import-data: .*nothing changed \(imported before\)\r?\n$/);
  }, 240_000);

  it('adds the bulk export by day, URL and query, which feeds the query report', async () => {
    // Its days lie in the Performance report's period, whose totals the join would add to theirs: --replace only.
    expectRefusedImport(
      dataDir,
      SITE,
      ['--source', 'search-console', bulkCsv],
      'searchdata_url_impression.csv: its rows on 2026-11-02 to 2026-11-03 overlap the totals for 2026-11-01 to 2026-11-14 (one period, search_console) imported before; nothing imported; use --replace',
    );
    const run = importData('--source', 'search-console', '--replace', bulkCsv);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('days 2026-11-02 to 2026-11-03');
    // The period's totals include 2 and 3 November and cannot be split by day: --replace takes them out whole, so
    // the bulk rows are the only clicks left (14 + 9 + 1 + 2 on the 2nd, 12 + 0 + 1 + 0 on the 3rd), not 546 more.
    expect(run.stdout).toContain(
      'replaced the totals for 2026-11-01 to 2026-11-14 whole (one period: they stand for each of its days and cannot be split)',
    );
    const perDate = await query<{ date: string; clicks: bigint }>(
      2,
      `SELECT date::VARCHAR AS date, sum(clicks) AS clicks FROM search_console GROUP BY date ORDER BY date`,
    );
    expect(perDate.map((d) => [d.date, Number(d.clicks)])).toEqual([
      ['2026-11-02', 26],
      ['2026-11-03', 13],
    ]);
    const queries = await query<{ query: string; clicks: bigint; impressions: bigint; position: number }>(
      1,
      `SELECT query, sum(clicks) AS clicks, sum(impressions) AS impressions, max(position) AS position
       FROM search_console_queries WHERE url = 'https://www.alpine-travel.eu/de/' GROUP BY query`,
    );
    // Two devices summed; sum_position is zero-based: (96 + 72 + 99) / (120 + 80 + 110) + 1 over both days.
    expect(queries.map((q) => [q.query, Number(q.clicks), Number(q.impressions)])).toEqual([
      ['alpine travel', 35, 310],
    ]);
    const perDay = await query<{ position: number }>(
      2,
      `SELECT position FROM search_console_queries WHERE url = 'https://www.alpine-travel.eu/de/' AND date = '2026-11-02'`,
    );
    expect(perDay[0]?.position).toBeCloseTo((96 + 72) / 200 + 1, 9);
    // The anonymized query counts in the URL's totals, not in its queries.
    const day = await query<{ clicks: bigint }>(
      2,
      `SELECT clicks FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/' AND date = '2026-11-02'`,
    );
    expect(Number(day[0]?.clicks)).toBe(24);
    // The fragment goes, as the crawler drops it.
    expect(
      await query(
        2,
        `SELECT 1 FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/frankreich/' AND date = '2026-11-03'`,
      ),
    ).toHaveLength(1);

    await signedIn.stack.registry.refresh();
    const res = await post(signedIn.app, '/api/technical-health-check/query/get-report', signedIn.sessions.admin, {
      websiteId: SITE,
      query: 'alpine travel',
      currentId: 2,
    });
    const report = res.json<QueryReport>();
    expect(report.searchConsole.byUrl.map((u) => [u.url, u.clicks])).toEqual([
      ['https://www.alpine-travel.eu/de/', 35],
    ]);
    expect(report.notConnected).toEqual(['google-ads', 'microsoft-ads', 'trends', 'keyword-planner']);
  }, 300_000);

  it('--replace with the same rows from Parquet changes nothing; different rows without it are refused', async () => {
    const work = tempDir('thc-import-parquet-');
    const parquet = path.join(work, 'searchdata_url_impression.parquet');
    const db = await openDatabase();
    const conn = await db.connect();
    await conn.run(
      `COPY (SELECT * FROM read_csv(${quoteLiteral(bulkCsv)})) TO ${quoteLiteral(parquet)} (FORMAT parquet)`,
    );
    conn.closeSync();
    db.closeSync();
    const before = snapshotTree(storeDir(dataDir));
    const same = importData('--source', 'search-console', '--replace', parquet);
    expect(same.stderr).toBe('');
    expect(same.stdout).toContain('nothing changed');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
    // Raw rows are compared day by day as a whole: the same file again, without --replace, changes nothing either.
    const again = importData('--source', 'search-console', parquet);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('nothing changed');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);

    const changed = path.join(work, 'searchdata_url_impression.csv');
    fs.writeFileSync(changed, fs.readFileSync(bulkCsv, 'utf8').replace(',120,14,96', ',121,14,96'));
    const refused = importData('--source', 'search-console', changed);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /other searchdata_url_impression rows than imported before on 1 of its days \(first: 2026-11-02\).*use --replace/,
    );
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);

    // With --replace the file's dates (2026-11-02 and 03) take its rows.
    const replaced = importData('--source', 'search-console', '--replace', changed);
    expect(replaced.stderr).toBe('');
    expect(replaced.status).toBe(0);
    const rows = await query<{ date: string; impressions: bigint }>(
      2,
      `SELECT date::VARCHAR AS date, impressions FROM search_console WHERE url = 'https://www.alpine-travel.eu/de/' ORDER BY date`,
    );
    expect(rows.map((r) => [r.date, Number(r.impressions)])).toEqual([
      ['2026-11-02', 121 + 80 + 15],
      ['2026-11-03', 110],
    ]);
  }, 300_000);

  it('refuses keyed rows on days that hold raw rows of the bulk export, which the join would count twice', () => {
    const work = tempDir('thc-import-mixed-');
    const api = path.join(work, 'searchanalytics-date-page.json');
    const onBulkDays = fs
      .readFileSync(path.join(FIXTURES, 'search-console/api/searchanalytics-date-page.json'), 'utf8')
      .replaceAll('2026-11-09', '2026-11-02')
      .replaceAll('2026-11-10', '2026-11-03');
    fs.writeFileSync(api, onBulkDays);
    const before = snapshotTree(storeDir(dataDir));
    const refused = importData('--source', 'search-console', api);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /2026-11-02 holds the bulk export's rows \(searchdata_url_impression\) imported before; nothing imported; use --replace/,
    );
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);

    // A period's totals stand for all its days: Pages.csv for 1-13 Nov (placed on the 13th) covers the bulk export's.
    const pages = performance.find((f) => f.endsWith('Pages.csv'))!;
    const period = importData('--source', 'search-console', '--start', '2026-11-01', '--end', '2026-11-13', pages);
    expect(period.status).toBe(1);
    expect(period.stderr).toContain(
      "Pages.csv: its totals for 2026-11-01 to 2026-11-13 (one period) overlap the bulk export's rows (searchdata_url_impression) imported before on 2026-11-02 to 2026-11-03; nothing imported; use --replace",
    );
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  }, 120_000);
});

describe('bad input', () => {
  const refuse = (args: string[], message: RegExp | string): void => {
    const before = snapshotTree(storeDir(dataDir));
    const run = importData(...args);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    if (typeof message === 'string') expect(run.stderr).toContain(message);
    else expect(run.stderr).toMatch(message);
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  };

  it('names the file, line and column of a bad cell and imports nothing', () => {
    const file = path.join(tempDir('thc-import-bad-'), 'Pages.csv');
    const text = fs.readFileSync(performance[0]!, 'utf8').replace('95,2204,4.31%', '95,2,204,4.31%');
    fs.writeFileSync(file, text);
    refuse(['--source', 'search-console', file, performance[1]!], `${file}:3:1: 6 cells, the header has 5`);
    fs.writeFileSync(file, fs.readFileSync(performance[0]!, 'utf8').replace('4.31%', '4.31'));
    refuse(['--source', 'search-console', file, performance[1]!], `${file}:3:4: CTR "4.31" is not a percentage`);
    fs.writeFileSync(file, fs.readFileSync(performance[0]!, 'utf8').replace('9310', '9.310'));
    refuse(
      ['--source', 'search-console', file, performance[1]!],
      `${file}:2:3: Impressions "9.310" is not a whole number`,
    );
    const bulk = path.join(tempDir('thc-import-bad-'), 'export.csv');
    fs.writeFileSync(bulk, fs.readFileSync(bulkCsv, 'utf8').replace('2026-11-03,', '2026-11-31,'));
    refuse(['--source', 'search-console', bulk], `${bulk}:6:1: data_date "2026-11-31" is not a date`);
  }, 120_000);

  it('refuses a file of another source, an unknown shape and a truncated file', () => {
    refuse(
      ['--source', 'analytics', performance[0]!],
      'a Search Console Performance report CSV (Search Console), not a analytics file',
    );
    const odd = path.join(tempDir('thc-import-bad-'), 'Pages.csv');
    fs.writeFileSync(odd, 'Landing URL;Clicks\n/a;1\n');
    refuse(['--source', 'search-console', odd], `${odd}: not a format import-data reads for search-console`);
    const cut = path.join(tempDir('thc-import-bad-'), 'ga4.csv');
    const ga4 = fs.readFileSync(path.join(FIXTURES, 'analytics/ga4-landing-page-daily.csv'), 'utf8');
    fs.writeFileSync(cut, ga4.slice(0, ga4.indexOf('utm_medium')));
    refuse(['--source', 'analytics', cut], 'a quoted cell is not closed (a truncated file?)');
  }, 120_000);

  it('refuses a second import while one holds the website', () => {
    const holder = spawn('sleep', ['30']);
    try {
      const lock = path.join(storeDir(dataDir), SITE, '.import.lock');
      fs.writeFileSync(lock, `${holder.pid}\n`);
      const run = importData('--source', 'analytics', path.join(FIXTURES, 'analytics/ga4-pages-and-screens.csv'));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`another import (pid ${holder.pid}) is running for website "alpine-travel"`);
      fs.rmSync(lock);
    } finally {
      holder.kill();
    }
  }, 120_000);

  it('answers bad usage with exit 2', () => {
    expect(importData('--source', 'search-console').status).toBe(2);
    expect(importData('--source', 'nowhere', bulkCsv).status).toBe(2);
    expect(importData('--source', 'search-console', '--start', '2026-11-01', bulkCsv).status).toBe(2);
  });
});

describe('importing Google Analytics 4 reports', () => {
  it('resolves paths on the crawl host, keeps channels and days, and connects the analytics reports', async () => {
    const run = importData('--source', 'analytics', path.join(FIXTURES, 'analytics/ga4-landing-page-daily.csv'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('days 2026-11-02 to 2026-11-03');
    expect(run.stdout).toContain(
      '1 not (e.g. https://www.alpine-travel.eu/de/frankreich/?utm_source=newsletter&utm_medium=email)',
    );
    expect(run.stdout).toContain('1 rows without a page ("(not set)", "(other)") left out');
    const rows = await query<{ url: string; channel: string; sessions: bigint; revenue: number; page_views: unknown }>(
      2,
      `SELECT url, channel, sum(sessions) AS sessions, sum(revenue) AS revenue, max(page_views) AS page_views
       FROM analytics GROUP BY url, channel ORDER BY url, channel`,
    );
    expect(rows.map((r) => [r.url, r.channel, Number(r.sessions)])).toEqual([
      ['https://www.alpine-travel.eu/de/', 'Direct', 94],
      ['https://www.alpine-travel.eu/de/', 'Organic Search', 497],
      ['https://www.alpine-travel.eu/de/deutschland/', 'Paid Search', 31],
      ['https://www.alpine-travel.eu/de/frankreich/?utm_source=newsletter&utm_medium=email', 'Email', 12],
    ]);
    // The report has no Views column: page views are unknown (NULL), not 0.
    expect(rows.every((r) => r.page_views === null)).toBe(true);
    expect(await rowCount(2, 'analytics/all')).toBe(3);
    const entries = await overview(2);
    expect(entries.find((e) => e.reportId === 'analytics/missing')?.notConnected).toBeUndefined();
    expect(textOf(readCrawlMeta(readCurrentLoad(dataDir, SITE, 1)!.dir).sources?.analytics)).toMatch(/^[a-z0-9-]+$/);
  }, 300_000);
});
