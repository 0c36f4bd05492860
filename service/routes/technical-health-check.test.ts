import fs from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { noRemovals } from '../../catalog/removal-reasons.ts';
import { openDatabase } from '../db/duckdb.ts';
import { CrawlRegistry } from '../store/registry.ts';
import { makeTempDataDir, writeCrawlToStore } from '../test/helpers/make-store.ts';
import { SITE, sampleCrawls } from '../test/helpers/sample-crawls.ts';
import type { AccessCheck } from '../auth/access.ts';
import {
  ARROW_STREAM_TYPE,
  registerTechnicalHealthCheckRoutes,
  TOTAL_COUNT_HEADER,
  type CheckedKeysProvider,
} from './technical-health-check.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const API = '/api/technical-health-check';
const u = (p: string): string => `https://shop.example${p}`;

/** Hides crawl 3 and website "hidden" from requests carrying `x-client: 1`, as a client's session would. */
const clientAccess: AccessCheck = {
  canSeeWebsite: (req, websiteId) => !(req.headers['x-client'] === '1' && websiteId === 'hidden'),
  canSeeCrawl: (req: FastifyRequest, record) => !(req.headers['x-client'] === '1' && record.crawlId === 3),
};

let dataDir: string;
let db: DuckDBInstance;
let registry: CrawlRegistry;
let app: FastifyInstance;
const checkedCalls: string[] = [];

beforeAll(async () => {
  dataDir = makeTempDataDir('thc-routes-');
  for (const crawl of sampleCrawls()) await writeCrawlToStore(dataDir, crawl);
  await writeCrawlToStore(dataDir, { websiteId: 'hidden', crawlId: 1, tables: {} });
  db = await openDatabase();
  registry = await openCrawlRegistry(dataDir, db);
  const checkedKeys: CheckedKeysProvider = (websiteId, reportId, crawlId) => {
    checkedCalls.push(`${websiteId} ${reportId} ${crawlId}`);
    return Promise.resolve(reportId === 'content/thin' ? [{ url: u('/c'), subKeys: [] }] : []);
  };
  app = Fastify();
  const scopes: Record<string, string | null> = { all: null, dups: u('/dup') };
  const segmentScope = (websiteId: string, segmentId: string) =>
    Promise.resolve(websiteId === SITE && segmentId in scopes ? scopes[segmentId] : undefined);
  registerTechnicalHealthCheckRoutes(app, { registry, db, access: clientAccess, checkedKeys, segmentScope });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  db.closeSync();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `${API}${path}`, payload: payload as object, headers });

const rowsBody = (extra: object = {}) => ({
  websiteId: SITE,
  currentId: 2,
  comparisonId: 1,
  reportId: 'status-code/4xx',
  tableId: 'urls',
  dataDateRange: { start: '2025-01-01', end: '2025-01-28' },
  differenceType: 'all',
  segmentId: null,
  showChecked: false,
  userFilter: '',
  channel: null,
  skipCache: false,
  limit: 10,
  offset: 0,
  orderBy: [],
  ...extra,
});

describe('crawl/get-redux', () => {
  it('lists the crawls newest first with their labels and state', async () => {
    const response = await post('/crawl/get-redux', { websiteId: SITE });
    expect(response.statusCode).toBe(200);
    const crawls = response.json<{ id: string; crawlId: number; moduleState: string }[]>();
    expect(crawls.map((c) => c.crawlId)).toEqual([3, 2, 1]);
    expect(crawls[1]).toEqual({
      id: 'shop:2',
      crawlId: 2,
      crawledAt: '2025-01-02T09:00:00.000Z',
      crawledFriendly: '2 Jan 2025',
      label: '2 Jan 2025 (crawl 2)',
      partial: null,
      dataStart: '2025-01-01',
      dataEnd: '2025-01-28',
      moduleState: 'APPROVED',
    });
    expect(crawls[0]!.moduleState).toBe('PENDING');
  });

  it('lists only crawls at or below currentId, and only those the caller may see', async () => {
    const below = await post('/crawl/get-redux', { websiteId: SITE, currentId: 2 });
    expect(below.json<{ crawlId: number }[]>().map((c) => c.crawlId)).toEqual([2, 1]);
    const client = await post('/crawl/get-redux', { websiteId: SITE }, { 'x-client': '1' });
    expect(client.json<{ crawlId: number }[]>().map((c) => c.crawlId)).toEqual([2, 1]);
  });

  it('answers 404 for an unknown or hidden website and 400 naming a bad field', async () => {
    expect((await post('/crawl/get-redux', { websiteId: 'nope' })).statusCode).toBe(404);
    const hidden = await post('/crawl/get-redux', { websiteId: 'hidden' }, { 'x-client': '1' });
    expect([hidden.statusCode, hidden.json()]).toEqual([404, { error: 'website could not be found.' }]);
    const bad = await post('/crawl/get-redux', { websiteId: 42 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'websiteId' });
  });
});

