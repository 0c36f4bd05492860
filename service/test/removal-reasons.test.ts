/**
 * Why each row left (issue 30 §1), through the whole app over crawls written as Parquet and loaded by the loader:
 * a page fixed, pages gone (404, 301), a page not crawled (robots), a report whose threshold changed between the
 * crawls, and near misses for each (a page reached only through the sitemap but fetched, a page still wrong, a
 * thin page fixed under both thresholds).
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview, OverviewReport, ReportSummary } from '../../catalog/api.ts';
import { catalog } from '../../catalog/index.ts';
import { openDatabase } from '../db/duckdb.ts';
import { precomputeCrawl } from '../engine/precompute.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { readCurrentLoad } from '../store/layout.ts';
import { openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';
import { makeExport } from './helpers/make-export.ts';

const SITE = 'shop';
const BASE = '/api/technical-health-check';
const W = 'https://www.example.com';

interface Page {
  path: string;
  status?: number;
  h1?: number;
  content?: number;
  inWebCrawl?: boolean;
}

const pagesSql = (pages: readonly Page[]): string =>
  `(VALUES ${pages
    .map((p) => `('${W}${p.path}', ${p.status ?? 200}, ${p.h1 ?? 1}, ${p.content ?? 9000}, ${p.inWebCrawl ?? true})`)
    .join(', ')}) AS r(url, status, h1, content, in_web_crawl)`;

const urlColumns = {
  url: 'url',
  http_status_code: 'CAST(status AS INTEGER)',
  indexable: 'status = 200',
  internal: 'TRUE',
  found_in_web_crawl: 'in_web_crawl',
  found_in_sitemap: 'NOT in_web_crawl',
  page_title: "'Title ' || url",
  html_size: 'CAST(20000 AS INTEGER)',
  word_count: 'CAST(400 AS INTEGER)',
  h1_count: 'CAST(h1 AS INTEGER)',
  content_size: 'CAST(content AS INTEGER)',
  level: 'CAST(1 AS INTEGER)',
  fetch_time: 'CAST(0.2 AS DOUBLE)',
  redirect_chain: null,
  h1_tag: null,
  page_title_length: null,
};

const linksSql = (froms: readonly string[]): string =>
  `(VALUES ${froms.map((f) => `('${W}${f}', '${W}/dead')`).join(', ')}) AS r(url_from, url_to)`;
const linkColumns = {
  url_from: 'url_from',
  url_to: 'url_to',
  internal: 'TRUE',
  anchor_text: "'Dead'",
  url_to_status_code: 'CAST(404 AS INTEGER)',
};

const crawl1: Page[] = [
  { path: '/' },
  { path: '/fixed', h1: 0 },
  { path: '/gone', h1: 0 },
  { path: '/moved', h1: 0 },
  { path: '/blocked', h1: 0 },
  { path: '/sitemap-only', h1: 0 },
  { path: '/still', h1: 0 },
  { path: '/midsize', content: 3500 },
  { path: '/small', content: 3000 },
];
const crawl2: Page[] = [
  { path: '/' },
  { path: '/fixed' },
  { path: '/gone', status: 404 },
  { path: '/moved', status: 301 },
  { path: '/sitemap-only', inWebCrawl: false },
  { path: '/still', h1: 0 },
  { path: '/midsize', content: 3500 },
  { path: '/small', content: 3500 },
];

async function loadExport(dataDir: string, crawlId: number, pages: Page[], linkFroms: string[], blocked: string[]) {
  const made = await makeExport({
    manifest: { websiteId: SITE, crawlId, crawledAt: `2026-11-0${crawlId}T09:00:00Z` },
    tables: {
      urls: { from: pagesSql(pages), columns: urlColumns },
      links: { from: linksSql(linkFroms), columns: linkColumns },
      uncrawled_urls: {
        from: `(VALUES ${['/admin', ...blocked].map((b) => `('${W}${b}', 'robots_disallowed')`).join(', ')}) AS r(url, reason)`,
        columns: { url: 'url', restricted_reason: 'reason', found_at_url: `'${W}/'` },
      },
    },
  });
  try {
    await loadCrawl({ dataDir, exportDir: made.dir });
  } finally {
    fs.rmSync(made.dir, { recursive: true, force: true });
  }
}

/** Crawl 1 as an older build's catalogue listed it: content/thin under a threshold of 4096 bytes. */
async function precomputeUnderOlderThreshold(dataDir: string): Promise<void> {
  const live = readCurrentLoad(dataDir, SITE, 1)!;
  const reports = catalog.reports.map((r) =>
    r.id === 'content/thin' ? { ...r, filter: r.filter.replace('{THIN_CONTENT}', '4096') } : r,
  );
  const db = await openDatabase(live.dbFile);
  const conn = await db.connect();
  try {
    await precomputeCrawl(conn, { manifest: live.meta.manifest, previous: undefined }, { reports });
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

let signedIn: SignedInApp<'staff'> | undefined;
let app: FastifyInstance;
let staff: Session;

beforeAll(async () => {
  const dataDir = tempDir('thc-removal-');
  await loadExport(dataDir, 1, crawl1, ['/gone', '/fixed', '/still'], []);
  await precomputeUnderOlderThreshold(dataDir);
  await loadExport(dataDir, 2, crawl2, ['/still'], ['/blocked']);
  // Crawl 3 repeats crawl 2; compared with crawl 1 its Removed tab is computed live, not precomputed.
  await loadExport(dataDir, 3, crawl2, ['/still'], ['/blocked']);
  signedIn = await openSignedInApp(dataDir, '2026-11-30T09:00:00Z', ['staff']);
  ({ app } = signedIn);
  staff = signedIn.sessions.staff;
}, 400_000);
afterAll(() => signedIn?.close());

const call = (path: string, body: object) =>
  post(app, `${BASE}/${path}`, staff, { websiteId: SITE, currentId: 2, comparisonId: 1, tableId: 'urls', ...body });

async function removedRows(reportId: string, body: object = {}): Promise<Record<string, unknown>[]> {
  const response = await call('report/get-rows', { reportId, differenceType: 'removed', limit: 100, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ rows: Record<string, unknown>[] }>().rows;
}

const reasonsByUrl = (rows: Record<string, unknown>[], column = 'url') =>
  Object.fromEntries(rows.map((r) => [String(r[column]).slice(W.length), r.removal_reason]));

describe('removal reasons', () => {
  it('gives each removed row of a report of pages its reason; a page still wrong is not removed', async () => {
    expect(reasonsByUrl(await removedRows('content/missing-h1'))).toEqual({
      '/fixed': 'fixed',
      '/gone': 'gone',
      '/moved': 'gone',
      '/blocked': 'not crawled',
      // Reached only through the sitemap this time, but fetched: crawled, so fixed.
      '/sitemap-only': 'fixed',
    });
  });

  it('decides a removed link by its linking page', async () => {
    expect(reasonsByUrl(await removedRows('links/internal-broken'), 'url_from')).toEqual({
      '/gone': 'gone',
      '/fixed': 'fixed',
    });
  });

  it('says "report changed" where the older definition listed a row the new one would not have', async () => {
    expect(reasonsByUrl(await removedRows('content/thin'))).toEqual({
      '/midsize': 'report changed',
      // Thin under both thresholds in crawl 1 and not thin in crawl 2: fixed.
      '/small': 'fixed',
    });
  });

  it('counts each reason in the summary and filters the tab by one', async () => {
    const response = await call('report/get-summary', { reportId: 'content/missing-h1' });
    const summary = response.json<ReportSummary>();
    expect(summary.differences.removed).toBe(5);
    expect(summary.differences.removedByReason).toEqual({
      fixed: 2,
      gone: 2,
      'not crawled': 1,
      'report changed': 0,
    });
    const gone = await removedRows('content/missing-h1', { removalReason: 'gone' });
    expect(gone.map((r) => r.url)).toEqual([`${W}/gone`, `${W}/moved`]);
    const refused = await call('report/get-rows', { reportId: 'content/missing-h1', removalReason: 'vanished' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toMatch(/removalReason/);
  });

  it('computes the same reasons live when the comparison is not the precomputed one', async () => {
    const live = await removedRows('content/missing-h1', { currentId: 3, comparisonId: 1 });
    expect(reasonsByUrl(live)).toEqual(reasonsByUrl(await removedRows('content/missing-h1')));
    const filtered = await removedRows('content/missing-h1', {
      currentId: 3,
      comparisonId: 1,
      removalReason: 'not crawled',
    });
    expect(filtered.map((r) => r.url)).toEqual([`${W}/blocked`]);
  });

  it("splits the overview's Removed into its reasons", async () => {
    const response = await post(app, `${BASE}/overview/get-overview`, staff, {
      websiteId: SITE,
      currentId: 2,
      comparisonId: 1,
    });
    const overview = response.json<Overview>();
    const entries = Object.values(overview.severityMap).flatMap((s) => s.reports);
    const entry = (id: string): OverviewReport => entries.find((e) => e.reportId === id)!;
    expect(entry('content/missing-h1').removedByReason).toEqual({
      fixed: 2,
      gone: 2,
      'not crawled': 1,
      'report changed': 0,
    });
    expect(entry('content/thin').removedByReason).toMatchObject({ fixed: 1, 'report changed': 1 });
  });

  it('writes the reason as a CSV column on the Removed tab only', async () => {
    const csv = (differenceType: string) =>
      call('report/export-csv', { reportId: 'content/missing-h1', differenceType, orderBy: [] });
    const removed = (await csv('removed')).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(removed[0]).toMatch(/,Removal reason$/);
    expect(removed.filter((line) => line.startsWith(`${W}/blocked,`))[0]).toMatch(/,not crawled$/);
    expect((await csv('all')).body).not.toContain('Removal reason');
  });
});
