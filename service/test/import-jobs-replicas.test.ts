/**
 * The Data sources page's jobs over two service instances on one DATA_DIR and one real PostgreSQL server, as behind a
 * load balancer: a job started on one is polled on the other to its end; a job running on another replica refuses
 * an upload to this one; a job whose replica is gone counts as failed and no longer blocks the website.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSourcesAnswer, ImportJob } from '../../catalog/data-source-calls.ts';
import { databaseFor, startPostgres, type PostgresServer } from '../../scripts/support/postgres-server.ts';
import { IMPORT_RUNNING } from '../routes/data-sources.ts';
import { ABANDONED, STALE_HEARTBEAT_MS } from '../sources/import-job-rows.ts';
import {
  TestClock,
  addTestUsers,
  buildTestApp,
  loadTestCrawl,
  openStack,
  post,
  signInAs,
  tempDir,
  type Session,
  type Stack,
} from './auth-fixture.ts';
import { BULK_CSV } from './helpers/source-fixtures.ts';

const SITE = 'shop';
const clock = new TestClock(new Date('2026-11-20T09:00:00Z'));
let server: PostgresServer;
const stacks: Stack[] = [];
const apps: FastifyInstance[] = [];
const origins: string[] = [];
let session: Session;

beforeAll(async () => {
  server = await startPostgres();
  const dataDir = tempDir('thc-import-jobs-');
  await loadTestCrawl(dataDir, SITE, 1, '2026-11-18T09:00:00.000Z');
  const env = { DATABASE_URL: await databaseFor(server.url, dataDir) };
  for (let i = 0; i < 2; i++) {
    const stack = await openStack(dataDir, { clock: clock.fn, env });
    stacks.push(stack);
    if (i === 0) await addTestUsers(stack, clock, ['admin']);
    const app = await buildTestApp(stack);
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    origins.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  }
  session = await signInAs(apps[0]!, 'admin');
}, 300_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const stack of stacks) await stack.close();
  server?.stop();
});

function upload(replica: number): Promise<Response> {
  const form = new FormData();
  form.append('files', new Blob([fs.readFileSync(BULK_CSV)]), path.basename(BULK_CSV));
  return fetch(`${origins[replica]}/api/data-sources/upload?websiteId=${SITE}&source=search-console`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    body: form,
  });
}

async function jobsOn(replica: number): Promise<ImportJob[]> {
  const response = await post(apps[replica]!, '/api/data-sources/list', session, { websiteId: SITE });
  expect(response.statusCode).toBe(200);
  return response.json<DataSourcesAnswer>().jobs;
}

describe('import jobs over two replicas', () => {
  it('are seen on the other replica, which polls one to its end', async () => {
    const response = await upload(0);
    expect(response.status).toBe(202);
    const { job } = (await response.json()) as { job: ImportJob };
    let seen: ImportJob | undefined;
    for (let i = 0; i < 600 && seen?.status !== 'done'; i++) {
      seen = (await jobsOn(1)).find((j) => j.id === job.id);
      expect(seen).toBeDefined();
      if (seen!.status === 'running') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen).toMatchObject({ id: job.id, kind: 'import', status: 'done', files: [path.basename(BULK_CSV)] });
    expect(seen!.summary).toMatch(/rows of Search Console bulk export/);
    expect(await jobsOn(0)).toEqual(await jobsOn(1));
  }, 180_000);

  it('refuse an upload while another replica runs a job for the website, until that replica is gone', async () => {
    const appDb = stacks[0]!.state.appDb;
    await appDb.run(
      `INSERT INTO import_jobs (id, website_id, source, kind, files, started_by, status, started_at, owner, heartbeat_at)
       VALUES ('elsewhere-1', ?, 'analytics', 'import', ?, 'admin@agency.example', 'running', ?, 'other-host:4242:abcdef', ?)`,
      [SITE, ['ga4.csv'], clock.now, clock.now],
    );
    const refused = await upload(1);
    expect([refused.status, await refused.json()]).toEqual([409, IMPORT_RUNNING]);
    expect((await jobsOn(0))[0]).toMatchObject({ id: 'elsewhere-1', status: 'running' });

    clock.advance(STALE_HEARTBEAT_MS + 1000);
    expect((await jobsOn(1))[0]).toMatchObject({ id: 'elsewhere-1', status: 'failed', summary: ABANDONED });
    const response = await upload(1);
    expect(response.status).toBe(202);
    const { job } = (await response.json()) as { job: ImportJob };
    expect((await jobsOn(0)).map((j) => j.id)).toContain(job.id);
  }, 180_000);
});