describe('overview/get-overview', () => {
  it('maps every shown report by severity, ranked, with counts against the previous crawl', async () => {
    const response = await post('/overview/get-overview', { websiteId: SITE, currentId: 2, refresh: false });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      moduleId: string;
      severityMap: Record<string, { reports: Record<string, unknown>[] }>;
    }>();
    expect(body.moduleId).toBe('shop:2');
    // The sample crawls fetched /sitemap.xml: no "no sitemap found" notice.
    expect(body).not.toHaveProperty('notice');
    expect(Object.keys(body.severityMap)).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE']);
    const all = Object.values(body.severityMap).flatMap((s) => s.reports);
    expect(all).toHaveLength(catalog.reports.length);
    expect(body.severityMap.CRITICAL!.reports.find((r) => r.reportId === 'status-code/4xx')).toEqual({
      tableId: 'urls',
      reportId: 'status-code/4xx',
      ems_rank: 64,
      ems_lumar_row_count: 1,
      added: 0,
      removed: 1,
      // /old is not in crawl 2 at all: it left unfetched, not fixed.
      removedByReason: { fixed: 0, gone: 0, 'not crawled': 1, 'report changed': 0 },
      // This app has no checklist: verified fixes are unknown, not zero.
      verified: null,
      title: 'Client errors (4xx)',
      category: 'status-code',
      severity: 'CRITICAL',
      // Search Console and analytics are connected, the ads platforms not; no source row lands on its one URL.
      stake: { clicks: 0, impressions: 0, sessions: 0, conversions: 0, revenue: 0, ad_spend: null },
    });
    for (const { reports } of Object.values(body.severityMap)) {
      const ranks = reports.map((r) => [r.ems_rank as number, r.ems_lumar_row_count as number]);
      expect(ranks).toEqual([...ranks].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!));
    }
  });

  it('answers 404 for a crawl the caller may not see', async () => {
    const response = await post('/overview/get-overview', { websiteId: SITE, currentId: 3 }, { 'x-client': '1' });
    expect([response.statusCode, response.json()]).toEqual([404, { error: 'crawl could not be found.' }]);
    expect((await post('/overview/get-overview', { websiteId: SITE, currentId: 9 })).statusCode).toBe(404);
    expect((await post('/overview/get-overview', { websiteId: SITE, currentId: 'x' })).json()).toMatchObject({
      field: 'currentId',
    });
  });
});

