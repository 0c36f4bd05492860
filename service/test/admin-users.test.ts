/**
 * Users administered from the dashboard: invite (a one-time link through a real SMTP server on loopback), add,
 * change role and websites, reset a password, disable, remove; who is signed in where, and signing them out. STAFF
 * manage the clients of their own websites only; only ADMIN users manage STAFF and ADMIN users.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminSessionsAnswer, AdminUsersAnswer } from '../../catalog/admin-api.ts';
import {
  TestClock,
  addTestUsers,
  buildTestApp,
  openStack,
  post,
  signIn,
  signInAs,
  tempDir,
  writeCrawl,
  type Session,
  type Stack,
} from './auth-fixture.ts';
import { readableMail, startSmtpCatcher, type SmtpCatcher } from './helpers/smtp-catcher.ts';

const PUBLIC_URL = 'https://thc.agency.example';
let smtp: SmtpCatcher;
let stack: Stack;
let app: FastifyInstance;
let clock: TestClock;
const sessions: Record<string, Session> = {};

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  const dataDir = tempDir();
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1, moduleState: 'APPROVED' });
  await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1, moduleState: 'APPROVED' });
  clock = new TestClock(new Date('2025-03-10T09:00:00Z'));
  const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), PUBLIC_URL };
  stack = await openStack(dataDir, { clock: clock.fn, env, mailer: undefined });
  await addTestUsers(stack, clock, ['client', 'otherClient', 'staff', 'otherStaff', 'admin']);
  app = await buildTestApp(stack);
  for (const who of ['client', 'otherClient', 'staff', 'otherStaff', 'admin'] as const)
    sessions[who] = await signInAs(app, who);
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
  await smtp?.close();
});

const run = (who: string, command: object): Promise<LightMyRequestResponse> =>
  post(app, '/api/admin/run', sessions[who], { command });
const answer = (r: LightMyRequestResponse) => [r.statusCode, r.json<unknown>()];
const usersOf = async (who: string) =>
  (await post(app, '/api/admin/get-users', sessions[who])).json<AdminUsersAnswer>().users;

/** The one-time link of the newest message to `email`. */
function linkTo(email: string): string {
  const message = smtp.received.filter((m) => m.to.includes(email)).at(-1);
  if (!message) throw new Error(`no mail to ${email}`);
  const link = /https:\/\/thc\.agency\.example\/set-password\?token=([A-Za-z0-9_-]+)/.exec(readableMail(message.data));
  if (!link) throw new Error(`no link in the mail to ${email}`);
  return link[1]!;
}
const setPassword = (token: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/set-password', payload: { token, password } });

describe('users in the dashboard', () => {
  it('invites a user: a one-time link by SMTP sets the password once', async () => {
    const bad = await run('admin', { command: 'user invite', email: 'not-an-email', role: 'STAFF' });
    expect(answer(bad)).toEqual([400, { error: 'user invite: --email: an email address', field: 'email' }]);
    const noSite = await run('admin', { command: 'user invite', email: 'new@shop.example', role: 'CLIENT' });
    expect(answer(noSite)).toEqual([400, { error: 'A CLIENT must be bound to at least one website (--website ID)' }]);
    const invited = await run('admin', {
      command: 'user invite',
      email: 'New.Staff@Agency.example',
      role: 'STAFF',
      websites: ['shop'],
    });
    expect(answer(invited)).toEqual([
      200,
      { output: 'Invited STAFF new.staff@agency.example (websites: shop): a link to choose a password was emailed' },
    ]);
    const message = readableMail(smtp.received.at(-1)!.data);
    expect(message).toContain('Subject: You are invited to the Technical Health Check');
    const token = linkTo('new.staff@agency.example');
    const tooShort = await setPassword(token, 'short');
    expect(answer(tooShort)).toEqual([400, { error: 'password: at least 8 characters', field: 'password' }]);
    expect((await setPassword(token, 'a-good-password')).statusCode).toBe(200);
    await signIn(app, 'new.staff@agency.example', 'a-good-password');
    const reused = await setPassword(token, 'another-password');
    expect(reused.statusCode).toBe(400);
    expect(reused.json<{ error: string }>().error).toMatch(/^This link is not valid/);
  });

  it('lets staff add and change the clients of their own websites only', async () => {
    const staffAdds = await run('staff', {
      command: 'user add',
      email: 'buyer@shop.example',
      password: 'buyer-pass',
      role: 'CLIENT',
      websites: ['shop'],
    });
    expect(staffAdds.statusCode).toBe(200);
    expect(answer(await run('staff', { command: 'user invite', email: 'x@agency.example', role: 'STAFF' }))).toEqual([
      403,
      { error: 'STAFF users manage CLIENT users only; ask an ADMIN' },
    ]);
    expect(
      answer(
        await run('staff', { command: 'user invite', email: 'y@blog.example', role: 'CLIENT', websites: ['blog'] }),
      ),
    ).toEqual([404, { error: 'Website blog does not exist' }]);
    // The other website's client and every internal user are out of reach: refused as unknown.
    for (const email of ['client@blog.example', 'staff@blog-agency.example', 'admin@agency.example'])
      expect(answer(await run('staff', { command: 'user disable', email }))).toEqual([
        404,
        { error: `No user has the email ${email}` },
      ]);
    expect((await usersOf('staff')).map((u) => u.email)).toEqual(['buyer@shop.example', 'client@shop.example']);
    expect((await usersOf('otherStaff')).map((u) => u.email)).toEqual(['client@blog.example']);
    expect(answer(await run('staff', { command: 'user set', email: 'buyer@shop.example', role: 'STAFF' }))).toEqual([
      403,
      { error: 'STAFF users manage CLIENT users only; ask an ADMIN' },
    ]);
    const moved = await run('admin', { command: 'user set', email: 'buyer@shop.example', websites: ['shop', 'blog'] });
    expect(answer(moved)).toEqual([200, { output: 'buyer@shop.example is now CLIENT (websites: blog, shop)' }]);
    // Bound to a website of someone else's too, the client is no longer the shop staff's alone.
    expect((await usersOf('staff')).map((u) => u.email)).toEqual(['client@shop.example']);
    const promoted = await run('admin', { command: 'user set', email: 'buyer@shop.example', role: 'ADMIN' });
    expect(answer(promoted)).toEqual([200, { output: 'buyer@shop.example is now ADMIN' }]);
  });

  it('resets a password by email link; the old password and sessions stop working', async () => {
    const client = await signInAs(app, 'client');
    const reset = await run('staff', { command: 'user reset-password', email: 'client@shop.example' });
    expect(answer(reset)).toEqual([
      200,
      { output: 'Emailed client@shop.example a one-time link to choose a new password' },
    ]);
    expect(readableMail(smtp.received.at(-1)!.data)).toContain('Subject: Reset your Technical Health Check password');
    expect((await setPassword(linkTo('client@shop.example'), 'client-new-pass')).statusCode).toBe(200);
    expect((await post(app, '/api/websites/list', client)).statusCode).toBe(401);
    await expect(signIn(app, 'client@shop.example', 'client-pass')).rejects.toThrow(/401/);
    sessions.client = await signIn(app, 'client@shop.example', 'client-new-pass');
  });

  it('lists who is signed in where and signs a session out', async () => {
    const listed = await post(app, '/api/admin/get-sessions', sessions.staff);
    const mine = listed.json<AdminSessionsAnswer>().sessions;
    expect([...new Set(mine.map((s) => s.email))].sort()).toEqual(['client@shop.example', 'staff@agency.example']);
    const clientSession = mine.find((s) => s.email === 'client@shop.example')!;
    expect(clientSession).toMatchObject({ address: '127.0.0.1', role: 'CLIENT' });
    const all = (await post(app, '/api/admin/get-sessions', sessions.admin)).json<AdminSessionsAnswer>().sessions;
    const blogSession = all.find((s) => s.email === 'client@blog.example')!;
    expect(answer(await run('staff', { command: 'session revoke', id: blogSession.id }))).toEqual([
      404,
      { error: `No live session has the id ${blogSession.id}` },
    ]);
    const out = await run('staff', { command: 'session revoke', id: clientSession.id });
    expect(answer(out)).toEqual([200, { output: `Signed out session ${clientSession.id} of client@shop.example` }]);
    expect((await post(app, '/api/websites/list', sessions.client)).statusCode).toBe(401);
    expect((await post(app, '/api/websites/list', sessions.otherClient)).statusCode).toBe(200);
  });

  it('disables a user (no sign-in, sessions ended), enables them, and removes them', async () => {
    const blogClient = sessions.otherClient!;
    expect((await run('otherStaff', { command: 'user disable', email: 'client@blog.example' })).statusCode).toBe(200);
    expect((await post(app, '/api/websites/list', blogClient)).statusCode).toBe(401);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'client@blog.example', password: 'client-pass' },
    });
    expect(answer(refused)).toEqual([403, { error: 'This account is disabled; ask your administrator' }]);
    expect((await usersOf('otherStaff'))[0]).toMatchObject({ email: 'client@blog.example', isDisabled: true });
    expect((await run('otherStaff', { command: 'user enable', email: 'client@blog.example' })).statusCode).toBe(200);
    await signIn(app, 'client@blog.example', 'client-pass');
    expect((await run('otherStaff', { command: 'user remove', email: 'client@blog.example' })).statusCode).toBe(200);
    expect(await usersOf('otherStaff')).toEqual([]);
  });

  it('keeps clients out of every administration call', async () => {
    sessions.client = await signIn(app, 'client@shop.example', 'client-new-pass');
    for (const url of ['/api/admin/run', '/api/admin/get-users', '/api/admin/get-sessions']) {
      const r = await post(app, url, sessions.client, { command: { command: 'user list' } });
      expect(answer(r)).toEqual([404, { error: `POST ${url} does not exist` }]);
    }
  });

  // Over a PostgreSQL server several replicas share the app state; a change on one holds on the other at once.
  it.runIf(Boolean(inject('postgresUrl')))('takes effect on another replica at once', async () => {
    const replica = await openStack(stack.dataDir, { clock: clock.fn });
    const replicaApp = await buildTestApp(replica);
    try {
      const staff = await signIn(replicaApp, 'staff@agency.example', 'staff-pass');
      const client = await signIn(replicaApp, 'client@shop.example', 'client-new-pass');
      const listOf = async (session: Session) => {
        const r = await post(replicaApp, '/api/websites/list', session);
        return r.statusCode === 200 ? r.json<{ websites: { id: string; name: string }[] }>().websites : r.statusCode;
      };
      expect(await listOf(client)).toMatchObject([{ id: 'shop' }]);
      expect((await run('admin', { command: 'website set', id: 'shop', name: 'Renamed on A' })).statusCode).toBe(200);
      await expect.poll(() => listOf(client), { timeout: 2000 }).toMatchObject([{ name: 'Renamed on A' }]);
      expect((await run('admin', { command: 'website archive', id: 'shop' })).statusCode).toBe(200);
      await expect.poll(() => listOf(client), { timeout: 2000 }).toEqual([]);
      expect((await run('admin', { command: 'user disable', email: 'staff@agency.example' })).statusCode).toBe(200);
      await expect.poll(() => listOf(staff), { timeout: 2000 }).toBe(401);
    } finally {
      await replicaApp.close();
      await replica.close();
    }
  });
});
