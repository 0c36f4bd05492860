/**
 * The authorization matrix: every call × {anonymous, CLIENT of this website, CLIENT of another website, STAFF of
 * this website, STAFF of another website, ADMIN} × {approved crawl, pending crawl}, each cell with its exact status and body check. Refusals must be
 * the exact bodies the report calls give for something that does not exist, so they leak nothing.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import {
  APPROVED,
  NOT_SIGNED_IN,
  PENDING,
  adminCells,
  same,
  status,
  type Cell,
  type Check,
  type Who,
} from './helpers/auth-matrix-cells.ts';
import { loadTestCrawl, openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';

const REPORT = 'meta/short-titles';

const WEBSITE_NOT_FOUND = { error: 'website could not be found.' };
const CRAWL_NOT_FOUND = { error: 'crawl could not be found.' };
const INTERNAL_ONLY = { error: 'Only internal users can approve crawls' };
const AI_NOT_ENABLED = { error: 'AI suggestions are not enabled for this website.' };

// The other website's staff goes before this website's, so its refused approval meets a crawl still pending.
const everyone: Who[] = ['anonymous', 'client', 'otherClient', 'otherStaff', 'staff', 'admin'];

let signedIn: SignedInApp<Exclude<Who, 'anonymous'>> | undefined;
let app: FastifyInstance;
let sessions: Partial<Record<Who, Session>> = {};

beforeAll(async () => {
  const dataDir = tempDir();
  await loadTestCrawl(dataDir, 'shop', APPROVED, '2025-03-01T09:00:00Z');
  await loadTestCrawl(dataDir, 'shop', PENDING, '2025-03-08T09:00:00Z');
  await loadTestCrawl(dataDir, 'blog', 1, '2025-03-01T09:00:00Z');
  signedIn = await openSignedInApp(
    dataDir,
    '2025-03-10T09:00:00Z',
    ['client', 'otherClient', 'staff', 'otherStaff', 'admin'],
    async (stack) => {
      await stack.state.approvals.approve('shop', APPROVED, 'staff@agency.example');
      await stack.state.approvals.approve('blog', 1, 'staff@agency.example');
    },
  );
  ({ app, sessions } = signedIn);
});
afterAll(() => signedIn?.close());

const call = (url: string, who: Who, payload: object): Promise<LightMyRequestResponse> =>
  post(app, url, who === 'anonymous' ? undefined : sessions[who], payload);

/** A 200 whose body mentions only the crawls listed (moduleIds `shop:<id>`). */
const okWithCrawls =
  (...crawlIds: number[]): Check =>
  (response) => {
    expect(response.statusCode).toBe(200);
    const mentioned = [...response.body.matchAll(/"shop:(\d+)"/g)].map((m) => Number(m[1]));
    expect([...new Set(mentioned)].sort()).toEqual([...crawlIds].sort());
    expect(response.body).not.toContain('blog');
  };

const hidden = { [APPROVED]: status(200), [PENDING]: status(404, CRAWL_NOT_FOUND) };
const refusals = {
  anonymous: same(status(401, NOT_SIGNED_IN)),
  otherClient: same(status(404, WEBSITE_NOT_FOUND)),
  otherStaff: same(status(404, WEBSITE_NOT_FOUND)),
};
const reportPayload = (crawlId: number) => ({ websiteId: 'shop', currentId: crawlId, reportId: REPORT });