describe('report/get-summary', () => {
  it('gives issues per crawl oldest first and the tab counts', async () => {
    const response = await post('/report/get-summary', {
      ...rowsBody({ reportId: 'status-code/5xx' }),
      currentId: 3,
      comparisonId: 2,
      trendCrawlIds: [3, 2, 1],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ trends: { crawlId: number; issues: number }[]; differences: object }>();
    expect(body.trends.map((t) => [t.crawlId, t.issues])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(body.differences).toEqual({ all: 2, added: 1, removed: 0, removedByReason: noRemovals() });
  });

  it('gives no "no sitemap found" notice for a crawl that fetched a sitemap', async () => {
    // The sample crawls fetched /sitemap.xml (200): no notice, there or on any other report.
    const response = await post('/report/get-summary', rowsBody({ reportId: 'sitemap/missing' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).not.toHaveProperty('notice');
  });

  it('counts with the user filter and skips trends of a report without them', async () => {
    const response = await post('/report/get-summary', {
      ...rowsBody({ reportId: 'crawl/all', userFilter: 'dup' }),
      trendCrawlIds: [2, 1],
    });
    expect(response.json()).toEqual({
      trends: [],
      differences: { all: 3, added: 0, removed: 0, removedByReason: noRemovals() },
      // Sources are connected: unsorted rows come most at stake first.
      defaultOrder: 'at-stake',
    });
  });

  it("answers 404 'report could not be found.' for an unknown or hidden report", async () => {
    for (const reportId of ['status-code/6xx', 'images/large', 'nonsense']) {
      const response = await post('/report/get-summary', rowsBody({ reportId }));
      expect([reportId, response.statusCode, response.json()]).toEqual([
        reportId,
        404,
        { error: 'report could not be found.' },
      ]);
    }
  });
});

describe('report/get-rows', () => {
  it('answers JSON rows keyed by column id with the total', async () => {
    const response = await post(
      '/report/get-rows',
      rowsBody({ reportId: 'content/thin', showChecked: true, orderBy: [{ id: 'url', desc: false }] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers[TOTAL_COUNT_HEADER]).toBe('4');
    const body = response.json<{ rows: Record<string, unknown>[]; total: number; nextCursor: unknown }>();
    expect(body.total).toBe(4);
    expect(body.rows.map((r) => [r.url, r.checked])).toEqual([
      [u('/b-near'), false],
      [u('/c'), true],
      [u('/d'), false],
      [u('/d2'), false],
    ]);
    expect(Object.keys(body.rows[0]!)).toEqual([
      'url',
      'page_title',
      'content_size',
      'word_count',
      'html_size',
      'level',
      'deeprank',
      'gsc_impressions',
      'checked',
      'checklist_state',
    ]);
    // /c was checked at the crawl shown; unchecked rows have no state.
    expect(body.rows.map((r) => r.checklist_state)).toEqual([null, 'checked', null, null]);
    expect(body.nextCursor).toBeNull();
    expect(checkedCalls).toContain('shop content/thin 2');
  });

  it('hides checked rows unless showChecked', async () => {
    const body = (await post('/report/get-rows', rowsBody({ reportId: 'content/thin' }))).json<{ total: number }>();
    expect(body.total).toBe(3);
  });

  it('streams Arrow when asked, with the total in the schema metadata and a header', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/report/get-rows`,
      payload: rowsBody({ reportId: 'redirects/chain' }),
      headers: { accept: `${ARROW_STREAM_TYPE}, application/json;q=0.5` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(ARROW_STREAM_TYPE);
    expect(response.headers[TOTAL_COUNT_HEADER]).toBe('1');
    const table = tableFromIPC(response.rawPayload);
    expect(table.schema.metadata.get('total')).toBe('1');
    expect(table.numRows).toBe(1);
    expect(table.getChild('url')?.get(0)).toBe(u('/redirect'));
    expect(typeof table.getChild('redirect_count')?.get(0)).toBe('number');
    const hops = table.getChild('subRows')?.get(0) as { toArray(): { toJSON(): Record<string, unknown> }[] };
    expect(hops.toArray().map((h) => h.toJSON().url)).toEqual([u('/redirect'), u('/redirect-2')]);
  });

  it('streams an empty page as a valid Arrow stream', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/report/get-rows`,
      payload: rowsBody({ reportId: 'content/empty', offset: 100 }),
      headers: { accept: ARROW_STREAM_TYPE },
    });
    const table = tableFromIPC(response.rawPayload);
    expect([table.numRows, table.schema.metadata.get('total')]).toEqual([0, '1']);
  });

  it('streams a page that matched nothing as a valid Arrow stream', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/report/get-rows`,
      payload: rowsBody({ reportId: 'crawl/all', userFilter: 'matches-nothing' }),
      headers: { accept: ARROW_STREAM_TYPE },
    });
    expect(response.statusCode).toBe(200);
    const table = tableFromIPC(response.rawPayload);
    expect([table.numRows, table.schema.metadata.get('total')]).toEqual([0, '0']);
    const sorted = await app.inject({
      method: 'POST',
      url: `${API}/report/get-rows`,
      payload: rowsBody({ reportId: 'links/internal-http', differenceType: 'added' }),
      headers: { accept: ARROW_STREAM_TYPE },
    });
    expect(tableFromIPC(sorted.rawPayload).numRows).toBe(0);
  });

  it("says where 'URLs containing' matched on a report of links: x-filter-matches, filterMatches in JSON", async () => {
    type Link = { url_to: string; primary_url_from: string };
    const all = (await post('/report/get-rows', rowsBody({ reportId: 'links/internal-http' }))).json<{
      rows: Link[];
    }>();
    const linking = new URL(all.rows[0]!.primary_url_from).pathname;
    const expected = {
      linking: all.rows.filter((r) => r.primary_url_from.includes(linking)).length,
      target: all.rows.filter((r) => r.url_to.includes(linking)).length,
    };
    expect(expected.linking).toBeGreaterThan(0);
    const json = await post('/report/get-rows', rowsBody({ reportId: 'links/internal-http', userFilter: linking }));
    expect(json.json<{ filterMatches: unknown }>().filterMatches).toEqual(expected);
    const arrow = await app.inject({
      method: 'POST',
      url: `${API}/report/get-rows`,
      payload: rowsBody({ reportId: 'links/internal-http', userFilter: linking }),
      headers: { accept: ARROW_STREAM_TYPE },
    });
    expect(JSON.parse(String(arrow.headers['x-filter-matches']))).toEqual(expected);
    const pages = await post('/report/get-rows', rowsBody({ reportId: 'crawl/all', userFilter: linking }));
    expect(pages.headers['x-filter-matches']).toBeUndefined();
    expect(pages.json<object>()).not.toHaveProperty('filterMatches');
  });

  it('reads the Removed tab from the comparison crawl', async () => {
    const body = (await post('/report/get-rows', rowsBody({ differenceType: 'removed' }))).json<{
      rows: { url: string; http_status_code: number }[];
    }>();
    expect(body.rows.map((r) => [r.url, r.http_status_code])).toEqual([[u('/old'), 410]]);
  });

  it('answers 400 naming the field for a bad payload or an unknown sort column', async () => {
    const cases: [object, string][] = [
      [{ limit: 7 }, 'limit'],
      [{ offset: -10 }, 'offset'],
      [{ orderBy: [{ id: 'nope', desc: true }] }, 'orderBy.0.id'],
      [{ orderBy: [{ id: 42 }] }, 'orderBy.0.id'],
      [{ differenceType: 'changed' }, 'differenceType'],
      [{ dataDateRange: { start: 'yesterday', end: '2025-01-28' } }, 'dataDateRange.start'],
      [{ currentId: -1 }, 'currentId'],
    ];
    for (const [extra, field] of cases) {
      const response = await post('/report/get-rows', rowsBody(extra));
      expect([field, response.statusCode, response.json<{ field: string }>().field]).toEqual([field, 400, field]);
    }
  });

  it('keeps an SQL injection attempt in every string field inert', async () => {
    const evil = `x'); DROP TABLE urls; --`;
    const textFields = { userFilter: evil, channel: evil, tableId: evil };
    expect((await post('/report/get-rows', rowsBody({ segmentId: evil }))).statusCode).toBe(404);
    const response = await post('/report/get-rows', rowsBody({ reportId: 'crawl/all', ...textFields }));
    expect([response.statusCode, response.json<{ total: number }>().total]).toEqual([200, 0]);
    expect((await post('/report/get-rows', rowsBody({ reportId: evil }))).statusCode).toBe(404);
    expect((await post('/report/get-rows', rowsBody({ websiteId: evil }))).statusCode).toBe(404);
    expect((await post('/report/get-rows', rowsBody({ orderBy: [{ id: evil, desc: false }] }))).statusCode).toBe(400);
    expect((await post('/report/get-rows', rowsBody({ after: [evil] }))).statusCode).toBe(200);
    const summary = await post('/report/get-summary', { ...rowsBody({ reportId: 'crawl/all' }), ...textFields });
    expect(summary.statusCode).toBe(200);
    const after = await post('/report/get-rows', rowsBody({ reportId: 'crawl/all' }));
    expect(after.json<{ total: number }>().total).toBe(14);
  });

  it("keeps to the segment's URL scope, and answers 404 for an unknown segment", async () => {
    const scoped = await post('/report/get-rows', rowsBody({ reportId: 'crawl/all', segmentId: 'dups' }));
    expect(scoped.json<{ rows: { url: string }[] }>().rows.map((r) => r.url)).toEqual([
      u('/dup1'),
      u('/dup2'),
      u('/dup3'),
    ]);
    const whole = await post('/report/get-rows', rowsBody({ reportId: 'crawl/all', segmentId: 'all' }));
    expect(whole.json<{ total: number }>().total).toBe(14);
    const summary = await post('/report/get-summary', {
      ...rowsBody({ reportId: 'content/duplicate', segmentId: 'dups' }),
      trendCrawlIds: [2, 1],
    });
    expect(summary.json<{ trends: { issues: number }[] }>().trends.map((t) => t.issues)).toEqual([2, 2]);
    const unknown = await post('/report/get-rows', rowsBody({ segmentId: 'nope' }));
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { error: 'segment could not be found.' }]);
  });

  it('pages a chunked export by cursor', async () => {
    const seen: string[] = [];
    let after: string[] | null = null;
    do {
      const body: { rows: { url: string }[]; nextCursor: string[] | null } = (
        await post('/report/get-rows', rowsBody({ reportId: 'crawl/all', after }))
      ).json();
      seen.push(...body.rows.map((r) => r.url));
      after = body.nextCursor;
    } while (after);
    expect(seen).toHaveLength(14);
    expect([...seen].sort()).toEqual(seen);
  });
});
