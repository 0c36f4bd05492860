import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSignedInApp,
  post,
  tempDir,
  writeCrawl,
  type Session,
  type SignedInApp,
  type Stack,
  type TestClock,
} from './auth-fixture.ts';

const SAVE = '/api/technical-health-check/checklist/save';
const GET_ITEMS = '/api/technical-health-check/checklist/get-items';
const A = 'https://shop.example/a';
const B = 'https://shop.example/b';

let signedIn: SignedInApp<'staff' | 'client'>;
let stack: Stack;
let app: FastifyInstance;
let clock: TestClock;
let staff: Session;
let client: Session;

beforeEach(async () => {
  const dataDir = tempDir();
  for (const crawlId of [1, 2, 3]) await writeCrawl(dataDir, { websiteId: 'shop', crawlId });
  await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1, moduleState: 'APPROVED' });
  signedIn = await openSignedInApp(dataDir, '2025-03-03T09:00:00Z', ['staff', 'client']);
  ({ stack, app, clock } = signedIn);
  ({ staff, client } = signedIn.sessions);
});
afterEach(() => signedIn.close());

const save = (session: Session, overrides: object = {}) =>
  post(app, SAVE, session, {
    websiteId: 'shop',
    setChecked: [{ url: A, subKeys: [] }],
    setUnchecked: [],
    start: 3,
    submodule: 'content/thin',
    module: 'technical-health-check',
    end: null,
    differenceType: 'all',
    ...overrides,
  });

const itemsAt = async (crawlId: number, reportId = 'content/thin', session = staff) => {
  const response = await post(app, GET_ITEMS, session, { websiteId: 'shop', reportId, crawlId });
  expect(response.statusCode).toBe(200);
  return response.json<{ items: { url: string; subKeys: string[]; startCrawlId: number; checkedBy: string }[] }>()
    .items;
};

