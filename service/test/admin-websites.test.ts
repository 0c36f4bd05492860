/**
 * Websites administered from the dashboard (POST /api/admin/run and get-websites): add, rename, domain, goal,
 * hreflang and AI, segments, archive and delete, each validated as the CLI's commands are, scoped to what the caller
 * manages, and written to the audit log.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminLogAnswer, AdminWebsitesAnswer } from '../../catalog/admin-api.ts';
import type { Website } from '../../catalog/api.ts';
import { websiteDir } from '../store/layout.ts';
import { openSignedInApp, post, tempDir, writeCrawl, type SignedInApp } from './auth-fixture.ts';

type Who = 'client' | 'otherClient' | 'staff' | 'otherStaff' | 'admin';
let signedIn: SignedInApp<Who>;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1, moduleState: 'APPROVED' });
  await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1, moduleState: 'APPROVED' });
  signedIn = await openSignedInApp(dataDir, '2025-03-10T09:00:00Z', [
    'client',
    'otherClient',
    'staff',
    'otherStaff',
    'admin',
  ]);
});
afterAll(() => signedIn?.close());

const run = (who: Who, command: object): Promise<LightMyRequestResponse> =>
  post(signedIn.app, '/api/admin/run', signedIn.sessions[who], { command });
const answer = (r: LightMyRequestResponse) => [r.statusCode, r.json<unknown>()];

async function websitesOf(who: Who): Promise<Website[]> {
  const r = await post(signedIn.app, '/api/admin/get-websites', signedIn.sessions[who]);
  expect(r.statusCode).toBe(200);
  return r.json<AdminWebsitesAnswer>().websites;
}
async function pickerOf(who: Who): Promise<string[]> {
  const r = await post(signedIn.app, '/api/websites/list', signedIn.sessions[who]);
  return r.json<{ websites: Website[] }>().websites.map((w) => w.id);
}
const defaultSegment = (w: Website | undefined) => w?.segments.find((s) => s.isDefault);

describe('websites in the dashboard', () => {
  it('adds a website with its goal, refusing bad fields with the CLI message naming the field', async () => {
    const bad = await run('admin', { command: 'website add', id: 'News!', name: 'News', domain: 'news.example' });
    expect(answer(bad)).toEqual([
      400,
      { error: 'website add: --id: lowercase letters, digits and dashes', field: 'id' },
    ]);
    const badDomain = await run('admin', { command: 'website add', id: 'news', name: 'News', domain: 'https://x/' });
    expect(answer(badDomain)).toEqual([
      400,
      { error: 'website add: --domain: a host name such as www.example.com', field: 'domain' },
    ]);
    const badGoal = await run('admin', {
      command: 'website add',
      id: 'news',
      name: 'N',
      domain: 'n.example',
      goal: 'x',
    });
    expect(badGoal.statusCode).toBe(400);
    expect(badGoal.json()).toMatchObject({ field: 'goal' });

    const added = await run('admin', {
      command: 'website add',
      id: 'news',
      name: 'News',
      domain: 'news.example',
      goal: 'ecommerce',
    });
    expect(added.statusCode).toBe(200);
    const news = (await websitesOf('admin')).find((w) => w.id === 'news');
    expect([news?.name, news?.domain, defaultSegment(news)?.goalType]).toEqual(['News', 'news.example', 'ecommerce']);
    expect(answer(await run('admin', { command: 'website add', id: 'news', name: 'N', domain: 'n.example' }))).toEqual([
      409,
      { error: 'Website news already exists' },
    ]);
  });

  it('lets the website staff rename it, move its domain and switch hreflang and AI; the client sees it at once', async () => {
    const changed = await run('staff', {
      command: 'website set',
      id: 'shop',
      name: 'Shop & Co',
      domain: 'www.shop.example',
      goal: 'conversion',
      isHreflang: true,
      isAi: true,
    });
    expect(answer(changed)).toEqual([
      200,
      {
        output: 'Changed website shop: name Shop & Co; domain www.shop.example; hreflang on; AI on; goal conversion',
      },
    ]);
    const r = await post(signedIn.app, '/api/websites/list', signedIn.sessions.client);
    const shop = r.json<{ websites: Website[] }>().websites[0];
    expect([shop?.name, shop?.domain, defaultSegment(shop)?.isHreflang, defaultSegment(shop)?.isAi]).toEqual([
      'Shop & Co',
      'www.shop.example',
      true,
      true,
    ]);
    const off = await run('staff', { command: 'website set', id: 'shop', isAi: false, goal: 'none' });
    expect(off.statusCode).toBe(200);
    expect(defaultSegment((await websitesOf('staff'))[0])).toMatchObject({ isAi: false, goalType: null });
    expect(answer(await run('staff', { command: 'website set', id: 'shop' }))).toEqual([
      400,
      { error: 'website set: nothing to change: give --name, --domain, --goal, --[no-]hreflang or --[no-]ai' },
    ]);
  });

  it('keeps staff to their own websites, and clients out', async () => {
    const set = { command: 'website set', id: 'shop', name: 'Mine now' };
    expect(answer(await run('otherStaff', set))).toEqual([404, { error: 'Website shop does not exist' }]);
    expect(answer(await run('client', set))).toEqual([404, { error: 'POST /api/admin/run does not exist' }]);
    expect(answer(await run('staff', { command: 'website archive', id: 'shop' }))).toEqual([
      403,
      { error: 'Only ADMIN users add, archive, restore or delete websites' },
    ]);
    expect(answer(await run('otherStaff', { command: 'website archive', id: 'shop' }))).toEqual([
      404,
      { error: 'Website shop does not exist' },
    ]);
    expect((await websitesOf('otherStaff')).map((w) => w.id)).toEqual(['blog']);
    const client = await post(signedIn.app, '/api/admin/get-websites', signedIn.sessions.client);
    expect(answer(client)).toEqual([404, { error: 'POST /api/admin/get-websites does not exist' }]);
  });

  it('adds, changes and removes segments with the CLI checks', async () => {
    const add = { command: 'segment add', website: 'shop', id: 'blog-pages', name: 'Blog', urlScope: '/blog/' };
    expect((await run('staff', add)).statusCode).toBe(200);
    const again = await run('staff', add);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toMatch(/^Website shop already has a segment blog-pages/);
    const set = await run('staff', { command: 'segment set', website: 'shop', id: 'blog-pages', isHreflang: true });
    expect(answer(set)).toEqual([
      200,
      { output: 'Changed segment blog-pages of shop: Blog; scope /blog/; hreflang on; AI off; goal none' },
    ]);
    expect(answer(await run('staff', { command: 'segment set', website: 'shop', id: 'all', urlScope: '/x/' }))).toEqual(
      [400, { error: 'The default segment covers the whole site and takes no --url-scope' }],
    );
    expect(answer(await run('staff', { command: 'segment remove', website: 'shop', id: 'all' }))).toEqual([
      400,
      { error: 'The default segment cannot be removed' },
    ]);
    expect((await run('staff', { command: 'segment remove', website: 'shop', id: 'blog-pages' })).statusCode).toBe(200);
    expect((await websitesOf('staff'))[0]?.segments.map((s) => s.id)).toEqual(['all']);
  });

  it('archives a website: its crawls stay, its clients no longer see it, staff still do; restore brings it back', async () => {
    expect((await run('admin', { command: 'website archive', id: 'shop' })).statusCode).toBe(200);
    expect(await pickerOf('client')).toEqual([]);
    const crawls = await post(signedIn.app, '/api/technical-health-check/crawl/get-redux', signedIn.sessions.client, {
      websiteId: 'shop',
    });
    expect(crawls.statusCode).toBe(404);
    expect(await pickerOf('staff')).toEqual(['shop']);
    expect((await websitesOf('staff'))[0]?.isArchived).toBe(true);
    expect(signedIn.stack.registry.crawls('shop')).toHaveLength(1);
    expect((await run('admin', { command: 'website restore', id: 'shop' })).statusCode).toBe(200);
    expect(await pickerOf('client')).toEqual(['shop']);
  });

  it('deletes a website only with its id typed as confirmation, its crawls with it', async () => {
    const wrong = await run('admin', { command: 'website delete', id: 'blog', confirm: 'blo' });
    expect(answer(wrong)).toEqual([
      400,
      { error: 'website delete: --confirm: type the website id to confirm', field: 'confirm' },
    ]);
    expect(fs.existsSync(websiteDir(dataDir, 'blog'))).toBe(true);
    const { appDb } = signedIn.stack.state;
    // A crawl-run notice of blog's (as the runner writes one) goes with it.
    await appDb.run(
      `INSERT INTO notifications (user_id, website_id, run_id, created_at) SELECT id, 'blog', 1, ? FROM users LIMIT 1`,
      [new Date()],
    );
    const done = await run('admin', { command: 'website delete', id: 'blog', confirm: 'blog' });
    expect(answer(done)).toEqual([200, { output: 'Deleted website blog with its crawls and settings' }]);
    expect(fs.existsSync(websiteDir(dataDir, 'blog'))).toBe(false);
    expect(signedIn.stack.registry.crawls('blog')).toEqual([]);
    expect(await appDb.all(`SELECT id FROM notifications WHERE website_id = 'blog'`)).toEqual([]);
    expect(await pickerOf('admin')).toEqual(['news', 'shop']);
    expect(await pickerOf('otherClient')).toEqual([]);
    // A sync of the store does not bring it back.
    await signedIn.stack.state.sync();
    expect(await pickerOf('admin')).toEqual(['news', 'shop']);
  });

  it('writes every change to the audit log, which only admins read', async () => {
    const r = await post(signedIn.app, '/api/admin/get-audit-log', signedIn.sessions.admin);
    const entries = r.json<AdminLogAnswer>().entries.reverse();
    // The test users, added with the admin CLI, come first.
    expect(entries.slice(0, 5).map((e) => [e.actor, e.action])).toEqual(Array(5).fill(['cli', 'user add']));
    expect(entries.slice(5).map((e) => [e.actor, e.action, e.target])).toEqual([
      ['admin@agency.example', 'website add', 'news'],
      ['staff@agency.example', 'website set', 'shop'],
      ['staff@agency.example', 'website set', 'shop'],
      ['staff@agency.example', 'segment add', 'shop/blog-pages'],
      ['staff@agency.example', 'segment set', 'shop/blog-pages'],
      ['staff@agency.example', 'segment remove', 'shop/blog-pages'],
      ['admin@agency.example', 'website archive', 'shop'],
      ['admin@agency.example', 'website restore', 'shop'],
      ['admin@agency.example', 'website delete', 'blog'],
    ]);
    expect(entries.every((e) => e.at === '2025-03-10T09:00:00.000Z')).toBe(true);
    for (const who of ['staff', 'client'] as const) {
      const refused = await post(signedIn.app, '/api/admin/get-audit-log', signedIn.sessions[who]);
      expect(answer(refused)).toEqual([404, { error: 'POST /api/admin/get-audit-log does not exist' }]);
    }
  });
});
