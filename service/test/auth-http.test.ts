import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TestClock,
  addTestUsers,
  buildTestApp,
  openStack,
  post,
  runAdmin,
  signIn,
  signInAs,
  tempDir,
  writeCrawl,
  type Session,
  type Stack,
} from './auth-fixture.ts';

let stack: Stack;
let app: FastifyInstance;
let clock: TestClock;

const admin = (argv: string): Promise<void> => runAdmin(stack, clock, [argv]);

async function start(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const dataDir = tempDir();
  await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
  await writeCrawl(dataDir, { websiteId: 'blog', crawlId: 1 });
  clock = new TestClock(new Date('2025-03-03T09:00:00Z'));
  stack = await openStack(dataDir, { clock: clock.fn, env });
  await addTestUsers(stack, clock, ['admin', 'staff', 'client']);
  app = await buildTestApp(stack);
}

beforeEach(() => start());
afterEach(async () => {
  await app.close();
  await stack.close();
});

const me = (cookie?: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: cookie ? { cookie } : {} });

describe('sign-in', () => {
  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await post(app, '/api/auth/login', undefined, {
      email: 'staff@agency.example',
      password: 'nope-nope',
    });
    const unknown = await post(app, '/api/auth/login', undefined, {
      email: 'who@agency.example',
      password: 'nope-nope',
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid email or password' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const bad = await post(app, '/api/auth/login', undefined, { email: 'staff@agency.example' });
    expect(bad.statusCode).toBe(400);
  });

  it('sets an httpOnly, SameSite=Lax session cookie and answers the user and a CSRF token', async () => {
    const response = await post(app, '/api/auth/login', undefined, {
      email: ' Client@Shop.example ',
      password: 'client-pass',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ user: object; csrfToken: string }>();
    expect(body.user).toEqual({ email: 'client@shop.example', role: 'CLIENT', websites: ['shop'] });
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^thc_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Expires=${new Date('2025-03-03T21:00:00Z').toUTCString()}`);
    expect(cookie).not.toContain('Secure');
    // Only the hash of the token is stored.
    const token = /^thc_session=([^;]+)/.exec(cookie)![1]!;
    const rows = await stack.state.appDb.all<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    const staff = await signInAs(app, 'staff');
    const answer = await me(staff.cookie);
    expect(answer.json()).toEqual({
      user: { email: 'staff@agency.example', role: 'STAFF', websites: ['shop'] },
      csrfToken: staff.csrfToken,
    });
    const admin = await signInAs(app, 'admin');
    expect((await me(admin.cookie)).json<{ user: object }>().user).toEqual({
      email: 'admin@agency.example',
      role: 'ADMIN',
      websites: ['blog', 'shop'],
    });
  });

  it('marks the cookie Secure behind an https proxy only when told to trust it', async () => {
    const login = { email: 'staff@agency.example', password: 'staff-pass' };
    const viaProxy = () =>
      app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-forwarded-proto': 'https' }, payload: login });
    expect(String((await viaProxy()).headers['set-cookie'])).not.toContain('Secure');
    await app.close();
    await stack.close();
    await start({ TRUST_PROXY: '1' });
    expect(String((await viaProxy()).headers['set-cookie'])).toContain('Secure');
  });
});

describe('sessions', () => {
  it('ends on logout, which needs the CSRF token', async () => {
    const staff = await signInAs(app, 'staff');
    expect((await post(app, '/api/auth/logout', staff, {}, { csrf: false })).statusCode).toBe(403);
    expect((await me(staff.cookie)).statusCode).toBe(200);
    const out = await post(app, '/api/auth/logout', staff);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^thc_session=;/);
    const after = await me(staff.cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: 'Not signed in' });
  });

  it('expire after 12 hours', async () => {
    const staff = await signInAs(app, 'staff');
    clock.advance(12 * 60 * 60 * 1000 - 1000);
    expect((await me(staff.cookie)).statusCode).toBe(200);
    clock.advance(1000);
    expect((await me(staff.cookie)).statusCode).toBe(401);
  });

  it('end when the password changes or the user is removed', async () => {
    const staff = await signInAs(app, 'staff');
    const client = await signInAs(app, 'client');
    await admin('user password --email staff@agency.example --password staff-pass-2');
    await admin('user remove --email client@shop.example');
    expect((await me(staff.cookie)).statusCode).toBe(401);
    expect((await me(client.cookie)).statusCode).toBe(401);
    expect((await signIn(app, 'staff@agency.example', 'staff-pass-2')).csrfToken).toBeTruthy();
  });

  it("follow the user's websites while signed in, each request as the session stands", async () => {
    const client = await signInAs(app, 'client');
    const websites = async (): Promise<unknown> =>
      (await me(client.cookie)).json<{ user: { websites: unknown } }>().user.websites;
    expect(await websites()).toEqual(['shop']);
    expect(await websites()).toEqual(['shop']);
    await admin('user bind --email client@shop.example --website blog');
    expect(await websites()).toEqual(['blog', 'shop']);
    await admin('user unbind --email client@shop.example --website shop');
    expect(await websites()).toEqual(['blog']);
    clock.advance(12 * 60 * 60 * 1000);
    expect((await me(client.cookie)).statusCode).toBe(401);
  });

  it('refuse a forged or absent cookie', async () => {
    expect((await me('thc_session=' + 'A'.repeat(43))).statusCode).toBe(401);
    expect((await me('thc_session=../../etc')).statusCode).toBe(401);
    expect((await me()).statusCode).toBe(401);
  });
});

describe('the auth guard', () => {
  it('answers 401 to anonymous calls of every /api/ route but login', async () => {
    for (const url of [
      '/api/auth/logout',
      '/api/websites/list',
      '/api/technical-health-check/crawl/approve',
      '/api/technical-health-check/checklist/get-items',
      '/api/technical-health-check/checklist/save',
      '/api/admin/run',
      '/api/technical-health-check/report/get-rows',
      '/api/no-such-call',
    ]) {
      const response = await post(app, url, undefined);
      expect([url, response.statusCode, response.json()]).toEqual([url, 401, { error: 'Not signed in' }]);
    }
  });

  it('refuses state-changing calls without the session CSRF token', async () => {
    const staff = await signInAs(app, 'staff');
    const adminSession = await signInAs(app, 'admin');
    const approve = { moduleId: 'shop:1', websiteId: 'shop' };
    const save = {
      websiteId: 'shop',
      setChecked: [{ url: 'https://shop.example/a', subKeys: [] }],
      setUnchecked: [],
      start: 1,
      submodule: 'content/thin',
      module: 'technical-health-check',
      end: null,
    };
    const calls: [string, object][] = [
      ['/api/technical-health-check/crawl/approve', approve],
      ['/api/technical-health-check/checklist/save', save],
      ['/api/auth/logout', {}],
    ];
    for (const [url, payload] of calls) {
      for (const session of [staff, { ...staff, csrfToken: adminSession.csrfToken }]) {
        const response = await post(app, url, session, payload, { csrf: session === staff ? false : true });
        expect([url, response.statusCode, response.json()]).toEqual([
          url,
          403,
          { error: 'Missing or invalid CSRF token' },
        ]);
      }
    }
    const run = await post(app, '/api/admin/run', adminSession, { command: { command: 'user list' } }, { csrf: false });
    expect(run.statusCode).toBe(403);
    expect(stack.state.moduleStateOf('shop', 1)).toBe('PENDING');
    // Read-only calls need no token.
    expect((await post(app, '/api/websites/list', staff, {}, { csrf: false })).statusCode).toBe(200);
    expect((await post(app, '/api/technical-health-check/crawl/approve', staff, approve)).statusCode).toBe(200);
  });

  it('sends security headers with a CSP the dashboard can live with', async () => {
    const response = await me();
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('websites/list', () => {
  it('lists what the user may see, with segments and module status', async () => {
    await admin('module set --website shop --module uptime-report');
    const client = await signInAs(app, 'client');
    const staff = await signInAs(app, 'staff');
    const clientList = (await post(app, '/api/websites/list', client)).json<{ websites: { id: string }[] }>();
    expect(clientList).toEqual({
      websites: [
        {
          id: 'shop',
          name: 'Site shop',
          domain: 'shop.example',
          segments: [
            {
              id: 'all',
              name: 'All pages',
              urlScope: null,
              isHreflang: false,
              isAi: false,
              goalType: null,
              isDefault: true,
            },
          ],
          modules: [
            { module: 'technical-health-check', isActive: true },
            { module: 'additional-health-check', isActive: false, reason: 'missing-module' },
            { module: 'uptime-report', isActive: false, reason: 'missing-setup-id' },
            { module: 'carbon-footprint', isActive: false, reason: 'missing-module' },
          ],
          isArchived: false,
        },
      ],
    });
    const idsOf = async (session: Session) =>
      (await post(app, '/api/websites/list', session)).json<{ websites: { id: string }[] }>().websites.map((w) => w.id);
    expect(await idsOf(staff)).toEqual(['shop']);
    expect(await idsOf(await signInAs(app, 'admin'))).toEqual(['blog', 'shop']);
    // A binding applies to sessions already open.
    await admin('user bind --email staff@agency.example --website blog');
    expect(await idsOf(staff)).toEqual(['blog', 'shop']);
  });
});

describe('admin over HTTP', () => {
  it('runs commands for an ADMIN only', async () => {
    const adminSession = await signInAs(app, 'admin');
    const staff = await signInAs(app, 'staff');
    const command = { command: 'website add', id: 'news', name: 'News', domain: 'news.example' };
    expect((await post(app, '/api/admin/run', staff, { command })).statusCode).toBe(403);
    const done = await post(app, '/api/admin/run', adminSession, { command });
    expect(done.statusCode).toBe(200);
    expect(done.json<{ output: string }>().output).toMatch(/Added website news/);
    const again = await post(app, '/api/admin/run', adminSession, { command });
    expect([again.statusCode, again.json()]).toEqual([409, { error: 'Website news already exists' }]);
    const bad = await post(app, '/api/admin/run', adminSession, { command: { command: 'user add' } });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'user add: --email is required', field: 'email' }]);
  });

  it('takes the CLI hand-over from loopback with the admin token only', async () => {
    const payload = { command: { command: 'user list' } };
    const hand = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      app.inject({ method: 'POST', url: '/api/admin/cli', headers, payload, remoteAddress });
    expect((await hand({})).statusCode).toBe(403);
    expect((await hand({ 'x-admin-token': 'x'.repeat(43) })).statusCode).toBe(403);
    expect((await hand({ 'x-admin-token': stack.state.accounts.adminToken }, '192.168.1.20')).statusCode).toBe(403);
    const ok = await hand({ 'x-admin-token': stack.state.accounts.adminToken });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ output: string }>().output).toContain('client@shop.example\tCLIENT\tshop');
  });
});
