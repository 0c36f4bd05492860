/**
 * Crawl-run notices in one service (app.inject, real app database, a real SMTP server on 127.0.0.1): a real run whose
 * start URL on 127.0.0.1 nothing answers fails in the runner, and a run ended as the runner ends one is loaded as a
 * partial crawl. When a run ends, the staff of its website and whoever started it find a notice in
 * the dashboard and an email, unless they switched the email off; nobody else hears of it, clients least of all.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrawlSettings, type CrawlRun, type CrawlRunsAnswer } from '../../catalog/crawl-runs.ts';
import type { NotificationsAnswer } from '../../catalog/notifications.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { claimQueuedRun, endRun, queueRun } from '../crawl-runs/runs.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { makeExport } from './helpers/make-export.ts';
import { readableMail, startSmtpCatcher, type SmtpCatcher } from './helpers/smtp-catcher.ts';
import {
  TestClock,
  addTestUsers,
  buildTestApp,
  loadTestCrawl,
  openStack,
  post,
  runAdmin,
  signIn,
  signInAs,
  tempDir,
  testUsers,
  type Session,
  type Stack,
} from './auth-fixture.ts';
import type { FastifyInstance } from 'fastify';

type Who = 'client' | 'staff' | 'otherStaff' | 'admin' | 'quiet';
const QUIET = { email: 'quiet@agency.example', password: 'quiet-pass' };
const PUBLIC_URL = 'https://thc.agency.example';
/** A run that fails at once ends in seconds, but minutes on a machine busy with other test runs. */
const RUN_WAIT_MS = 300_000;
const RUN_TEST_MS = RUN_WAIT_MS + 30_000;

let smtp: SmtpCatcher;
let stack: Stack;
let app: FastifyInstance;
let sessions: Record<Who, Session>;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  const dataDir = tempDir('thc-notices-');
  await loadTestCrawl(dataDir, 'shop', 1, '2026-03-01T09:00:00Z');
  await loadTestCrawl(dataDir, 'blog', 1, '2026-03-01T09:00:00Z');
  const partial = await makeExport({
    manifest: { websiteId: 'blog', crawlId: 2, crawledAt: '2026-03-24T09:00:00Z', partialReason: 'max-urls' },
  });
  await loadCrawl({ dataDir, exportDir: partial.dir });
  fs.rmSync(partial.dir, { recursive: true, force: true });
  const clock = new TestClock(new Date('2026-03-25T10:00:00Z'));
  const env = {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    PUBLIC_URL,
  };
  stack = await openStack(dataDir, { clock: clock.fn, env, mailer: undefined });
  await addTestUsers(stack, clock, ['client', 'staff', 'otherStaff', 'admin']);
  await runAdmin(stack, clock, [
    `user add --email ${QUIET.email} --password ${QUIET.password} --role STAFF --website shop`,
  ]);
  app = await buildTestApp(stack);
  sessions = {
    client: await signInAs(app, 'client'),
    staff: await signInAs(app, 'staff'),
    otherStaff: await signInAs(app, 'otherStaff'),
    admin: await signInAs(app, 'admin'),
    quiet: await signIn(app, QUIET.email, QUIET.password),
  };
  await stack.state.startJobs();
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
  await smtp?.close();
});

const call = (url: string, who: Who, payload: object) => post(app, url, sessions[who], payload);
const notices = async (who: Who): Promise<NotificationsAnswer> => {
  const response = await call('/api/notifications/list', who, {});
  expect(response.statusCode).toBe(200);
  return response.json<NotificationsAnswer>();
};