const readCells: Cell[] = [
  {
    call: 'crawl/get-redux',
    url: '/api/technical-health-check/crawl/get-redux',
    payload: (crawlId) => ({ websiteId: 'shop', currentId: crawlId }),
    expected: {
      ...refusals,
      client: same(okWithCrawls(APPROVED)),
      staff: { [APPROVED]: okWithCrawls(APPROVED), [PENDING]: okWithCrawls(APPROVED, PENDING) },
      admin: { [APPROVED]: okWithCrawls(APPROVED), [PENDING]: okWithCrawls(APPROVED, PENDING) },
    },
  },
  {
    call: 'overview/get-overview',
    url: '/api/technical-health-check/overview/get-overview',
    payload: (crawlId) => ({ websiteId: 'shop', currentId: crawlId }),
    expected: {
      ...refusals,
      client: { [APPROVED]: okWithCrawls(APPROVED), [PENDING]: status(404, CRAWL_NOT_FOUND) },
      staff: { [APPROVED]: okWithCrawls(APPROVED), [PENDING]: okWithCrawls(PENDING) },
      admin: { [APPROVED]: okWithCrawls(APPROVED), [PENDING]: okWithCrawls(PENDING) },
    },
  },
  ...(['get-summary', 'get-rows'] as const).map((name): Cell => ({
    call: `report/${name}`,
    url: `/api/technical-health-check/report/${name}`,
    payload: reportPayload,
    expected: { ...refusals, client: hidden, staff: same(status(200)), admin: same(status(200)) },
  })),
  {
    call: 'report/export-csv',
    url: '/api/technical-health-check/report/export-csv',
    payload: reportPayload,
    expected: { ...refusals, client: hidden, staff: same(status(200)), admin: same(status(200)) },
  },
  {
    call: 'query/get-report',
    url: '/api/technical-health-check/query/get-report',
    payload: (crawlId) => ({ websiteId: 'shop', query: 'boots', currentId: crawlId }),
    expected: { ...refusals, client: hidden, staff: same(status(200)), admin: same(status(200)) },
  },
  {
    // The test websites' segments have AI off: a caller who may see the website learns that, and no more.
    call: 'ai/get-data',
    url: '/api/ai/get-data',
    payload: () => ({ websiteId: 'shop', url: 'https://www.example.com/', type: 'page-title' }),
    expected: {
      ...refusals,
      client: same(status(400, AI_NOT_ENABLED)),
      staff: same(status(400, AI_NOT_ENABLED)),
      admin: same(status(400, AI_NOT_ENABLED)),
    },
  },
  {
    call: 'checklist/get-items',
    url: '/api/technical-health-check/checklist/get-items',
    payload: (crawlId) => ({ websiteId: 'shop', reportId: REPORT, crawlId }),
    expected: { ...refusals, client: hidden, staff: same(status(200)), admin: same(status(200)) },
  },
  ...(['get-settings', 'list'] as const).map((name): Cell => ({
    call: `crawl-runs/${name}`,
    url: `/api/crawl-runs/${name}`,
    payload: () => ({ websiteId: 'shop' }),
    expected: {
      ...refusals,
      client: same(status(404, WEBSITE_NOT_FOUND)),
      staff: same(status(200)),
      admin: same(status(200)),
    },
  })),
  {
    call: 'websites/list',
    url: '/api/websites/list',
    payload: () => ({}),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same((r) => expect(r.json<{ websites: { id: string }[] }>().websites.map((w) => w.id)).toEqual(['shop'])),
      otherClient: same((r) =>
        expect(r.json<{ websites: { id: string }[] }>().websites.map((w) => w.id)).toEqual(['blog']),
      ),
      staff: same((r) => expect(r.json<{ websites: { id: string }[] }>().websites.map((w) => w.id)).toEqual(['shop'])),
      otherStaff: same((r) =>
        expect(r.json<{ websites: { id: string }[] }>().websites.map((w) => w.id)).toEqual(['blog']),
      ),
      admin: same((r) =>
        expect(r.json<{ websites: { id: string }[] }>().websites.map((w) => w.id)).toEqual(['blog', 'shop']),
      ),
    },
  },
];

