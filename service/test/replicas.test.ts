/**
 * Two service replicas (real processes on loopback ports) over one DATA_DIR and one real PostgreSQL server, as
 * behind a load balancer: sessions, checklists and approvals cross between them, a new crawl reaches both, the
 * scheduled approval and its mail happen once, and a replica killed mid-stream loses nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { AppDb } from '../app-db/db.ts';
import { changeWebsite, ensureWebsite } from '../app-db/websites.ts';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import { beat, claimQueuedRun, queueRun } from '../crawl-runs/runs.ts';
import { migrations } from '../app-db/migrations.ts';
import { parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { LoadError } from '../load/load-error.ts';
import { importData } from '../sources/import-data.ts';
import { ImportError } from '../sources/import-error.ts';
import { readSourceVersion } from '../source-data/source-store.ts';
import { makeExport } from './helpers/make-export.ts';
import { databaseFor, startPostgres, type PostgresServer } from '../../scripts/support/postgres-server.ts';
import { killServices, startService, type ServiceProcess } from './helpers/service-process.ts';
import { CatchingMailer, TestClock, openStack, quietLogger, tempDir, writeCrawl } from './auth-fixture.ts';

const SAVE = '/api/technical-health-check/checklist/save';
const GET_ITEMS = '/api/technical-health-check/checklist/get-items';
const OVERVIEW = '/api/technical-health-check/overview/get-overview';
const APPROVE = '/api/technical-health-check/crawl/approve';
const PASSWORD = 'replica-pass';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: PostgresServer;
let databaseUrl: string;
let dataDir: string;

type Replica = ServiceProcess & { name: string };
const replicas: Replica[] = [];

async function startReplica(name: string): Promise<Replica> {
  const service = await startService({
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // Longer than any bound here: a new crawl reaches the replicas through the load's announcement, not the poll.
      STORE_POLL_SECONDS: '600',
    },
    timeoutMs: 180_000,
  });
  const replica = { ...service, name };
  replicas.push(replica);
  return replica;
}

interface Session {
  cookie: string;
  csrfToken: string;
}

async function signIn(replica: Replica, email: string): Promise<Session> {
  const response = await fetch(`${replica.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
  return { cookie, csrfToken: ((await response.json()) as { csrfToken: string }).csrfToken };
}

async function call(replica: Replica, url: string, session: Session, payload: object): Promise<Response> {
  return fetch(`${replica.origin}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    body: JSON.stringify(payload),
  });
}

const saveChecked = (replica: Replica, session: Session, crawlId: number, urls: string[]) =>
  call(replica, SAVE, session, {
    websiteId: 'shop',
    setChecked: urls.map((url) => ({ url, subKeys: [] })),
    setUnchecked: [],
    start: crawlId,
    submodule: 'content/thin',
    module: 'technical-health-check',
    end: null,
    differenceType: 'all',
  });

async function checkedUrls(replica: Replica, session: Session, crawlId: number): Promise<string[]> {
  const response = await call(replica, GET_ITEMS, session, { websiteId: 'shop', reportId: 'content/thin', crawlId });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { url: string }[] }).items.map((i) => i.url).sort();
}

/** Polls until `probe` is true; resolves with how long that took, or throws after `seconds`. */
async function within(seconds: number, what: string, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > seconds * 1000) throw new Error(`${what} within ${seconds} s`);
    await sleep(50);
  }
}

async function admin(argv: string): Promise<void> {
  const db = await AppDb.open(databaseUrl);
  try {
    await runAdminCommand({ appDb: db, now: new Date() }, parseAdminArgs(argv.split(' ')));
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await databaseFor(server.url, 'replicas');
  dataDir = tempDir('thc-replicas-');
  for (const crawlId of [1, 2]) await writeCrawl(dataDir, { websiteId: 'shop', crawlId });
  await admin('website add --id shop --name Shop --domain shop.example');
  await admin(`user add --email staff@shop.example --password ${PASSWORD} --role STAFF --website shop`);
  await admin(`user add --email client@shop.example --password ${PASSWORD} --role CLIENT --website shop`);
  await startReplica('A');
  await startReplica('B');
});

afterAll(() => {
  killServices();
  server?.stop();
});