/** Saves settings crawling `startUrl` and starts a run as `who`; resolves with the run once it has ended. */
async function runCrawl(websiteId: string, who: Who, startUrl: string): Promise<CrawlRun> {
  const settings = { ...defaultCrawlSettings(`${websiteId}.example`), startUrl, concurrency: 1 };
  expect((await call('/api/crawl-runs/save-settings', 'admin', { websiteId, settings })).statusCode).toBe(200);
  const started = await call('/api/crawl-runs/start', who, { websiteId });
  expect(started.statusCode).toBe(200);
  const { id } = started.json<{ run: CrawlRun }>().run;
  const deadline = Date.now() + RUN_WAIT_MS;
  for (;;) {
    const list = await call('/api/crawl-runs/list', 'admin', { websiteId });
    const run = list.json<CrawlRunsAnswer>().runs.find((r) => r.id === id);
    if (run && !['queued', 'running', 'loading'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} did not end: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The messages received for `to`, decoded enough to read (quoted-printable soft breaks, folded headers). */
async function mailTo(to: string, count: number): Promise<string[]> {
  await stack.state.noticeMail.deliverQueued();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mine = smtp.received.filter((m) => m.to.includes(to));
    if (mine.length >= count || Date.now() > deadline) return mine.map((m) => readableMail(m.data));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('crawl-run notices', () => {
  it(
    'tell whoever started a failed run and the staff of its website, with the reason, by email unless switched off',
    async () => {
      const quietSaved = await call('/api/notifications/save-settings', 'quiet', { isCrawlEmailed: false });
      expect([quietSaved.statusCode, quietSaved.json()]).toEqual([200, { isCrawlEmailed: false }]);
      const closed = await freePort();
      const run = await runCrawl('shop', 'admin', `http://127.0.0.1:${closed}/`);
      expect(run.status).toBe('failed');
      const shop = await stack.state.websiteName('shop');
      for (const who of ['admin', 'staff', 'quiet'] as const) {
        const answer = await notices(who);
        expect([who, answer.unread, answer.notices.length]).toEqual([who, 1, 1]);
        expect(answer.notices[0]).toMatchObject({
          websiteId: 'shop',
          runId: run.id,
          crawlId: null,
          outcome: 'failed',
          title: `Crawl of ${shop} failed`,
          path: '/crawls?website=shop',
          isRead: false,
        });
        expect(answer.notices[0]!.detail).toMatch(
          new RegExp(
            `^Started 25 Mar 2026, 10:00: \\d+ pages? crawled, \\d+ errors?\\. start URL http://127\\.0\\.0\\.1:${closed}/ is unreachable`,
          ),
        );
      }
      expect((await notices('quiet')).isCrawlEmailed).toBe(false);
      // The other website's staff does not see shop.
      expect((await notices('otherStaff')).notices).toEqual([]);

      const [adminMail, ...more] = await mailTo('admin@agency.example', 1);
      expect(more).toEqual([]);
      expect(adminMail).toContain(`Subject: Crawl of ${shop} failed`);
      expect(adminMail).toContain('is unreachable');
      expect(adminMail).toContain(`${PUBLIC_URL}/crawls?website=shop`);
      expect(await mailTo('staff@agency.example', 1)).toHaveLength(1);
      expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(['admin@agency.example', 'staff@agency.example']);
    },
    RUN_TEST_MS,
  );

  it('never answer a client, who is not told of crawls', async () => {
    for (const path of ['list', 'mark-read', 'save-settings']) {
      const response = await call(`/api/notifications/${path}`, 'client', path === 'list' ? {} : { all: true });
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { error: `POST /api/notifications/${path} does not exist` },
      ]);
    }
    const anonymous = await post(app, '/api/notifications/list', undefined, {});
    expect(anonymous.statusCode).toBe(401);
  });

  it('of a loaded crawl carry its label, its counts and a link to its overview, and mark it partial', async () => {
    // The run ends as the runner ends one (runs.ts), loaded as blog's crawl 2, which stopped at its Max URLs setting.
    const { appDb } = stack.state;
    const now = new Date('2026-03-25T10:00:00Z');
    const settings = defaultCrawlSettings('blog.example');
    const run = await appDb.transaction(async (tx) => {
      await queueRun(tx, {
        websiteId: 'blog',
        trigger: 'manual',
        startedBy: testUsers.otherStaff.email,
        scheduledFor: null,
        settings,
        now,
      });
      return (await claimQueuedRun(tx, 'test-owner', now))!;
    });
    await appDb.run('UPDATE crawl_runs SET pages_done = 3 WHERE id = ?', [run.id]);
    expect(
      await appDb.transaction((tx) => endRun(tx, run.id, 'test-owner', { status: 'loaded', crawlId: 2 }, now)),
    ).toBe(true);
    // A second end (another replica, a retry) tells nobody twice.
    expect(await appDb.transaction((tx) => endRun(tx, run.id, 'test-owner', { status: 'failed' }, now))).toBe(false);

    const blog = await stack.state.websiteName('blog');
    const [notice, ...others] = (await notices('otherStaff')).notices;
    expect(others).toEqual([]);
    expect(notice).toMatchObject({
      runId: run.id,
      crawlId: 2,
      outcome: 'partial',
      title: `Crawl of ${blog} finished, partial`,
      path: '/technical-health-check?website=blog&crawl=2',
    });
    const detail =
      '24 Mar 2026 (crawl 2, partial): 3 pages crawled, 0 errors. Partial: it reached its Max URLs setting.';
    expect(notice!.detail).toBe(detail);
    // The admin did not start this one; shop's staff do not see blog.
    for (const who of ['admin', 'staff', 'quiet'] as const)
      expect((await notices(who)).notices.map((n) => n.websiteId)).toEqual(['shop']);
    const [mail] = await mailTo('staff@blog-agency.example', 1);
    expect(mail).toContain(`Subject: Crawl of ${blog} finished, partial`);
    expect(mail).toContain(detail);
    expect(mail).toContain(`${PUBLIC_URL}/technical-health-check?website=blog&crawl=2`);
  });

  it('are marked read by their own user only, and refuse a malformed call naming the field', async () => {
    const [adminNotice] = (await notices('admin')).notices;
    const other = await call('/api/notifications/mark-read', 'otherStaff', { ids: [adminNotice!.id] });
    expect(other.json()).toEqual({ unread: 1 });
    expect((await notices('admin')).unread).toBe(1);
    const mine = await call('/api/notifications/mark-read', 'admin', { ids: [adminNotice!.id] });
    expect(mine.json()).toEqual({ unread: 0 });
    expect((await notices('admin')).notices[0]!.isRead).toBe(true);
    expect((await notices('staff')).unread).toBe(1);
    expect((await call('/api/notifications/mark-read', 'staff', { all: true })).json()).toEqual({ unread: 0 });
    expect((await notices('quiet')).unread).toBe(1);

    const empty = await call('/api/notifications/mark-read', 'staff', { ids: [] });
    expect([empty.statusCode, empty.json<{ field: string }>().field]).toEqual([400, 'ids']);
    const setting = await call('/api/notifications/save-settings', 'staff', { isCrawlEmailed: 'no' });
    expect([setting.statusCode, setting.json<{ field: string }>().field]).toEqual([400, 'isCrawlEmailed']);
  });

  it('of a website a staff user is unbound from are no longer listed', async () => {
    expect((await notices('quiet')).notices).toHaveLength(1);
    await runAdmin(stack, new TestClock(new Date()), [`user unbind --email ${QUIET.email} --website shop`]);
    expect((await notices('quiet')).notices).toEqual([]);
  });

  it('are not written for a disabled user, and go with a removed user', async () => {
    const { appDb } = stack.state;
    const clock = new TestClock(new Date('2026-03-25T11:00:00Z'));
    const userId = async (email: string) =>
      (await appDb.all<{ id: number }>('SELECT id FROM users WHERE email = ?', [email]))[0]!.id;
    const rowsOf = async (table: string, id: number) =>
      (await appDb.all(`SELECT * FROM ${table} WHERE user_id = ?`, [id])).length;
    const blogStaff = await userId(testUsers.otherStaff.email);
    await runAdmin(stack, clock, [`user disable --email ${testUsers.otherStaff.email}`]);
    const run = await appDb.transaction(async (tx) => {
      const settings = defaultCrawlSettings('blog.example');
      await queueRun(tx, {
        websiteId: 'blog',
        trigger: 'manual',
        startedBy: null,
        scheduledFor: null,
        settings,
        now: clock.now,
      });
      return (await claimQueuedRun(tx, 'test-owner', clock.now))!;
    });
    await appDb.transaction((tx) => endRun(tx, run.id, 'test-owner', { status: 'failed' }, clock.now));
    expect(await appDb.all('SELECT user_id FROM notifications WHERE run_id = ?', [run.id])).toEqual([]);

    const quiet = await userId(QUIET.email);
    expect([await rowsOf('notifications', quiet), await rowsOf('notification_settings', quiet)]).toEqual([1, 1]);
    expect(await rowsOf('notifications', blogStaff)).toBe(1);
    await runAdmin(stack, clock, [
      `user remove --email ${QUIET.email}`,
      `user remove --email ${testUsers.otherStaff.email}`,
    ]);
    for (const [table, id] of [
      ['notifications', quiet],
      ['notification_settings', quiet],
      ['notifications', blogStaff],
    ] as const)
      expect({ table, id, rows: await rowsOf(table, id) }).toEqual({ table, id, rows: 0 });
  });
});