/** Cells that change state, run in this order after the reads. */
const writeCells: Cell[] = [
  {
    call: 'checklist/save',
    url: '/api/technical-health-check/checklist/save',
    payload: (crawlId) => ({
      websiteId: 'shop',
      setChecked: [{ url: `https://www.example.com/never-listed-${crawlId}`, subKeys: [] }],
      setUnchecked: [],
      start: crawlId,
      submodule: REPORT,
      module: 'technical-health-check',
      end: null,
    }),
    expected: {
      ...refusals,
      // The latest crawl a client sees is the approved one; internal users see the pending one as latest.
      client: { [APPROVED]: status(200, { checked: 1, unchecked: 0 }), [PENDING]: status(404, CRAWL_NOT_FOUND) },
      staff: {
        [APPROVED]: status(400, { error: 'Checklist items can only be saved on the latest crawl (2)' }),
        [PENDING]: status(200, { checked: 1, unchecked: 0 }),
      },
      admin: {
        [APPROVED]: status(400, { error: 'Checklist items can only be saved on the latest crawl (2)' }),
        [PENDING]: status(200, { checked: 0, unchecked: 0 }),
      },
    },
  },
  {
    call: 'crawl/approve',
    url: '/api/technical-health-check/crawl/approve',
    payload: (crawlId) => ({ moduleId: `shop:${crawlId}`, websiteId: 'shop' }),
    expected: {
      anonymous: same(status(401, NOT_SIGNED_IN)),
      client: same(status(403, INTERNAL_ONLY)),
      otherClient: same(status(403, INTERNAL_ONLY)),
      otherStaff: same(status(404, WEBSITE_NOT_FOUND)),
      staff: {
        [APPROVED]: (r) => expect([r.statusCode, r.json<{ isNew: boolean }>().isNew]).toEqual([200, false]),
        [PENDING]: (r) => expect([r.statusCode, r.json<{ isNew: boolean }>().isNew]).toEqual([200, true]),
      },
      admin: same((r) => expect([r.statusCode, r.json<{ isNew: boolean }>().isNew]).toEqual([200, false])),
    },
  },
];

const staffOnly = { ...refusals, client: same(status(404, WEBSITE_NOT_FOUND)) };
const ALREADY_ACTIVE = { error: 'A crawl of this website is already queued or running' };
const ENDED = { error: 'The crawl run has already ended (cancelled)' };

/** Crawl runs: staff's start queues run 1 (nothing runs it here), then the first cancel ends it. */
const crawlRunCells: Cell[] = [
  {
    call: 'crawl-runs/save-settings',
    url: '/api/crawl-runs/save-settings',
    payload: () => ({ websiteId: 'shop', settings: { ...defaultCrawlSettings('shop.example'), schedule: null } }),
    expected: { ...staffOnly, staff: same(status(200)), admin: same(status(200)) },
  },
  {
    call: 'crawl-runs/start',
    url: '/api/crawl-runs/start',
    payload: () => ({ websiteId: 'shop' }),
    expected: {
      ...staffOnly,
      staff: { [APPROVED]: status(200), [PENDING]: status(409, ALREADY_ACTIVE) },
      admin: same(status(409, ALREADY_ACTIVE)),
    },
  },
  {
    call: 'crawl-runs/cancel',
    url: '/api/crawl-runs/cancel',
    payload: () => ({ websiteId: 'shop', runId: 1, keepCrawled: false }),
    expected: {
      ...staffOnly,
      staff: { [APPROVED]: status(200), [PENDING]: status(409, ENDED) },
      admin: same(status(409, ENDED)),
    },
  },
];

const NO_SUCH_IMPORT = { error: 'Search Console has no import "x"', kind: 'not-found' };

/** Data sources: staff of the website and admins only; the upload's JSON body is refused as not multipart. */
const dataSourceCells: Cell[] = [
  {
    call: 'data-sources/list',
    url: '/api/data-sources/list',
    payload: () => ({ websiteId: 'shop' }),
    expected: {
      ...staffOnly,
      staff: same((r) => expect([r.statusCode, r.json<{ websiteId: string }>().websiteId]).toEqual([200, 'shop'])),
      admin: same((r) => expect([r.statusCode, r.json<{ websiteId: string }>().websiteId]).toEqual([200, 'shop'])),
    },
  },
  {
    call: 'data-sources/upload',
    url: '/api/data-sources/upload?websiteId=shop&source=search-console',
    payload: () => ({}),
    expected: {
      ...staffOnly,
      staff: same(status(415, { error: 'Send the files as multipart/form-data' })),
      admin: same(status(415, { error: 'Send the files as multipart/form-data' })),
    },
  },
  {
    call: 'data-sources/remove-import',
    url: '/api/data-sources/remove-import',
    payload: () => ({ websiteId: 'shop', source: 'search-console', importId: 'x' }),
    expected: { ...staffOnly, staff: same(status(404, NO_SUCH_IMPORT)), admin: same(status(404, NO_SUCH_IMPORT)) },
  },
];

