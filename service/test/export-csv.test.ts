/**
 * The three CSV exports (spec §9) over one store: POST /api/technical-health-check/report/export-csv through the
 * whole app with sign-in and the access rules, `npm run export-csv` as a child process, and the dashboard's
 * chunked export calling the service over loopback HTTP.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSV_BOM } from '../../catalog/constants.ts';
import { reportById } from '../../catalog/index.ts';
import { cellText } from '../../catalog/cell-format.ts';
import { csvLine } from '../../catalog/csv.ts';
import { writeReportCsv } from '../../web/src/features/report/write-report-csv.ts';
import { exportColumns } from '../export/csv.ts';
import { openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';
import { writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';
import { SITE, sampleCrawls } from './helpers/sample-crawls.ts';

const EXPORT = '/api/technical-health-check/report/export-csv';
const LARGE_ROWS = 5_000;
/** The URLs of the large website, in URL order. */
const largeUrls = Array.from({ length: LARGE_ROWS }, (_, i) => `https://large.example/p/${String(i).padStart(5, '0')}`);
const ROWS = '/api/technical-health-check/report/get-rows';
const REPORT = 'crawl/all';
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const hostile: Record<string, string> = {
  '/formula': '=HYPERLINK("http://evil.example","click")',
  '/plus': '+44 1234',
  '/minus': '-1 and, a comma',
  '/at': '@SUM(A1)',
  '/quoted': 'Say "hello"\nthen leave',
  '/tab': '\t=1+2',
  '/carriage-return': '\r-2+3',
};

let signedIn: SignedInApp<'otherClient' | 'staff' | 'admin'> | undefined;
let app: FastifyInstance;
let staff: Session;
let otherClient: Session;
let admin: Session;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('thc-export-');
  for (const crawl of sampleCrawls().filter((c) => c.crawlId <= 2)) {
    const urls = [...(crawl.tables.urls ?? [])];
    if (crawl.crawlId === 2) {
      const template: FixtureRow = urls[0]!;
      for (const [p, title] of Object.entries(hostile))
        urls.push({ ...template, url: `https://shop.example${p}`, page_title: title });
    }
    await writeCrawlToStore(dataDir, { ...crawl, tables: { ...crawl.tables, urls } });
  }
  const blog = sampleCrawls()[0]!;
  await writeCrawlToStore(dataDir, { ...blog, websiteId: 'blog' });
  // Several of DuckDB's 2,048-row chunks, so that the export streams more than one piece.
  const template: FixtureRow = blog.tables.urls![0]!;
  await writeCrawlToStore(dataDir, {
    ...blog,
    websiteId: 'large',
    tables: { ...blog.tables, urls: largeUrls.map((url) => ({ ...template, url })) },
  });
  signedIn = await openSignedInApp(dataDir, '2025-03-10T09:00:00Z', ['otherClient', 'staff', 'admin']);
  ({ app } = signedIn);
  ({ staff, otherClient, admin } = signedIn.sessions);
});
afterAll(() => signedIn?.close());

const payload = { websiteId: SITE, currentId: 2, reportId: REPORT };
/** The app on a loopback port (listening from the first call on), as its origin. */
async function listening(): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
const lines = (body: string): string[] => body.slice(CSV_BOM.length).split('\r\n').slice(0, -1);

describe('POST report/export-csv', () => {
  it('streams the whole tab as CSV with a BOM, the catalogue titles and an attachment name', async () => {
    const response = await post(app, EXPORT, staff, payload);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="all_crawled_urls_2_jan_2025_crawl_2_\d{10}\.csv"/,
    );
    expect(response.body.startsWith(CSV_BOM)).toBe(true);
    expect(response.body.endsWith('\r\n')).toBe(true);
    const titles = exportColumns(reportById(REPORT)!).map((c) => c.title);
    expect(lines(response.body)[0]).toBe(csvLine(titles));
    expect(titles[0]).toBe('URL');
  });

  it('quotes per RFC 4180 and neutralises spreadsheet formulas', async () => {
    const body = (await post(app, EXPORT, staff, payload)).body;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(body).toContain(`,'+44 1234,`);
    expect(body).toContain(`,"'-1 and, a comma",`);
    expect(body).toContain(`,'@SUM(A1),`);
    expect(body).toContain(`,"Say ""hello""\nthen leave",`);
    expect(body).toContain(`,'\t=1+2,`);
    expect(body).toContain(`,"'\r-2+3",`);
  });

  it('writes every row get-rows counts, byte for byte as the browser export writes them', async () => {
    const body = (await post(app, EXPORT, staff, payload)).body;
    const page = await post(app, ROWS, staff, { ...payload, limit: 1000 });
    const { rows, total } = page.json<{ rows: Record<string, unknown>[]; total: number }>();
    expect(total).toBeGreaterThan(10);
    expect(total).toBe(rows.length);
    const columns = exportColumns(reportById(REPORT)!);
    const expected = [
      csvLine(columns.map((c) => c.title)),
      ...rows.map((r) => csvLine(columns.map((c) => cellText(r[c.id], c.format)))),
    ];
    expect(body).toBe(`${CSV_BOM}${expected.join('\r\n')}\r\n`);
  });

  it('applies the tab, the URL filter and the sort like get-rows', async () => {
    const filtered = { ...payload, userFilter: 'dup', orderBy: [{ id: 'url', desc: true }] };
    const body = (await post(app, EXPORT, staff, filtered)).body;
    const page = (await post(app, ROWS, staff, { ...filtered, limit: 1000 })).json<{
      rows: { url: string }[];
      total: number;
    }>();
    expect(page.total).toBe(3);
    expect(
      lines(body)
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(page.rows.map((r) => r.url));
    const added = await post(app, EXPORT, staff, { ...payload, differenceType: 'added' });
    const addedTotal = (await post(app, ROWS, staff, { ...payload, differenceType: 'added' })).json<{ total: number }>()
      .total;
    expect(lines(added.body)).toHaveLength(addedTotal + 1);
  });

  it('answers 404 to a client of another website, exactly as for a website that does not exist', async () => {
    const response = await post(app, EXPORT, otherClient, payload);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'website could not be found.' });
    expect((await post(app, EXPORT, staff, { ...payload, reportId: 'crawl/nope' })).statusCode).toBe(404);
    expect((await post(app, EXPORT, staff, { ...payload, currentId: 9 })).statusCode).toBe(404);
  });

  it('answers 400 naming the field of a bad payload', async () => {
    const bad = await post(app, EXPORT, staff, { ...payload, currentId: 'two' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'currentId' });
    const badSort = await post(app, EXPORT, staff, { ...payload, orderBy: [{ id: 'no_such_column' }] });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json()).toMatchObject({ field: expect.stringContaining('orderBy') as unknown });
  });
});

