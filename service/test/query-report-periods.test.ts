/**
 * The query report says which days hold one period's totals: the Search Analytics API's response without a date key
 * is imported with --start/--end and placed on the period's last day, and the report marks that day with the period
 * while the days of a daily response stay plain days.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryReport } from '../../catalog/api.ts';
import { generateSite } from '../../scripts/fixtures/generate.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { runImportData } from './helpers/import-cli.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sources/search-console/api');
const SITE = 'alpine-travel';

let dataDir: string;
let signedIn: SignedInApp<'admin'>;

async function queryReport(text: string): Promise<QueryReport> {
  await signedIn.stack.registry.refresh();
  const res = await post(signedIn.app, '/api/technical-health-check/query/get-report', signedIn.sessions.admin, {
    websiteId: SITE,
    query: text,
  });
  expect(res.statusCode).toBe(200);
  return res.json<QueryReport>();
}

function importApi(file: string, ...args: string[]): void {
  const run = runImportData(dataDir, SITE, ['--source', 'search-console', file, ...args]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

beforeAll(async () => {
  const out = tempDir('thc-periods-exports-');
  const { crawlDirs } = await generateSite({ outDir: out, site: SITE, urls: 200, crawls: 1 });
  dataDir = tempDir('thc-periods-data-');
  for (const dir of crawlDirs) {
    for (const table of ['search_console', 'search_console_queries'])
      fs.rmSync(path.join(dir, `${table}.parquet`), { force: true });
    await loadCrawl({ dataDir, exportDir: dir });
  }
  signedIn = await openSignedInApp(dataDir, '2026-11-20T09:00:00Z', ['admin']);
}, 300_000);

afterAll(() => signedIn?.close());

describe('query report periods', () => {
  it('marks the day holding a period total with its period and leaves daily rows as days', async () => {
    importApi(path.join(FIXTURES, 'searchanalytics-date-page-query.json'));
    const daily = await queryReport('alpine travel');
    expect(daily.searchConsole.overTime.map((p) => [p.date, p.period])).toEqual([
      ['2026-11-09', null],
      ['2026-11-10', null],
    ]);

    const work = tempDir('thc-periods-files-');
    const body = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'searchanalytics-date-page-query.json'), 'utf8')) as {
      rows: { keys: string[] }[];
    };
    const withoutDates = { ...body, rows: body.rows.map((r) => ({ ...r, keys: r.keys.slice(1) })) };
    const periodFile = path.join(work, 'searchanalytics-page-query.json');
    fs.writeFileSync(periodFile, JSON.stringify(withoutDates));
    importApi(periodFile, '--start', '2026-11-01', '--end', '2026-11-07');

    const report = await queryReport('alpine travel');
    expect(report.searchConsole.overTime.map((p) => [p.date, p.period])).toEqual([
      ['2026-11-07', { start: '2026-11-01', end: '2026-11-07' }],
      ['2026-11-09', null],
      ['2026-11-10', null],
    ]);
    const periodRow = report.searchConsole.overTime[0]!;
    const fromFile = body.rows.filter((r) => r.keys[2] === 'alpine travel');
    expect(periodRow.clicks).toBe(fromFile.reduce((sum, r) => sum + (r as unknown as { clicks: number }).clicks, 0));
  }, 300_000);
});