describe('authorization matrix', () => {
  for (const cell of [...readCells, ...writeCells, ...crawlRunCells, ...dataSourceCells, ...adminCells(everyone)])
    for (const crawl of [APPROVED, PENDING] as const)
      it(`${cell.call} on the ${crawl === APPROVED ? 'approved' : 'pending'} crawl`, async () => {
        for (const who of everyone) {
          const response = await call(cell.url, who, cell.payload(crawl));
          try {
            cell.expected[who][crawl](response);
          } catch (error) {
            throw new Error(
              `${who}: ${(error as Error).message}\n${response.statusCode} ${response.body.slice(0, 300)}`,
            );
          }
        }
      });

  it('shows the client a crawl once approved, and never another website', async () => {
    const afterApproval = await call('/api/technical-health-check/report/get-rows', 'client', reportPayload(PENDING));
    expect(afterApproval.statusCode).toBe(200);
    const list = await call('/api/technical-health-check/crawl/get-redux', 'client', { websiteId: 'shop' });
    expect(list.json<{ crawlId: number; moduleState: string }[]>().map((c) => [c.crawlId, c.moduleState])).toEqual([
      [PENDING, 'APPROVED'],
      [APPROVED, 'APPROVED'],
    ]);
    for (const url of [
      '/api/technical-health-check/crawl/get-redux',
      '/api/technical-health-check/overview/get-overview',
      '/api/technical-health-check/report/get-summary',
      '/api/technical-health-check/report/get-rows',
    ]) {
      for (const who of ['otherClient', 'otherStaff'] as const) {
        const response = await call(url, who, reportPayload(PENDING));
        expect([who, url, response.statusCode, response.json()]).toEqual([who, url, 404, WEBSITE_NOT_FOUND]);
      }
    }
  });
});

describe('the checklist in rows and counts', () => {
  it('hides checked rows unless showChecked, in rows and counts alike', async () => {
    const base = { websiteId: 'shop', currentId: PENDING, reportId: REPORT };
    const rowsOf = async (showChecked: boolean) =>
      (await call('/api/technical-health-check/report/get-rows', 'staff', { ...base, showChecked })).json<{
        rows: { url: string; checked?: boolean }[];
        total: number;
      }>();
    const allOf = async (showChecked: boolean) =>
      (await call('/api/technical-health-check/report/get-summary', 'staff', { ...base, showChecked })).json<{
        differences: { all: number };
      }>().differences.all;

    const before = await rowsOf(true);
    expect(before.total).toBeGreaterThan(1);
    const target = before.rows[0]!.url;
    const saved = await call('/api/technical-health-check/checklist/save', 'staff', {
      websiteId: 'shop',
      setChecked: [{ url: target, subKeys: [] }],
      setUnchecked: [],
      start: PENDING,
      submodule: REPORT,
      module: 'technical-health-check',
      end: null,
    });
    expect(saved.statusCode).toBe(200);

    const hiding = await rowsOf(false);
    expect(hiding.total).toBe(before.total - 1);
    expect(hiding.rows.map((r) => r.url)).not.toContain(target);
    expect(await allOf(false)).toBe(before.total - 1);
    const showing = await rowsOf(true);
    expect(showing.total).toBe(before.total);
    expect(showing.rows.find((r) => r.url === target)?.checked).toBe(true);
    expect(await allOf(true)).toBe(before.total);
  });
});