describe('two replicas over one PostgreSQL server and one DATA_DIR', () => {
  it('migrates once when several processes open a fresh database together', async () => {
    const url = await databaseFor(server.url, 'replicas-migrate');
    const dbs = await Promise.all([1, 2, 3].map(() => AppDb.open(url)));
    try {
      const rows = await dbs[0]!.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it('keeps cached reads fresh when the connection that listens for other writes drops, and listens again', async () => {
    const url = await databaseFor(server.url, 'replicas-listen');
    const [a, b] = await Promise.all([AppDb.open(url), AppDb.open(url)]);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      let remoteWrites = 0;
      a.onRemoteChange('websites', () => remoteWrites++);
      const nameOnA = async () =>
        (await a.cached<{ name: string }>('websites', 'SELECT name FROM websites WHERE id = $1', ['w']))[0]?.name;
      const rename = (name: string) => b.transaction((tx) => changeWebsite(tx, 'w', { name }));
      await b.transaction((tx) => ensureWebsite(tx, { id: 'w', name: 'first', domain: 'w.example' }, new Date()));
      await within(2, 'A saw the insert', async () => (await nameOnA()) === 'first');
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'thc-listen' AND datname = current_database()`,
      );
      expect(rowCount).toBe(2);
      await rename('second');
      await within(2, 'A saw the update made while it was not listening', async () => (await nameOnA()) === 'second');
      const before = remoteWrites;
      await within(5, 'A listened again', async () => {
        await rename('second');
        return remoteWrites > before;
      });
      await rename('third');
      await within(2, 'A saw the next update', async () => (await nameOnA()) === 'third');
    } finally {
      await killer.end();
      await a.close();
      await b.close();
    }
  });

  it("does not empty another replica's cached answers about other tables with a crawl run's heartbeat each second", async () => {
    const url = await databaseFor(server.url, 'replicas-heartbeat');
    const [owner, other] = await Promise.all([AppDb.open(url), AppDb.open(url)]);
    const behindTheirBacks = new pg.Client({ connectionString: url });
    await behindTheirBacks.connect();
    try {
      let runWrites = 0;
      let registryWrites = 0;
      other.onRemoteChange('crawl-runs', () => runWrites++);
      other.onRemoteChange('crawl-registry', () => registryWrites++);
      const now = new Date();
      await owner.run(`INSERT INTO websites VALUES ('shop', 'Shop', 'shop.example', $1)`, [now]);
      const settings = defaultCrawlSettings('shop.example');
      await queueRun(owner, {
        websiteId: 'shop',
        trigger: 'manual',
        startedBy: null,
        scheduledFor: null,
        settings,
        now,
      });
      const run = (await claimQueuedRun(owner, 'owner-host', now))!;
      await within(2, 'the other replica heard the run queued and claimed', () => Promise.resolve(runWrites === 2));

      const websiteName = () =>
        other.cached<{ name: string }>('websites', 'SELECT name FROM websites WHERE id = $1', ['shop']);
      const pagesDone = () =>
        other.cached<{ pages_done: number }>('crawl-runs', 'SELECT pages_done FROM crawl_runs WHERE id = $1', [run.id]);
      expect(await websiteName()).toEqual([{ name: 'Shop' }]);
      expect(await pagesDone()).toEqual([{ pages_done: 0 }]);
      // Changed without a notification: the other replica reads it only if something empties its cached answer.
      await behindTheirBacks.query(`UPDATE websites SET name = 'Renamed' WHERE id = 'shop'`);

      for (let second = 1; second <= 5; second++) {
        const progress = { pagesDone: 10 * second, queued: 5, errors: 0, pagesPerSecond: 10, elapsedMs: 1000 * second };
        expect(await beat(owner, run.id, 'owner-host', progress, new Date())).toBeDefined();
        await within(2, `the other replica heard heartbeat ${second}`, () => Promise.resolve(runWrites === 2 + second));
      }
      expect(registryWrites).toBe(0);
      expect(await pagesDone()).toEqual([{ pages_done: 50 }]);
      expect(await websiteName()).toEqual([{ name: 'Shop' }]);

      // A change of the website does reach the cached answer.
      await owner.transaction((tx) => changeWebsite(tx, 'shop', { domain: 'shop.example' }));
      await within(2, 'the other replica read the renamed website', async () => {
        return (await websiteName())[0]?.name === 'Renamed';
      });
      expect(registryWrites).toBe(0);
    } finally {
      await behindTheirBacks.end();
      await owner.close();
      await other.close();
    }
  });

  it('takes a session from A to B; a logout on A signs it out on B too', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const session = await signIn(a, 'staff@shop.example');
    const me = (r: Replica) => fetch(`${r.origin}/api/auth/me`, { headers: { cookie: session.cookie } });
    expect(await (await me(b)).json()).toMatchObject({ user: { email: 'staff@shop.example', role: 'STAFF' } });
    expect((await call(a, '/api/auth/logout', session, {})).status).toBe(200);
    const revokedMs = await within(2, 'B refused the signed-out session', async () => (await me(b)).status === 401);
    console.log(`replicas: logout on A refused on B after ${revokedMs} ms`);
  });

  it('signs a user out on both replicas when the admin CLI changes their password or removes them', async () => {
    const [a, b] = replicas as [Replica, Replica];
    await admin(`user add --email temp@shop.example --password ${PASSWORD} --role STAFF --website shop`);
    const meStatus = async (r: Replica, s: Session) =>
      (await fetch(`${r.origin}/api/auth/me`, { headers: { cookie: s.cookie } })).status;
    const first = await signIn(a, 'temp@shop.example');
    expect(await meStatus(b, first)).toBe(200);
    await admin('user password --email temp@shop.example --password another-pass');
    await within(2, 'both refused the session after the password change', async () =>
      (await Promise.all(replicas.map((r) => meStatus(r, first)))).every((status) => status === 401),
    );
    await admin(`user password --email temp@shop.example --password ${PASSWORD}`);
    const second = await signIn(b, 'temp@shop.example');
    expect(await meStatus(a, second)).toBe(200);
    await admin('user remove --email temp@shop.example');
    await within(2, 'both refused the session of the removed user', async () =>
      (await Promise.all(replicas.map((r) => meStatus(r, second)))).every((status) => status === 401),
    );
  });

  it('saves a checklist on A and reads it on B', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const staff = await signIn(a, 'staff@shop.example');
    expect((await saveChecked(a, staff, 2, ['https://shop.example/from-a'])).status).toBe(200);
    expect(await checkedUrls(b, staff, 2)).toContain('https://shop.example/from-a');
  });

  it('approves on B while A shows the crawl pending; A shows it approved within 2 s', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const client = await signIn(a, 'client@shop.example');
    const staff = await signIn(b, 'staff@shop.example');
    const overviewOnA = async () => (await call(a, OVERVIEW, client, { websiteId: 'shop', currentId: 2 })).status;
    expect(await overviewOnA()).toBe(404);
    expect((await call(b, APPROVE, staff, { websiteId: 'shop', moduleId: 'shop:2' })).status).toBe(200);
    const seenMs = await within(2, 'A showed the approval', async () => (await overviewOnA()) === 200);
    console.log(`replicas: approval on B seen on A after ${seenMs} ms`);
  });

  it('serves a crawl loaded while both run on both within 2 s: the load announces it', async () => {
    const staff = await signIn(replicas[0]!, 'staff@shop.example');
    const made = await makeExport({
      manifest: { websiteId: 'shop', crawlId: 3, crawledAt: '2025-03-01T09:00:00.000Z' },
    });
    const started = Date.now();
    try {
      await loadCrawl({ dataDir, exportDir: made.dir, databaseUrl });
    } finally {
      fs.rmSync(made.dir, { recursive: true, force: true });
    }
    const loadMs = Date.now() - started;
    const servedMs = await Promise.all(
      replicas.map((r) =>
        within(
          2,
          `replica ${r.name} served crawl 3`,
          async () => (await call(r, OVERVIEW, staff, { websiteId: 'shop', currentId: 3 })).status === 200,
        ),
      ),
    );
    console.log(`replicas: new crawl served after ${servedMs.join(' and ')} ms (load took ${loadMs} ms)`);
  });

  it('refuses a second load of a website while another host holds its lock on the server', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    const made = await makeExport({
      manifest: { websiteId: 'shop', crawlId: 4, crawledAt: '2025-03-08T09:00:00.000Z' },
    });
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtextextended('thc-load:' || $1, 0))`, ['shop']);
      const refused = await loadCrawl({ dataDir, exportDir: made.dir, databaseUrl }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LoadError);
      expect((refused as LoadError).message).toContain('another load (on another host) is running for website "shop"');
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      await expect(loadCrawl({ dataDir, exportDir: made.dir, databaseUrl })).resolves.toMatchObject({ crawlId: 4 });
    } finally {
      await holder.end();
      fs.rmSync(made.dir, { recursive: true, force: true });
    }
  });

  it('refuses an import while another host imports for the website, and its publishing while another host loads it', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    const lock = (name: string) => holder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [name]);
    const trends = (): Promise<unknown> =>
      importData({
        dataDir,
        websiteId: 'shop',
        source: 'trends',
        files: [path.resolve(import.meta.dirname, '../../fixtures/sources/trends/multiTimeline.csv')],
        databaseUrl,
        isRefreshDeferred: true,
      });
    try {
      await lock('thc-import:shop');
      const refused = await trends().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ImportError);
      expect((refused as ImportError).message).toMatch(
        /another import \(on another host\) is running for website "shop"$/,
      );
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      // Publishing the new version waits for no load: a load on another host holding the lock refuses it, unharmed.
      await lock('thc-load:shop');
      const duringLoad = await trends().catch((e: unknown) => e);
      expect((duringLoad as ImportError).message).toContain(
        'another load (on another host) is running for website "shop"',
      );
      expect(readSourceVersion(dataDir, 'shop', 'trends')).toBeUndefined();
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      await expect(trends()).resolves.toMatchObject({ isUnchanged: false });
      expect(readSourceVersion(dataDir, 'shop', 'trends')?.meta.imports).toHaveLength(1);
    } finally {
      await holder.end();
    }
  });

  it('runs the Tuesday 11:00 approval once with both up, and mails each client once per crawl', async () => {
    // Two more replicas in this process, on a database of their own, with an injected clock.
    const tuesdayDir = tempDir('thc-replicas-tuesday-');
    for (const crawlId of [1, 2])
      await writeCrawl(tuesdayDir, { websiteId: 'shop', crawlId, loadedAt: '2025-03-03T09:00:00.000Z' });
    const url = await databaseFor(server.url, 'replicas-tuesday');
    const clock = new TestClock(new Date('2025-03-03T09:00:00.000Z'));
    const mailers = [new CatchingMailer(), new CatchingMailer()];
    const stacks = await Promise.all(
      mailers.map((mailer) =>
        openStack(tuesdayDir, { clock: clock.fn, env: { DATABASE_URL: url }, mailer, logger: quietLogger }),
      ),
    );
    try {
      for (const email of ['one@shop.example', 'two@shop.example'])
        await runAdminCommand(
          { appDb: stacks[0]!.state.appDb, now: clock.now },
          parseAdminArgs(`user add --email ${email} --password ${PASSWORD} --role CLIENT --website shop`.split(' ')),
        );
      clock.set('2025-03-04T11:00:00.000Z');
      const runs = await Promise.all(stacks.map((s) => s.state.autoApproval.runDue()));
      expect(runs.filter((r) => r !== undefined).map((r) => r.approved.length)).toEqual([2]);
      await Promise.all(stacks.map((s) => s.state.approvals.deliverQueued()));
      await Promise.all(stacks.map((s) => s.state.approvals.deliverQueued()));
      const sent = mailers.flatMap((m) => m.sent.map((message) => `${message.to} ${message.subject}`)).sort();
      expect(sent).toHaveLength(4);
      expect(new Set(sent).size).toBe(4);
      const log = await stacks[1]!.state.appDb.all<{ crawl_id: number; n: number }>(
        'SELECT crawl_id, count(*)::INTEGER AS n FROM approval_log GROUP BY crawl_id ORDER BY crawl_id',
      );
      expect(log).toEqual([
        { crawl_id: 1, n: 1 },
        { crawl_id: 2, n: 1 },
      ]);
      for (const s of stacks) expect(s.state.moduleStateOf('shop', 2)).toBe('APPROVED');
    } finally {
      for (const s of stacks) await s.close();
    }
  });

  it('keeps answering on B when A is killed mid-stream, and loses nothing either wrote', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const staffA = await signIn(a, 'staff@shop.example');
    const staffB = await signIn(b, 'staff@shop.example');
    // Crawl 4, loaded by the test before, is the latest; both replicas must have picked it up from the store.
    for (const [r, staff] of [
      [a, staffA],
      [b, staffB],
    ] as const)
      await within(
        10,
        `replica ${r.name} served crawl 4`,
        async () => (await call(r, OVERVIEW, staff, { websiteId: 'shop', currentId: 4 })).status === 200,
      );
    const saved: string[] = [];
    const failedOnA: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (i === 20) a.process.kill('SIGKILL');
      const onA = i % 2 === 0;
      // Two items per save: both are there afterwards, or neither.
      const urls = [`https://shop.example/stream-${i}-x`, `https://shop.example/stream-${i}-y`];
      const response = await saveChecked(onA ? a : b, onA ? staffA : staffB, 4, urls).catch(() => undefined);
      if (response?.status === 200) saved.push(...urls);
      else if (onA) failedOnA.push(i);
      else throw new Error(`B failed request ${i}: ${response?.status}`);
    }
    expect(failedOnA.length).toBeGreaterThan(0);
    expect(failedOnA.every((i) => i >= 20)).toBe(true);
    const stored = (await checkedUrls(b, staffB, 4)).filter((u) => u.includes('/stream-'));
    expect(stored).toEqual([...saved].sort());
  });
});
