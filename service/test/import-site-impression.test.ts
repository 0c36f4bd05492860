/**
 * Search Console's property totals imported by the real CLI into a loaded crawl: the bulk export's
 * searchdata_site_impression as CSV, newline-delimited JSON and Parquet, and the Performance export's Queries.csv as
 * one period's totals. The crawl joins them as search_console_site, the query report shows them as the property's
 * figures, and the Data sources page counts them; the expected figures are computed by hand from the files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSourcesAnswer } from '../../catalog/data-source-calls.ts';
import type { QueryReport } from '../../catalog/api.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { storeDir } from '../store/layout.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { makeExport } from './helpers/make-export.ts';
import { expectRefusedImport, queryCrawl, runImportData } from './helpers/import-cli.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';

const SITE = 'alpine-travel';
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sources/search-console');
const SITE_CSV = path.join(FIXTURES, 'bulk/searchdata_site_impression.csv');
const SITE_NDJSON = path.join(FIXTURES, 'bulk/searchdata_site_impression.ndjson');
const QUERIES_CSV = path.join(FIXTURES, 'performance/Queries.csv');

let dataDir: string;
let work: string;
let signedIn: SignedInApp<'admin'>;

const importData = (...args: string[]) => runImportData(dataDir, SITE, ['--source', 'search-console', ...args]);
function imported(...args: string[]): string {
  const run = importData(...args);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

const siteRows = () =>
  queryCrawl<Record<string, unknown>>(
    dataDir,
    SITE,
    1,
    `SELECT date::VARCHAR AS date, query, clicks::INTEGER AS clicks, impressions::INTEGER AS impressions, position
     FROM search_console_site ORDER BY date, query`,
  );

async function queryReport(query: string): Promise<QueryReport> {
  await signedIn.stack.registry.refresh();
  const res = await post(signedIn.app, '/api/technical-health-check/query/get-report', signedIn.sessions.admin, {
    websiteId: SITE,
    query,
  });
  expect(res.statusCode).toBe(200);
  return res.json<QueryReport>();
}

/** By hand from searchdata_site_impression.csv: its rows summed per day and query, anonymized ones left out. */
const DAILY = [
  { date: '2026-11-02', query: 'alpine travel', clicks: 26, impressions: 270, position: 280 / 270 + 1 },
  { date: '2026-11-02', query: 'berchtesgaden urlaub', clicks: 2, impressions: 50, position: 350 / 50 + 1 },
  { date: '2026-11-03', query: 'alpine travel', clicks: 12, impressions: 130, position: 65 / 130 + 1 },
  { date: '2026-11-03', query: 'urlaub, deutschland', clicks: 1, impressions: 70, position: 560 / 70 + 1 },
];

beforeAll(async () => {
  dataDir = tempDir('thc-site-impression-');
  work = tempDir('thc-site-impression-files-');
  const made = await makeExport({
    manifest: {
      websiteId: SITE,
      crawlId: 1,
      crawledAt: '2026-11-20T09:00:00Z',
      dataStart: '2026-11-01',
      dataEnd: '2026-11-19',
    },
  });
  await loadCrawl({ dataDir, exportDir: made.dir });
  fs.rmSync(made.dir, { recursive: true, force: true });
  signedIn = await openSignedInApp(dataDir, '2026-11-20T10:00:00Z', ['admin']);
}, 240_000);

afterAll(() => signedIn?.close());

