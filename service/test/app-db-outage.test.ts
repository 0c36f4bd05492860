/**
 * The service over a PostgreSQL server that stops for 10 s and comes back: health says 503 while it is away and
 * liveness stays 200; other calls answer 503 with a JSON error, not an opaque 500; the process lives through it, and
 * once the server is back every call works again with the same session.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { AppDb } from '../app-db/db.ts';
import { APP_DB_UNREACHABLE } from '../routes/error-replies.ts';
import { tempDir } from './auth-fixture.ts';
import { databaseFor, startPostgres, type PostgresServer } from '../../scripts/support/postgres-server.ts';
import { startService, type ServiceProcess } from './helpers/service-process.ts';

const OUTAGE_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: PostgresServer;
let service: ServiceProcess;

beforeAll(async () => {
  server = await startPostgres();
  const databaseUrl = await databaseFor(server.url, 'app-db-outage');
  const appDb = await AppDb.open(databaseUrl);
  try {
    const argv = 'user add --email admin@agency.example --password admin-pass --role ADMIN';
    await runAdminCommand({ appDb, now: new Date() }, parseAdminArgs(argv.split(' ')));
  } finally {
    await appDb.close();
  }
  const dataDir = path.join(tempDir('thc-outage-'), 'data');
  service = await startService({ env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } });
});

afterAll(async () => {
  await service?.stop('SIGKILL');
  server?.stop();
});

interface Answer {
  status: number;
  body: unknown;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${service.origin}${url}`, init);
  return { status: response.status, body: await response.json() };
}

describe('an app database server that stops for 10 s', () => {
  it('health 503 and liveness 200 while it is away, calls 503 with JSON, all well once it is back', async () => {
    const login = await fetch(`${service.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@agency.example', password: 'admin-pass' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const signedIn = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
    const listWebsites = () => call('/api/websites/list', { method: 'POST', headers: signedIn, body: '{}' });

    expect(await call('/api/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await call('/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await listWebsites()).status).toBe(200);

    server.halt();
    const haltedAt = Date.now();
    const down = { status: 503, body: { status: 'unavailable', error: APP_DB_UNREACHABLE } };
    let rounds = 0;
    while (Date.now() - haltedAt < OUTAGE_MS) {
      expect(await call('/api/health')).toEqual(down);
      expect(await call('/api/health', { headers: { cookie } })).toEqual(down);
      expect(await call('/api/health/live', { headers: { cookie } })).toEqual({ status: 200, body: { status: 'ok' } });
      for (const answer of [
        await listWebsites(),
        await call('/api/auth/me', { headers: { cookie } }),
        await call('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'admin@agency.example', password: 'admin-pass' }),
        }),
      ])
        expect(answer).toMatchObject({ status: 503, body: { error: APP_DB_UNREACHABLE } });
      rounds++;
      await sleep(1000);
    }
    expect(rounds).toBeGreaterThanOrEqual(5);

    server.restart();
    const deadline = Date.now() + 15_000;
    while ((await call('/api/health')).status !== 200) {
      expect(Date.now(), `health still not ok after the restart:\n${service.output()}`).toBeLessThan(deadline);
      await sleep(250);
    }
    expect(await call('/api/health', { headers: { cookie } })).toEqual({
      status: 200,
      body: { status: 'ok', websites: 0, crawls: 0 },
    });
    expect(await listWebsites()).toEqual({ status: 200, body: { websites: [] } });
    expect(service.process.exitCode).toBeNull();
  });
});
