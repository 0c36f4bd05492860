/**
 * Authentication cannot be left out of the app: buildApp does not compile, nor build, without the app state that
 * carries the auth guard, and a report call built the way main.ts builds it answers 401 until the caller signs in.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AppState } from '../app-state.ts';
import { buildApp, NO_AUTH, type AppDeps } from '../app.ts';
import { openDatabase } from '../db/duckdb.ts';
import { loadTestCrawl, openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';

const SUMMARY = '/api/technical-health-check/report/get-summary';
const ROWS = '/api/technical-health-check/report/get-rows';
const summaryOf = { websiteId: 'shop', currentId: 1, reportId: 'meta/short-titles' };

describe('an app without authentication', () => {
  it('is a type error: the app state, and its accounts, are required', () => {
    expectTypeOf<AppDeps>().toHaveProperty('state');
    expectTypeOf<AppDeps['state']>().not.toBeNullable();
    expectTypeOf<AppState['accounts']>().not.toBeNullable();
  });

  it('is refused at build time when the compiler is talked round', async () => {
    const db = await openDatabase();
    try {
      const config = { dataDir: tempDir(), port: 8080, host: '127.0.0.1', isDemo: false };
      // @ts-expect-error buildApp takes no deps without the app state (sign-in and access); this line must not compile
      await expect(buildApp({ config, db })).rejects.toThrow(NO_AUTH);
    } finally {
      db.closeSync();
    }
  });
});

describe('a report call of the app as main.ts builds it', () => {
  let signedIn: SignedInApp<'staff'>;

  beforeAll(async () => {
    const dataDir = tempDir();
    await loadTestCrawl(dataDir, 'shop', 1, '2025-03-01T09:00:00Z');
    signedIn = await openSignedInApp(dataDir, '2025-03-10T09:00:00Z', ['staff']);
  });
  afterAll(() => signedIn?.close());

  it('answers 401 without a session, with a forged one, and after logout', async () => {
    const { app, sessions } = signedIn;
    const forged = { cookie: `thc_session=${'A'.repeat(43)}`, csrfToken: 'x' };
    for (const session of [undefined, forged]) {
      for (const url of [SUMMARY, ROWS]) {
        const response = await post(app, url, session, { ...summaryOf, columns: ['url'], limit: 10 });
        expect([url, response.statusCode, response.json()]).toEqual([url, 401, { error: 'Not signed in' }]);
      }
    }
    expect((await post(app, SUMMARY, sessions.staff, summaryOf)).statusCode).toBe(200);
    expect((await post(app, '/api/auth/logout', sessions.staff)).statusCode).toBe(200);
    const after = await post(app, SUMMARY, sessions.staff, summaryOf);
    expect([after.statusCode, after.json()]).toEqual([401, { error: 'Not signed in' }]);
  });
});
