/** Test scaffolding for accounts, approval and checklist tests: temp data dirs, crawls, a clock, a mail catcher. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openDatabase } from '../db/duckdb.ts';
import { CrawlRegistry } from '../store/registry.ts';
import type { ModuleState } from '../store/crawl-meta.ts';
import {
  CRAWL_DB_FILE,
  CRAWL_META_FILE,
  CURRENT_FILE,
  WEBSITE_FILE,
  crawlDir,
  websiteDir,
  writeFileAtomic,
} from '../store/layout.ts';
import { AppState, type AppStateOptions } from '../app-state.ts';
import type { Mailer } from '../jobs/mailer.ts';
import type { MailMessage } from '../mail-message.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { buildApp } from '../app.ts';
import { parseAdminArgs } from '../admin/commands.ts';
import { runAdminCommand } from '../admin/run-command.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { makeExport } from './helpers/make-export.ts';
import { createCrawlTables } from './helpers/make-store.ts';
import { databaseFor } from '../../scripts/support/postgres-server.ts';
import { appDbDir } from '../app-db/db.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory, removed after the test file. */
export function tempDir(prefix = 'thc-auth-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export class TestClock {
  constructor(public now: Date) {}
  readonly fn = (): Date => new Date(this.now);
  set(iso: string): void {
    this.now = new Date(iso);
  }
  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}

export interface CrawlSpec {
  websiteId: string;
  crawlId: number;
  crawledAt?: string;
  loadedAt?: string;
  moduleState?: ModuleState;
}

/** Writes a minimal live crawl (every contract table empty, a valid crawl.json, CURRENT) the way the loader lays it out. */
export async function writeCrawl(dataDir: string, spec: CrawlSpec): Promise<void> {
  const { websiteId, crawlId } = spec;
  const crawledAt = spec.crawledAt ?? `2025-01-${String(crawlId).padStart(2, '0')}T09:00:00.000Z`;
  fs.mkdirSync(websiteDir(dataDir, websiteId), { recursive: true });
  const websiteFile = path.join(websiteDir(dataDir, websiteId), WEBSITE_FILE);
  if (!fs.existsSync(websiteFile))
    writeFileAtomic(
      websiteFile,
      JSON.stringify({ id: websiteId, name: `Site ${websiteId}`, domain: `${websiteId}.example` }),
    );
  const loadId = `load-${crawlId}`;
  const loadDir = path.join(crawlDir(dataDir, websiteId, crawlId), loadId);
  fs.mkdirSync(loadDir, { recursive: true });
  const dbFile = path.join(loadDir, CRAWL_DB_FILE);
  const isNew = !fs.existsSync(dbFile);
  const db = await openDatabase(dbFile);
  const conn = await db.connect();
  if (isNew) await createCrawlTables(conn, {});
  conn.closeSync();
  db.closeSync();
  const day = new Date(crawledAt);
  const meta = {
    manifest: {
      websiteId,
      crawlId,
      crawledAt,
      dataStart: '2025-01-01',
      dataEnd: '2025-01-28',
      startUrl: `https://${websiteId}.example/`,
      crawler: { name: 'test', version: '1' },
    },
    loadId,
    loadedAt: spec.loadedAt ?? crawledAt,
    crawledFriendly: `${day.getUTCDate()} ${day.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${day.getUTCFullYear()}`,
    moduleState: spec.moduleState ?? 'PENDING',
    tables: { urls: 0 },
    previousCrawlId: null,
  };
  fs.writeFileSync(path.join(loadDir, CRAWL_META_FILE), JSON.stringify(meta));
  writeFileAtomic(path.join(crawlDir(dataDir, websiteId, crawlId), CURRENT_FILE), loadId);
}

/** Collects messages instead of sending them; `failNext` makes the next sends throw. */
export class CatchingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failures = 0;
  send(message: MailMessage): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      return Promise.reject(new Error('SMTP is down'));
    }
    this.sent.push(message);
    return Promise.resolve();
  }
  close(): void {}
}

export const quietLogger = { info: () => undefined, error: () => undefined };

export interface Stack {
  dataDir: string;
  db: DuckDBInstance;
  registry: CrawlRegistry;
  /** The app state as main.ts opens it: app database, accounts, approvals, crawl runner. */
  state: AppState;
  close(): Promise<void>;
}

/**
 * The app database of a test's `dataDir`: the embedded one in it, or in the `postgres` project a database of its
 * own on the test run's PostgreSQL server (the same one each time the data dir is opened).
 */
export async function testAppDbLocation(dataDir: string): Promise<string> {
  const serverUrl = inject('postgresUrl');
  return serverUrl ? databaseFor(serverUrl, dataDir) : appDbDir(dataDir);
}

