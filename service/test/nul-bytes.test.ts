/**
 * A NUL byte in any field of any call is a 400 naming the field, never a 500 (PostgreSQL refuses NUL in text). Every
 * route the app has must be in the table below, so a new route is covered the day it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { nulRefusal } from '../routes/nul-bytes.ts';
import { openSignedInApp, tempDir, type SignedInApp } from './auth-fixture.ts';
import { appRoutes } from './helpers/app-routes.ts';

const range = { start: '2025-01-01', end: '2025-01-28' };
const reportCall = {
  websiteId: 'shop',
  currentId: '2',
  comparisonId: '1',
  reportId: 'crawl/all',
  tableId: 'urls',
  segmentId: 'all',
  channel: 'organic',
  userFilter: 'shoes',
  dataDateRange: range,
};
const item = { url: 'https://shop.example/a', subKeys: ['b'] };

/** A payload per call with every string field it reads (an empty object: the call reads none). */
const payloads: Record<string, object> = {
  'GET /api/health': {},
  'GET /api/health/live': {},
  'GET /api/auth/me': {},
  'POST /api/auth/login': { email: 'someone@shop.example', password: 'secret' },
  'POST /api/auth/logout': {},
  'POST /api/websites/list': {},
  'POST /api/admin/cli': { command: 'user list' },
  'POST /api/admin/run': { command: 'user list' },
  'POST /api/admin/get-websites': {},
  'POST /api/admin/get-users': {},
  'POST /api/admin/get-sessions': {},
  'POST /api/admin/get-audit-log': {},
  'POST /api/auth/set-password': { token: 'one-time-token', password: 'a-new-password' },
  'POST /api/technical-health-check/crawl/approve': { moduleId: 'shop:2', websiteId: 'shop' },
  'POST /api/technical-health-check/crawl/get-redux': { websiteId: 'shop', currentId: '2' },
  'POST /api/technical-health-check/overview/get-overview': { websiteId: 'shop', currentId: '2', comparisonId: '1' },
  'POST /api/technical-health-check/report/get-summary': { ...reportCall, trendCrawlIds: ['1'] },
  'POST /api/technical-health-check/report/get-rows': { ...reportCall, orderBy: [{ id: 'url' }], after: ['x'] },
  'POST /api/technical-health-check/report/export-csv': { ...reportCall, orderBy: [{ id: 'url' }] },
  'POST /api/technical-health-check/checklist/get-items': { websiteId: 'shop', reportId: 'crawl/all', crawlId: '2' },
  'POST /api/technical-health-check/checklist/save': {
    websiteId: 'shop',
    setChecked: [item],
    setUnchecked: [item],
    start: '2',
    submodule: 'crawl/all',
    module: 'technical-health-check',
  },
  'POST /api/technical-health-check/query/get-report': { websiteId: 'shop', query: 'title', dataDateRange: range },
  'POST /api/ai/get-data': { url: 'https://shop.example/a', type: 'title', websiteId: 'shop' },
  'POST /api/crawl-runs/get-settings': { websiteId: 'shop' },
  'POST /api/crawl-runs/save-settings': {
    websiteId: 'shop',
    settings: { startUrl: 'https://shop.example/', include: ['/shoes/'] },
  },
  'POST /api/crawl-runs/list': { websiteId: 'shop' },
  'POST /api/crawl-runs/start': { websiteId: 'shop' },
  'POST /api/crawl-runs/cancel': { websiteId: 'shop', runId: 1, keepCrawled: true },
  'POST /api/notifications/list': {},
  'POST /api/notifications/mark-read': { ids: [1] },
  'POST /api/notifications/save-settings': { isCrawlEmailed: false },
  'POST /api/data-sources/list': { websiteId: 'shop' },
  'POST /api/data-sources/remove-import': { websiteId: 'shop', source: 'search-console', importId: 'x' },
  // Its fields are in the query (covered below) and its files multipart: a JSON body is still refused by the guard.
  'POST /api/data-sources/upload': { websiteId: 'shop', source: 'search-console' },
};

/** Each string leaf of `value` with its field path, and `value` with that leaf holding a NUL byte. */
function withNulAt(value: unknown, at: (string | number)[] = []): { field: string; value: unknown }[] {
  if (typeof value === 'string') return [{ field: at.join('.'), value: `${value.slice(0, 1)}\0${value.slice(1)}` }];
  if (Array.isArray(value))
    return value.flatMap((entry, i) =>
      withNulAt(entry, [...at, i]).map((c) => ({ field: c.field, value: value.with(i, c.value) })),
    );
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, entry]) =>
      withNulAt(entry, [...at, key]).map((c) => ({ field: c.field, value: { ...value, [key]: c.value } })),
    );
  return [];
}

describe('a NUL byte in any field', () => {
  let signedIn: SignedInApp<'admin'>;
  beforeAll(async () => {
    signedIn = await openSignedInApp(tempDir(), '2025-03-03T09:00:00Z', ['admin']);
  });
  afterAll(() => signedIn?.close());

  const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) => {
    const { cookie, csrfToken } = signedIn.sessions.admin;
    return signedIn.app.inject({
      method: method as 'GET' | 'POST',
      url,
      headers: { cookie, 'x-csrf-token': csrfToken, 'x-admin-token': 'token', ...headers },
      ...(method === 'POST' && { payload }),
    });
  };

  const expectRefused = async (answer: ReturnType<typeof call>, field: string, what: string): Promise<void> => {
    const response = await answer;
    expect({ what, status: response.statusCode }).toEqual({ what, status: 400 });
    expect(response.json(), what).toEqual(nulRefusal(field));
  };

  it('the table names every route the app has', () => {
    const calls = appRoutes(signedIn.app)
      .filter((r) => r.url.startsWith('/api/'))
      .flatMap((r) => r.methods.map((m) => `${m} ${r.url}`));
    expect(calls.sort()).toEqual(Object.keys(payloads).sort());
  });

  it('in the body (keys included) is a 400 naming the field, on every route', async () => {
    for (const [name, payload] of Object.entries(payloads)) {
      const [method, url] = name.split(' ') as [string, string];
      if (method !== 'POST') continue;
      for (const { field, value } of withNulAt(payload))
        await expectRefused(call(method, url, value as object), field, `${name} ${field}`);
      await expectRefused(call(method, url, { ...payload, 'ke\0y': 1 }), 'ke\0y', `${name} key`);
    }
    // The whole body one string.
    const login = signedIn.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'a\0b',
    });
    await expectRefused(login, 'body', 'text body');
  });

  it('in the query, the path, a header or a cookie is a 400 naming it, on every route (anonymous ones too)', async () => {
    for (const name of Object.keys(payloads)) {
      const [method, url] = name.split(' ') as [string, string];
      const payload = payloads[name];
      await expectRefused(call(method, `${url}?q=a%00b`, payload), 'query.q', `${name} query`);
      await expectRefused(call(method, `${url}?a%00=1`, payload), 'query.a\0', `${name} query key`);
      await expectRefused(call(method, `${url}%00`, payload), 'path', `${name} path`);
      await expectRefused(
        call(method, url, payload, { 'x-csrf-token': 'a\0b' }),
        'headers.x-csrf-token',
        `${name} header`,
      );
      for (const cookie of [`${SESSION_COOKIE}=a%00b`, `${SESSION_COOKIE}=a\0b`])
        await expectRefused(call(method, url, payload, { cookie }), `cookie.${SESSION_COOKIE}`, name);
    }
  });

  it('leaves everything else to the routes: anonymous sign-in with a wrong password is a 401', async () => {
    const response = await signedIn.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@shop.example', password: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });
});