describe("the bulk export's site table", () => {
  it('is imported from CSV as the property totals per day and query, and the same file again changes nothing', async () => {
    const out = imported(SITE_CSV);
    expect(out).toContain('4 rows of Search Console bulk export');
    expect(out).toContain('days 2026-11-02 to 2026-11-03');
    expect(out).toContain(
      '2 site table rows of anonymized queries (2 clicks, 42 impressions) left out: they have no query text',
    );
    expect(await siteRows()).toEqual(DAILY);
    const before = snapshotTree(storeDir(dataDir));
    expect(imported(SITE_CSV)).toContain('nothing changed (imported before)');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  }, 240_000);

  it("feeds the query report's figures over time as the property's, the URL table as the pages' own", async () => {
    const property = await queryReport('Alpine Travel');
    expect(property.searchConsole.figures).toBe('property');
    expect(property.searchConsole.overTime).toEqual([
      { date: '2026-11-02', clicks: 26, impressions: 270, ctr: 26 / 270, position: 280 / 270 + 1, period: null },
      { date: '2026-11-03', clicks: 12, impressions: 130, ctr: 12 / 130, position: 1.5, period: null },
    ]);
    expect(property.searchConsole.byUrl).toEqual([]);
    // The near miss: a query the property rows lack is the property's zero, not the pages' sums.
    expect((await queryReport('datenschutz alpine travel')).searchConsole).toMatchObject({
      figures: 'property',
      overTime: [],
    });
  }, 240_000);

  it('reads the same rows from newline-delimited JSON and Parquet; other figures need --replace', async () => {
    expect(imported(SITE_NDJSON)).toContain('nothing changed (imported before)');
    const parquet = path.join(work, 'searchdata_site_impression.parquet');
    const db = await openDatabase();
    const conn = await db.connect();
    await conn.run(
      `COPY (SELECT * FROM read_csv(${quoteLiteral(SITE_CSV)}, header = true, auto_detect = true)) TO ${quoteLiteral(parquet)} (FORMAT parquet)`,
    );
    conn.closeSync();
    db.closeSync();
    expect(imported(parquet)).toContain('nothing changed (imported before)');

    const changed = path.join(work, 'changed.ndjson');
    fs.writeFileSync(changed, fs.readFileSync(SITE_NDJSON, 'utf8').replace('"clicks": "16"', '"clicks": "17"'));
    expectRefusedImport(
      dataDir,
      SITE,
      ['--source', 'search-console', changed],
      `${changed}: 1 rows differ from search_console_site rows imported before (first: date 2026-11-02, query alpine travel)`,
    );
    imported('--replace', changed);
    expect((await siteRows())[0]).toMatchObject({ clicks: 27 });
    imported('--replace', SITE_CSV);
    expect(await siteRows()).toEqual(DAILY);
  }, 240_000);

  it('refuses a bad cell naming file, line and column, and leaves the store as it was', () => {
    const lines = fs.readFileSync(SITE_CSV, 'utf8').split('\n');
    lines[5] = lines[5]!.replace(',350', ',3.5e');
    const bad = path.join(work, 'bad.csv');
    fs.writeFileSync(bad, lines.join('\n'));
    expectRefusedImport(
      dataDir,
      SITE,
      ['--source', 'search-console', bad],
      `${bad}:6:10: sum_top_position "3.5e" is not a number`,
    );
  }, 240_000);
});

describe("the Performance export's Queries.csv", () => {
  // Queries.csv, by hand: alpine travel 210 clicks, 1540 impressions, position 1.9 (already one-based).
  const PERIOD = { start: '2026-11-05', end: '2026-11-12' };

  it('is one period of property totals, placed on its last day and shown as the period', async () => {
    const out = imported(QUERIES_CSV, '--start', PERIOD.start, '--end', PERIOD.end);
    expect(out).toContain('3 rows of Search Console Performance report CSV');
    expect(out).toContain('totals for 2026-11-05 to 2026-11-12 (one period, placed on 2026-11-12)');
    const report = await queryReport('alpine travel');
    expect(report.searchConsole.figures).toBe('property');
    expect(report.searchConsole.overTime.at(-1)).toEqual({
      date: '2026-11-12',
      clicks: 210,
      impressions: 1540,
      ctr: 210 / 1540,
      position: 1.9,
      period: PERIOD,
    });
    // Quoted as Search Console writes a query with a comma.
    expect((await queryReport('urlaub, deutschland')).searchConsole.overTime.map((p) => p.clicks)).toEqual([1, 12]);
  }, 240_000);

  it("refuses daily rows on its period's days without --replace, and the Data sources page counts both", async () => {
    const inPeriod = path.join(work, 'searchdata_site_impression.csv');
    fs.writeFileSync(inPeriod, fs.readFileSync(SITE_CSV, 'utf8').replaceAll('2026-11-03', '2026-11-06'));
    expectRefusedImport(
      dataDir,
      SITE,
      ['--source', 'search-console', inPeriod],
      `${inPeriod}: its rows on 2026-11-06 to 2026-11-06 overlap the totals for 2026-11-05 to 2026-11-12 (one period, search_console_site) imported before`,
    );
    const res = await post(signedIn.app, '/api/data-sources/list', signedIn.sessions.admin, { websiteId: SITE });
    expect(res.statusCode).toBe(200);
    const status = res.json<DataSourcesAnswer>().sources.find((s) => s.id === 'search-console')!;
    expect(status.tables).toEqual({ search_console_site: 7 });
    expect(status.days).toEqual([
      { date: '2026-11-02', rows: 2 },
      { date: '2026-11-03', rows: 2 },
    ]);
    expect(status.periods).toEqual([{ ...PERIOD, rows: 3 }]);
  }, 240_000);
});
