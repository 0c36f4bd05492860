/**
 * `npm run admin -- app-db migrate-to postgres://…` on the demo's app state: everything in the embedded database
 * arrives in a real PostgreSQL server, row for row, and the service runs on it as before.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppDb, appDbDir } from '../app-db/db.ts';
import { APP_TABLES } from '../app-db/app-tables.ts';
import { saveChecklist } from '../app-db/checklist.ts';
import { demoLogins } from '../auth/demo-accounts.ts';
import { createSession } from '../auth/sessions.ts';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import { claimQueuedRun, endRun, queueRun, saveSettings } from '../crawl-runs/runs.ts';
import { saveCrawlEmailed } from '../notifications/run-notices.ts';
import { parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { CatchingMailer, TestClock, openStack, tempDir, writeCrawl } from './auth-fixture.ts';
import { databaseFor, startPostgres, type PostgresServer } from '../../scripts/support/postgres-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());

const migrateTo = (dataDir: string, url: string) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'app-db', 'migrate-to', url], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
  }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );

async function tableRows(db: AppDb): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of [...APP_TABLES, 'schema_migrations']) {
    const rows = await db.all(`SELECT * FROM ${table}`);
    tables[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return tables;
}

describe('app-db migrate-to', () => {
  it('moves the demo app state into PostgreSQL with nothing lost, once', async () => {
    const dataDir = tempDir('thc-migrate-');
    for (const crawlId of [1, 2, 3, 4]) await writeCrawl(dataDir, { websiteId: 'northwind-outfitters', crawlId });
    for (const crawlId of [1, 2]) await writeCrawl(dataDir, { websiteId: 'alpine-travel', crawlId });
    const clock = new TestClock(new Date('2025-03-03T09:00:00.000Z'));
    const demo = await openStack(dataDir, { clock: clock.fn, isDemo: true });
    const limiter = await demo.state.accounts.loginLimiter.begin('client@alpine-travel.example', '127.0.0.1');
    if (limiter.isAllowed) await limiter.finish(false);
    await demo.state.appDb.transaction((tx) => createSession(tx, 1, clock.now));
    // A one-time password link and its audit row.
    await runAdminCommand(
      { appDb: demo.state.appDb, now: clock.now, mail: { mailer: new CatchingMailer(), publicUrl: 'http://thc.test' } },
      parseAdminArgs(['user', 'reset-password', '--email', 'client@alpine-travel.example']),
    );
    await demo.state.appDb.transaction((tx) =>
      saveChecklist(tx, {
        websiteId: 'northwind-outfitters',
        reportId: 'content/thin',
        crawlId: 4,
        setChecked: [{ url: 'https://northwind-outfitters.co.uk/a', subKeys: [] }],
        setUnchecked: [],
        by: 'staff@northwind-outfitters.example',
        now: clock.now,
      }),
    );
    await demo.state.appDb.transaction((tx) =>
      saveSettings(
        tx,
        'alpine-travel',
        defaultCrawlSettings('alpine-travel.example'),
        'staff@alpine.example',
        clock.now,
      ),
    );
    await queueRun(demo.state.appDb, {
      websiteId: 'alpine-travel',
      trigger: 'manual',
      startedBy: 'staff@alpine.example',
      scheduledFor: null,
      settings: defaultCrawlSettings('alpine-travel.example'),
      now: clock.now,
    });
    // The run fails, which tells Alpine's staff (notifications), one of whom has switched the email off.
    const claimed = await claimQueuedRun(demo.state.appDb, 'test-owner', clock.now);
    await demo.state.appDb.transaction((tx) =>
      endRun(tx, claimed!.id, 'test-owner', { status: 'failed', reason: 'test' }, clock.now),
    );
    await saveCrawlEmailed(demo.state.appDb, 1, false);
    clock.set('2025-03-04T11:00:00.000Z');
    expect((await demo.state.autoApproval.runDue())?.approved.length).toBeGreaterThan(0);
    await demo.state.approvals.deliverQueued();
    await demo.close();

    const url = await databaseFor(server.url, 'migrate-demo');
    const moved = await migrateTo(dataDir, url);
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/^Copied \d+ rows from .*app-db to 127\.0\.0\.1:\d+\/thc_\w+ \(users 5, websites 2, /);

    const from = await AppDb.open(appDbDir(dataDir));
    const to = await AppDb.open(url);
    try {
      const before = await tableRows(from);
      expect(before.users).toHaveLength(demoLogins.length);
      // Every table holds rows to move, so a table left out of the copy would show.
      for (const table of APP_TABLES) expect({ table, rows: before[table]!.length }).not.toEqual({ table, rows: 0 });
      expect(await tableRows(to)).toEqual(before);
      // New rows take ids after the copied ones.
      const [next] = await to.all<{ id: number }>(
        `INSERT INTO users (email, password_hash, role, created_at) VALUES ('new@x.example', 'h', 'ADMIN', ?) RETURNING id`,
        [clock.now],
      );
      expect(next!.id).toBe(demoLogins.length + 1);
      await to.run(`DELETE FROM users WHERE email = 'new@x.example'`);
      const run = await queueRun(to, {
        websiteId: 'northwind-outfitters',
        trigger: 'manual',
        startedBy: null,
        scheduledFor: null,
        settings: defaultCrawlSettings('northwind-outfitters.example'),
        now: clock.now,
      });
      expect(run?.id).toBe(2);
      await to.run('DELETE FROM crawl_runs WHERE id = 2');
    } finally {
      await from.close();
      await to.close();
    }

    const again = await migrateTo(dataDir, url);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('admin: The target already holds app state (users has rows)');

    const onServer = await openStack(dataDir, { clock: clock.fn, env: { DATABASE_URL: url } });
    try {
      expect((await onServer.state.accounts.demoLoginsInUse()).map((l) => l.email)).toEqual(
        demoLogins.map((l) => l.email),
      );
      expect(onServer.state.moduleStateOf('alpine-travel', 2)).toBe('APPROVED');
    } finally {
      await onServer.close();
    }
  });

  it('refuses bad usage with exit code 2 and one line', async () => {
    const refused = await migrateTo(tempDir('thc-migrate-'), 'mysql://nope');
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('admin: app-db: expected migrate-to postgres://… (got migrate-to mysql://nope)');
  });
});
