/**
 * The checklist verifies itself (issue 30 §2), through the whole app: rows checked at crawl 1, then crawl 2 fixes one
 * (verified), leaves two as they were (not fixed yet) and answers 404 for one (left: gone); the overview counts the
 * verified row and the client's approval email says so.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview, OverviewReport } from '../../catalog/api.ts';
import {
  CatchingMailer,
  TestClock,
  addTestUsers,
  buildTestApp,
  openStack,
  post,
  signInAs,
  tempDir,
  type Session,
  type Stack,
} from './auth-fixture.ts';
import { writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';

const SITE = 'shop';
const BASE = '/api/technical-health-check';
const REPORT = 'content/missing-h1';
const u = (p: string): string => `https://shop.example${p}`;
const page = (p: string, extra: FixtureRow = {}): FixtureRow => ({
  url: u(p),
  http_status_code: 200,
  indexable: true,
  internal: true,
  found_in_web_crawl: true,
  html_size: 20_000,
  page_title: `Page ${p}`,
  h1_count: 0,
  ...extra,
});

let dataDir: string;
let stack: Stack;
let app: FastifyInstance;
let staff: Session;
let client: Session;
const mailer = new CatchingMailer();
const clock = new TestClock(new Date('2026-11-20T09:00:00Z'));

beforeAll(async () => {
  dataDir = tempDir('thc-verified-');
  const crawl1 = [
    page('/', { h1_count: 1 }),
    ...['/fixed', '/still', '/still-too', '/gone', '/unchecked'].map((p) => page(p)),
  ];
  await writeCrawlToStore(dataDir, {
    websiteId: SITE,
    crawlId: 1,
    crawledAt: '2026-11-19T06:00:00Z',
    moduleState: 'APPROVED',
    tables: { urls: crawl1 },
  });
  stack = await openStack(dataDir, { clock: clock.fn, mailer });
  await addTestUsers(stack, clock, ['staff', 'client']);
  app = await buildTestApp(stack);
  staff = await signInAs(app, 'staff');
  client = await signInAs(app, 'client');
}, 300_000);
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const rows = async (session: Session, body: object): Promise<Record<string, unknown>[]> => {
  const response = await post(app, `${BASE}/report/get-rows`, session, {
    websiteId: SITE,
    reportId: REPORT,
    tableId: 'urls',
    limit: 100,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ rows: Record<string, unknown>[] }>().rows;
};
const statesOf = (list: Record<string, unknown>[]) =>
  Object.fromEntries(list.map((r) => [String(r.url).replace('https://shop.example', ''), r.checklist_state]));

describe('a checked row through the next crawl', () => {
  it('is checked at the crawl it was checked at', async () => {
    const saved = await post(app, `${BASE}/checklist/save`, staff, {
      websiteId: SITE,
      setChecked: ['/fixed', '/still', '/still-too', '/gone'].map((p) => ({ url: u(p), subKeys: [] })),
      setUnchecked: [],
      start: 1,
      submodule: REPORT,
      module: 'technical-health-check',
      end: null,
    });
    expect(saved.json()).toEqual({ checked: 4, unchecked: 0 });
    expect(statesOf(await rows(staff, { currentId: 1, showChecked: true }))).toMatchObject({
      '/fixed': 'checked',
      '/still': 'checked',
      '/unchecked': null,
    });
  });

  it('becomes verified, not fixed yet, or left for another reason at the next crawl', async () => {
    const crawl2 = [
      page('/', { h1_count: 1 }),
      page('/fixed', { h1_count: 1 }),
      page('/still'),
      page('/still-too'),
      page('/gone', { http_status_code: 404, indexable: false }),
      page('/unchecked', { h1_count: 1 }),
    ];
    await writeCrawlToStore(dataDir, {
      websiteId: SITE,
      crawlId: 2,
      crawledAt: '2026-11-26T06:00:00Z',
      moduleState: 'PENDING',
      tables: { urls: crawl2 },
    });
    await stack.registry.refresh();
    await stack.state.sync();

    // Staff see who checked a row still listed, and when; a client (once approved) sees it as checked.
    expect(statesOf(await rows(staff, { currentId: 2, showChecked: true }))).toEqual({
      '/still': 'not fixed yet: checked by staff@agency.example on 20 Nov 2026',
      '/still-too': 'not fixed yet: checked by staff@agency.example on 20 Nov 2026',
    });
    // The Removed tab keeps its checked rows in view without 'Show Checked Items'.
    expect(statesOf(await rows(staff, { currentId: 2, differenceType: 'removed' }))).toEqual({
      '/fixed': 'verified by 26 Nov 2026 (crawl 2)',
      '/gone': 'left: gone',
      '/unchecked': null,
    });
    // Without 'Show Checked Items' the checked rows stay hidden on the All tab.
    expect(await rows(staff, { currentId: 2 })).toEqual([]);
  });

  it("counts the report's verified rows on the overview", async () => {
    const response = await post(app, `${BASE}/overview/get-overview`, staff, { websiteId: SITE, currentId: 2 });
    const entries = Object.values(response.json<Overview>().severityMap).flatMap((s) => s.reports);
    const entry = (id: string): OverviewReport | undefined => entries.find((e) => e.reportId === id);
    expect(entry(REPORT)?.verified).toBe(1);
    expect(entry('content/thin')?.verified).toBe(0);
  });

  it("tells the client how many fixes the crawl verified in the approval email, and shows the client 'checked'", async () => {
    const approved = await post(app, `${BASE}/crawl/approve`, staff, { websiteId: SITE, moduleId: `${SITE}:2` });
    expect(approved.statusCode, approved.body).toBe(200);
    await stack.state.approvals.deliverQueued();
    const mail = mailer.sent.find((m) => m.to === 'client@shop.example');
    expect(mail?.text).toContain('This crawl verified 1 fix from the checklist.');
    expect(mail?.html).toContain('<p>This crawl verified 1 fix from the checklist.</p>');
    expect(statesOf(await rows(client, { currentId: 2, showChecked: true }))).toEqual({
      '/still': 'checked',
      '/still-too': 'checked',
    });
  });
});