describe('POST report/export-csv over a socket', () => {
  const largePayload = { websiteId: 'large', currentId: 1, reportId: REPORT, orderBy: [{ id: 'url', desc: false }] };
  const send = (origin: string, signal?: AbortSignal) =>
    fetch(`${origin}${EXPORT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin.cookie, 'x-csrf-token': admin.csrfToken },
      body: JSON.stringify(largePayload),
      signal,
    });

  it('streams every row of a tab of several chunks in order, and serves on after a client hangs up mid-stream', async () => {
    const origin = await listening();
    const abort = new AbortController();
    const cut = await send(origin, abort.signal);
    expect(cut.status).toBe(200);
    const reader = cut.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    abort.abort();
    await reader.read().catch(() => undefined);

    const whole = await send(origin);
    expect(whole.status).toBe(200);
    const urls = lines(await whole.text())
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(urls).toEqual(largeUrls);
  });
});

describe('npm run export-csv', () => {
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'scripts/export-csv.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    });

  it('writes the same bytes as the call', async () => {
    const out = path.join(tempDir('thc-export-cli-'), 'all.csv');
    const { stderr } = await cli(['--website', SITE, '--crawl', '2', '--report', REPORT, '--out', out]);
    expect(stderr).toMatch(/^export-csv: \d+ rows of crawl\/all → .*all\.csv in /);
    const body = (await post(app, EXPORT, staff, payload)).body;
    const written = fs.readFileSync(out, 'utf8');
    expect(written).toBe(body);
    expect(written).toContain(`,'\t=1+2,`);
    expect(written).toContain(`,"'\r-2+3",`);
  });

  it('refuses an unknown report with one line and exit code 1', async () => {
    const failed = await cli(['--website', SITE, '--crawl', '2', '--report', 'crawl/nope']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stderr: 'export-csv: report crawl/nope could not be found.\n' });
  });

  it('refuses bad usage with exit code 2', async () => {
    const failed = await cli(['--website', SITE, '--crawl', 'x', '--report', REPORT]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr.split('\n')).toHaveLength(2);
  });
});

describe("the dashboard's chunked export", () => {
  it('writes the same bytes as the call, formulas neutralised, through get-rows over HTTP', async () => {
    const origin = await listening();
    const crawls = (await post(app, '/api/technical-health-check/crawl/get-redux', staff, { websiteId: SITE })).json<
      { crawlId: number; dataStart: string; dataEnd: string }[]
    >();
    const crawl = crawls.find((c) => c.crawlId === 2)!;
    const fetchOfBrowser = globalThis.fetch;
    // What a browser adds to the dashboard's same-origin calls: the page's origin and the session cookie.
    vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) =>
      fetchOfBrowser(new URL(input, origin), {
        ...init,
        headers: { ...(init.headers as Record<string, string>), cookie: staff.cookie },
      }),
    );
    try {
      const progress: number[] = [];
      const blob = await writeReportCsv(
        {
          query: {
            websiteId: SITE,
            segmentId: null,
            currentId: 2,
            comparisonId: 1,
            dataDateRange: { start: crawl.dataStart, end: crawl.dataEnd },
            differenceType: 'all',
            reportId: REPORT,
            tableId: reportById(REPORT)!.tableId,
            showChecked: true,
            userFilter: '',
            channel: null,
          },
          orderBy: [],
          columns: exportColumns(reportById(REPORT)!),
        },
        ({ done }) => progress.push(done),
      );
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
      expect(progress.length).toBeGreaterThan(0);
      expect(text).toContain(`,'\t=1+2,`);
      expect(text).toContain(`,"'\r-2+3",`);
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(text).toBe((await post(app, EXPORT, staff, payload)).body);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
