/**
 * Four approvals of one crawl at once write one audit row and queue one email per client: one takes effect, the
 * others answer 200 with that approval (isNew false). Over a PostgreSQL server each comes from a replica of its own
 * (four app databases open on one server); the embedded database takes them on one app.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  TestClock,
  buildTestApp,
  openSignedInApp,
  openStack,
  post,
  tempDir,
  testUsers,
  writeCrawl,
  type SignedInApp,
} from './auth-fixture.ts';

const REPLICAS = 4;
const NOW = '2025-03-03T09:00:00Z';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app of each approval: replicas over a server, else the one app. */
async function appsOf(signedIn: SignedInApp<'staff' | 'client'>): Promise<FastifyInstance[]> {
  if (!inject('postgresUrl')) return Array.from({ length: REPLICAS }, () => signedIn.app);
  const apps = [signedIn.app];
  for (let i = 1; i < REPLICAS; i++) {
    const stack = await openStack(signedIn.stack.dataDir, { clock: new TestClock(new Date(NOW)).fn });
    const app = await buildTestApp(stack);
    cleanups.push(async () => {
      await app.close();
      await stack.close();
    });
    apps.push(app);
  }
  return apps;
}

describe('approving one crawl four times at once', () => {
  it('takes effect once: one audit row, one email per client, the same approval in every answer', async () => {
    const dataDir = tempDir();
    await writeCrawl(dataDir, { websiteId: 'shop', crawlId: 1 });
    const signedIn = await openSignedInApp(dataDir, NOW, ['staff', 'client']);
    cleanups.push(signedIn.close);
    const apps = await appsOf(signedIn);

    const answers = await Promise.all(
      apps.map((app) =>
        post(app, '/api/technical-health-check/crawl/approve', signedIn.sessions.staff, {
          moduleId: 'shop:1',
          websiteId: 'shop',
        }),
      ),
    );

    expect(answers.map((a) => a.statusCode)).toEqual(Array(REPLICAS).fill(200));
    const bodies = answers.map((a) => a.json<{ isNew: boolean; approvedAt: string; approvedBy: string }>());
    expect(bodies.filter((b) => b.isNew)).toHaveLength(1);
    expect(new Set(bodies.map((b) => `${b.approvedAt} ${b.approvedBy}`))).toEqual(
      new Set([`${new Date(NOW).toISOString()} ${testUsers.staff.email}`]),
    );
    const { appDb } = signedIn.stack.state;
    expect(await appDb.all('SELECT crawl_id, approved_by FROM approval_log')).toEqual([
      { crawl_id: 1, approved_by: testUsers.staff.email },
    ]);
    expect(await appDb.all('SELECT crawl_id, email FROM mail_log')).toEqual([
      { crawl_id: 1, email: testUsers.client.email },
    ]);
  });
});