/** A registry over `dataDir` and the app state over its app database, as main.ts wires them. */
export async function openStack(
  dataDir: string,
  options: Partial<AppStateOptions> & { clock: () => Date },
): Promise<Stack> {
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  const serverUrl = inject('postgresUrl');
  const state = await AppState.open({
    dataDir,
    registry,
    port: 8080,
    logger: quietLogger,
    mailer: new CatchingMailer(),
    ...options,
    env: { ...options.env, ...(serverUrl && { DATABASE_URL: await databaseFor(serverUrl, dataDir) }) },
  });
  return {
    dataDir,
    db,
    registry,
    state,
    async close() {
      await state.close();
      db.closeSync();
    },
  };
}

/** Runs admin CLI command lines (e.g. 'user add --email E …') against the stack's app database. */
export async function runAdmin(stack: Stack, clock: TestClock, commands: readonly string[]): Promise<void> {
  for (const argv of commands) {
    await runAdminCommand({ appDb: stack.state.appDb, now: clock.now }, parseAdminArgs(argv.split(' ')));
  }
}

/** The users the route tests sign in as: a client and a staff member of shop, the same of blog, and an admin. */
export const testUsers = {
  client: { email: 'client@shop.example', password: 'client-pass', role: 'CLIENT --website shop' },
  otherClient: { email: 'client@blog.example', password: 'client-pass', role: 'CLIENT --website blog' },
  staff: { email: 'staff@agency.example', password: 'staff-pass', role: 'STAFF --website shop' },
  otherStaff: { email: 'staff@blog-agency.example', password: 'staff-pass', role: 'STAFF --website blog' },
  admin: { email: 'admin@agency.example', password: 'admin-pass', role: 'ADMIN' },
} as const;
export type TestUser = keyof typeof testUsers;

/** Adds these test users through the admin CLI, in this order. */
export function addTestUsers(stack: Stack, clock: TestClock, users: readonly TestUser[]): Promise<void> {
  return runAdmin(
    stack,
    clock,
    users.map(
      (u) => `user add --email ${testUsers[u].email} --password ${testUsers[u].password} --role ${testUsers[u].role}`,
    ),
  );
}

/** Signs a test user in (see signIn). */
export function signInAs(app: FastifyInstance, user: TestUser): Promise<Session> {
  return signIn(app, testUsers[user].email, testUsers[user].password);
}

export interface Session {
  cookie: string;
  csrfToken: string;
}

/** Signs in through the API; throws unless it answers 200. */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<Session> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${email}: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`sign-in of ${email} set no session cookie`);
  return { cookie: `${cookie.name}=${cookie.value}`, csrfToken: response.json<{ csrfToken: string }>().csrfToken };
}

/** A POST as `session` (anonymous when undefined), with its CSRF token unless `csrf` is false. */
export function post(
  app: FastifyInstance,
  url: string,
  session: Session | undefined,
  payload: object = {},
  { csrf = true }: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (session) headers.cookie = session.cookie;
  if (session && csrf) headers['x-csrf-token'] = session.csrfToken;
  return app.inject({ method: 'POST', url, headers, payload });
}

/** The whole service as main.ts builds it (report routes included), over the stack. */
export async function buildTestApp(stack: Stack): Promise<FastifyInstance> {
  const config = { dataDir: stack.dataDir, port: 8080, host: '127.0.0.1', isDemo: false };
  const app = await buildApp({ config, db: stack.db, state: stack.state });
  await app.ready();
  return app;
}

export interface SignedInApp<U extends TestUser> {
  clock: TestClock;
  stack: Stack;
  app: FastifyInstance;
  sessions: Record<U, Session>;
  close: () => Promise<void>;
}

/**
 * The whole service over `dataDir` at `now`, with these test users added (in this order) and signed in;
 * `prepare` runs on the stack before the app is built (approvals, segments); `env` is the service's environment.
 */
export async function openSignedInApp<U extends TestUser>(
  dataDir: string,
  now: string,
  users: readonly U[],
  prepare?: (stack: Stack) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<SignedInApp<U>> {
  const clock = new TestClock(new Date(now));
  const stack = await openStack(dataDir, { clock: clock.fn, env });
  await addTestUsers(stack, clock, users);
  await prepare?.(stack);
  const app = await buildTestApp(stack);
  const sessions = {} as Record<U, Session>;
  for (const user of users) sessions[user] = await signInAs(app, user);
  const close = async (): Promise<void> => {
    await app.close();
    await stack.close();
  };
  return { clock, stack, app, sessions, close };
}

/** Loads a real crawl (make-export's default rows) through the loader. */
export async function loadTestCrawl(
  dataDir: string,
  websiteId: string,
  crawlId: number,
  crawledAt: string,
): Promise<void> {
  const made = await makeExport({ manifest: { websiteId, crawlId, crawledAt } });
  try {
    await loadCrawl({ dataDir, exportDir: made.dir });
  } finally {
    fs.rmSync(made.dir, { recursive: true, force: true });
  }
}