describe('checklist rules', () => {
  it('refuses each rule violation with a 400 and its reason', async () => {
    const refusals: [object, string][] = [
      [{ start: 2 }, 'Checklist items can only be saved on the latest crawl (3)'],
      [{ differenceType: 'removed' }, 'Checklist items cannot be saved from the Removed tab'],
      [{ submodule: 'crawl/all' }, 'All crawled URLs has severity NONE: its rows cannot be checked'],
      [{ submodule: 'sitemap/sitemaps' }, 'Sitemaps has severity NONE: its rows cannot be checked'],
      [{ module: 'uptime-report' }, 'Checklist items belong to the technical-health-check module'],
      [{ end: 3 }, 'end must be null: an item stays checked until it is unchecked'],
      [{ submodule: 'links/internal-broken' }, 'Items of links/internal-broken take 1 sub-key(s) (url_from)'],
      [{ setUnchecked: [{ url: A, subKeys: [] }] }, 'An item cannot be both checked and unchecked in one save'],
      [
        { setChecked: [{ url: '', subKeys: [] }] },
        'Invalid setChecked.0.url: Too small: expected string to have >=1 characters',
      ],
    ];
    for (const [overrides, error] of refusals) {
      const response = await save(staff, overrides);
      expect([overrides, response.statusCode, response.json<{ error: string }>().error]).toEqual([
        overrides,
        400,
        error,
      ]);
    }
    for (const submodule of ['content/nope', 'security/all']) {
      const response = await save(staff, { submodule });
      expect([response.statusCode, response.json()]).toEqual([404, { error: 'report could not be found.' }]);
    }
    expect(await itemsAt(3)).toEqual([]);
    expect(await stack.state.appDb.all('SELECT * FROM checklist_items')).toEqual([]);
  });

  it('keeps an item checked from its start crawl until it is unchecked, with who and when', async () => {
    expect(
      (
        await save(staff, {
          setChecked: [
            { url: A, subKeys: [] },
            { url: B, subKeys: [] },
          ],
        })
      ).json(),
    ).toEqual({
      checked: 2,
      unchecked: 0,
    });
    expect((await save(staff)).json()).toEqual({ checked: 0, unchecked: 0 });
    expect((await itemsAt(3)).map((i) => [i.url, i.startCrawlId, i.checkedBy])).toEqual([
      [A, 3, 'staff@agency.example'],
      [B, 3, 'staff@agency.example'],
    ]);
    expect(await itemsAt(2)).toEqual([]);
    expect(await itemsAt(3, 'content/empty')).toEqual([]);

    // The next crawl arrives: the items stay checked there, until unchecked at it.
    await writeCrawl(stack.dataDir, { websiteId: 'shop', crawlId: 4 });
    await stack.registry.refresh();
    await stack.state.sync();
    expect((await itemsAt(4)).map((i) => i.url)).toEqual([A, B]);
    expect((await save(staff, { start: 3 })).statusCode).toBe(400);
    clock.advance(60_000);
    expect((await save(staff, { start: 4, setChecked: [], setUnchecked: [{ url: A, subKeys: [] }] })).json()).toEqual({
      checked: 0,
      unchecked: 1,
    });
    expect((await itemsAt(4)).map((i) => i.url)).toEqual([B]);
    expect((await itemsAt(3)).map((i) => i.url)).toEqual([A, B]);
    expect(await stack.state.checkedKeysFor('shop', 'content/thin', 4)).toEqual([{ url: B, subKeys: [] }]);
    expect(await stack.state.checkedKeysFor('shop', 'content/thin', 3)).toEqual([
      { url: A, subKeys: [] },
      { url: B, subKeys: [] },
    ]);
    expect(
      await stack.state.appDb.all(
        `SELECT url, start_crawl_id, end_crawl_id, checked_by, unchecked_by, unchecked_at FROM checklist_items WHERE url = $1`,
        [A],
      ),
    ).toEqual([
      {
        url: A,
        start_crawl_id: 3,
        end_crawl_id: 4,
        checked_by: 'staff@agency.example',
        unchecked_by: 'staff@agency.example',
        unchecked_at: new Date('2025-03-03T09:01:00Z'),
      },
    ]);
  });

  it('keys link reports by their sub-keys', async () => {
    const item = { url: 'https://shop.example/broken', subKeys: ['https://shop.example/from-1'] };
    const other = { url: 'https://shop.example/broken', subKeys: ['https://shop.example/from-2'] };
    expect((await save(staff, { submodule: 'links/internal-broken', setChecked: [item, other] })).statusCode).toBe(200);
    await save(staff, { submodule: 'links/internal-broken', setChecked: [], setUnchecked: [other] });
    expect(await stack.state.checkedKeysFor('shop', 'links/internal-broken', 3)).toEqual([item]);
  });

  it('lets a client save on the latest crawl it can see, and nothing of a pending crawl or another website', async () => {
    // Crawl 3 is pending: the client's latest is the approved crawl 2.
    await stack.state.approvals.approve('shop', 2, 'staff@agency.example');
    const pending = await save(client, { start: 3 });
    expect([pending.statusCode, pending.json()]).toEqual([404, { error: 'crawl could not be found.' }]);
    expect((await save(client, { start: 2 })).json()).toEqual({ checked: 1, unchecked: 0 });
    expect((await itemsAt(2, 'content/thin', client)).map((i) => [i.url, i.checkedBy])).toEqual([
      [A, 'client@shop.example'],
    ]);
    const crawlNotFound = [
      await post(app, GET_ITEMS, client, { websiteId: 'shop', reportId: 'content/thin', crawlId: 3 }),
      await post(app, GET_ITEMS, client, { websiteId: 'shop', reportId: 'content/thin', crawlId: 99 }),
    ];
    for (const response of crawlNotFound)
      expect([response.statusCode, response.json()]).toEqual([404, { error: 'crawl could not be found.' }]);
    const websiteNotFound = [
      await post(app, GET_ITEMS, client, { websiteId: 'blog', reportId: 'content/thin', crawlId: 1 }),
      await post(app, GET_ITEMS, client, { websiteId: 'nope', reportId: 'content/thin', crawlId: 1 }),
      await save(client, { websiteId: 'blog', start: 1 }),
    ];
    for (const response of websiteNotFound)
      expect([response.statusCode, response.json()]).toEqual([404, { error: 'website could not be found.' }]);
    // Staff see the pending crawl 3 as the latest.
    expect((await save(staff, { start: 2 })).statusCode).toBe(400);
    expect((await save(staff, { start: 3 })).statusCode).toBe(200);
  });
});
