/**
 * The app database: PostgreSQL, holding accounts, sessions, websites, approvals, checklists and job runs.
 *
 * With DATABASE_URL=postgres://… every replica and CLI shares that server. Without it, an embedded PostgreSQL
 * (PGlite) keeps its files in DATA_DIR/app-db: the same dialect and code path, zero setup, one process at a time
 * (DATA_DIR/app-db.lock), so there the admin CLI hands its commands to the running service.
 *
 * All statements of a process go through one connection, one at a time: the traffic is small, and serialising it
 * rules out write-write conflicts between this process's concurrent requests. Over a server, other replicas write
 * too: every write notifies the others (LISTEN/NOTIFY) of the tables it wrote, and they drop the cached reads of
 * those tables only, so a crawl run's heartbeat each second leaves sessions, websites and checklists in memory.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { APP_TABLES } from './app-tables.ts';
import { IN_MEMORY, isLockedError, type Connection, type Query } from './connection.ts';
import { openEmbedded } from './embedded-connection.ts';
import { migrate, type Migration } from './migrate.ts';
import { migrations } from './migrations.ts';
import { STORE_CHANGED, WRITES_CHANNEL, connectServer } from './server-connection.ts';
import type { Sql, SqlParam } from './sql.ts';

export { AppDbLockedError, IN_MEMORY, isLockedError } from './connection.ts';
export { announceStoreChange } from './server-connection.ts';
export type { Sql, SqlParam } from './sql.ts';

/** The embedded database's folder in DATA_DIR. */
export const APP_DB_DIR = 'app-db';
/** Where builds before PostgreSQL kept the app state (DuckDB); `npm run admin -- app-db import` moves it. */
export const DUCKDB_APP_DB_FILE = 'app.duckdb';
/** Written by the running service (mode 0600) so the admin CLI can hand its commands to it. */
export const ADMIN_TOKEN_FILE = 'admin.token';
/** How long to wait for the embedded database while another short-lived process (an admin CLI run) holds it. */
const OPEN_WAIT_MS = 10_000;
/** How long /api/health waits for the app database. */
const PING_TIMEOUT_MS = 2000;

export const appDbDir = (dataDir: string): string => path.join(dataDir, APP_DB_DIR);

/** DATABASE_URL when set, else the embedded database in DATA_DIR. */
export const appDbLocation = (dataDir: string, env: NodeJS.ProcessEnv = process.env): string =>
  env.DATABASE_URL?.trim() || appDbDir(dataDir);

export const isServerLocation = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/** Cached reads kept at most; beyond it the cache starts over. */
const MAX_CACHED_READS = 10_000;

/** The app tables a statement names; undefined (every table) when it names another or none, or changes the schema. */
export type Tables = ReadonlySet<string> | undefined;
const KNOWN_TABLES: ReadonlySet<string> = new Set([...APP_TABLES, 'schema_migrations']);
const WRITTEN_TABLE = /(?<!\b(?:DO|FOR)\s+)\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)/gi;
const READ_TABLE = /\b(?:FROM|JOIN)\s+"?(\w+)/gi;
const COMMA_JOIN = /\bFROM\s+"?\w+"?(?:\s+(?:AS\s+)?(?!WHERE\b|GROUP\b|ORDER\b|LIMIT\b|JOIN\b)\w+)?\s*,/i;
const SCHEMA_CHANGE = /\b(?:CREATE|ALTER|DROP|TRUNCATE)\b/i;
const readTablesBySql = new Map<string, Tables>();
const writtenTablesBySql = new Map<string, Tables>();

function tablesIn(sql: string, pattern: RegExp): Tables {
  const tables = new Set<string>();
  for (const [, name] of sql.matchAll(pattern)) {
    const table = name!.toLowerCase();
    if (!KNOWN_TABLES.has(table)) return undefined;
    tables.add(table);
  }
  return tables.size > 0 ? tables : undefined;
}

/** Tables found once per statement text and kind (the statements are the code's own: a few hundred at most). */
function remembered(memo: Map<string, Tables>, sql: string, find: () => Tables): Tables {
  const known = memo.get(sql);
  if (known !== undefined || memo.has(sql)) return known;
  const tables = find();
  memo.set(sql, tables);
  return tables;
}

/** The tables a write statement changes. */
export const writtenTables = (sql: string): Tables =>
  remembered(writtenTablesBySql, sql, () => (SCHEMA_CHANGE.test(sql) ? undefined : tablesIn(sql, WRITTEN_TABLE)));

/** The tables a read depends on; a comma join names tables FROM/JOIN does not catch, so it counts as every table. */
export const readTables = (sql: string): Tables =>
  remembered(readTablesBySql, sql, () => (COMMA_JOIN.test(sql) ? undefined : tablesIn(sql, READ_TABLE)));

const touches = (written: Tables, tables: ReadonlySet<string>): boolean =>
  written === undefined || [...tables].some((table) => written.has(table));

/** A cached read: the rows and the stamp of the tables it read when it ran. */
interface CachedRead {
  stamp: string;
  rows: Promise<readonly unknown[]>;
}

export class AppDb implements Sql {
  #queue: Promise<unknown> = Promise.resolve();
  #isClosed = false;
  /**
   * Per table, bumped by every write of it here or on another replica (and all at once by a write of unknown tables),
   * so a cached answer is never older than the last write of a table it reads; plain reads leave them, so they do not
   * empty the cache. Every request reads its session (and often its checklist) here: from memory.
   */
  readonly #tableGenerations = new Map<string, number>();
  /** Bumped by every write: the stamp of reads whose tables are unknown. */
  #generation = 0;
  /** Bumped by writes of unknown tables. */
  #allGeneration = 0;
  /** Over a server, cached answers are kept only while the notifications of other replicas' writes arrive. */
  #isCaching: boolean;
  /** Embedded databases open in this process: the pid lock only keeps other processes out. */
  static readonly #openHere = new Set<string>();
  /** Cached reads by statement text, then by their values as JSON. */
  readonly #reads = new Map<string, Map<string, CachedRead>>();
  #readCount = 0;
  readonly #instanceId = randomBytes(12).toString('base64url');
  readonly #remoteWriteListeners = new Set<{ tables: ReadonlySet<string>; listener: () => void }>();
  readonly #storeChangeListeners = new Set<() => void>();

  private constructor(
    readonly location: string,
    private readonly conn: Connection,
  ) {
    this.#isCaching = !conn.isShared;
  }

  /** True over a PostgreSQL server, which other processes may write to at the same time. */
  get isShared(): boolean {
    return this.conn.isShared;
  }

  /**
   * Opens (creating when missing) and brings the schema up to date: `location` is a postgres:// URL, the embedded
   * database's folder, or ':memory:'. Tests pass an older `migrations` list.
   */
  static async open(location: string, options: { migrations?: readonly Migration[]; now?: Date } = {}): Promise<AppDb> {
    const conn = isServerLocation(location) ? await connectServer(location) : await openEmbedded(location);
    const db = new AppDb(location, conn);
    if (!conn.isShared && location !== IN_MEMORY) AppDb.#openHere.add(path.resolve(location));
    try {
      if (conn.listen) await db.#listen();
      await db.transaction((tx) => migrate(tx, options.migrations ?? migrations, options.now ?? new Date()));
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  /** Opens like `open`, waiting a little while another short-lived process (an admin CLI run) holds the database. */
  static async openWaiting(location: string, clock: () => Date = () => new Date()): Promise<AppDb> {
    const deadline = Date.now() + OPEN_WAIT_MS;
    for (;;) {
      try {
        return await AppDb.open(location, { now: clock() });
      } catch (error) {
        if (!isLockedError(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /** Whether the database answers within `timeoutMs`; bypasses the queue, so a long transaction does not hold it. */
  async isReachable(timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
    if (this.#isClosed) return false;
    if (!this.conn.ping) return true;
    return this.conn.ping(timeoutMs).then(
      () => true,
      () => false,
    );
  }

  /** Whether this process has the embedded database open (a service in the same process as a loader, in tests). */
  static isOpenHere(location: string): boolean {
    return AppDb.#openHere.has(path.resolve(location));
  }

  all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return this.#exclusive(async () => {
      const rows = await this.#query<T>(this.conn.query, sql, params);
      if (isWrite(sql)) await this.#notifyWrite(this.conn.query, writtenTables(sql));
      return rows;
    });
  }

  run(sql: string, params: readonly SqlParam[] = []): Promise<void> {
    return this.#exclusive(async () => {
      await this.#run(this.conn.query, sql, params);
      if (isWrite(sql)) await this.#notifyWrite(this.conn.query, writtenTables(sql));
    });
  }

  cached<T>(sql: string, params: readonly SqlParam[] = []): Promise<readonly T[]> {
    if (!this.#isCaching) return this.all<T>(sql, params);
    const key = JSON.stringify(params);
    let reads = this.#reads.get(sql);
    const hit = reads?.get(key);
    const stamp = this.#stampOf(readTables(sql));
    if (hit && hit.stamp === stamp) return hit.rows as Promise<readonly T[]>;
    if (this.#readCount >= MAX_CACHED_READS) {
      this.#clearReads();
      reads = undefined;
    }
    const rows = this.#exclusive(async () => (await this.conn.query(toPositional(sql), bind(params))) as T[]);
    if (!reads) this.#reads.set(sql, (reads = new Map<string, CachedRead>()));
    if (!reads.has(key)) this.#readCount++;
    reads.set(key, { stamp, rows });
    rows.catch(() => {
      // A clear since then reset the count without this read.
      if (this.#reads.get(sql) === reads && reads.get(key)?.rows === rows && reads.delete(key)) this.#readCount--;
    });
    return rows;
  }

  /** Runs `work` in one transaction; nothing else of this process touches the database until it ends. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    /** The tables written so far; null while nothing is. */
    let written: Tables | null = null;
    return this.#exclusive(() =>
      this.conn
        .transaction(async (query) => {
          const note = (s: string) => {
            if (isWrite(s)) written = written === null ? writtenTables(s) : union(written, writtenTables(s));
          };
          const result = await work({
            all: (s, p = []) => {
              note(s);
              return this.#query(query, s, p);
            },
            run: (s, p = []) => {
              note(s);
              return this.#run(query, s, p);
            },
            cached: (s, p = []) => this.#query(query, s, p),
          });
          // Delivered at commit, and only then.
          if (written !== null) await this.#notifyWrite(query, written);
          return result;
        })
        .finally(() => this.#bump(written === null ? new Set() : written)),
    );
  }

  /** Calls `listener` after another process's write of one of `tables` to the shared database reached this one. */
  onRemoteWrite(tables: readonly string[], listener: () => void): () => void {
    const entry = { tables: new Set(tables), listener };
    this.#remoteWriteListeners.add(entry);
    return () => this.#remoteWriteListeners.delete(entry);
  }

  /**
   * Calls `listener` when a load on any host announced a published crawl (announceStoreChange), and after listening
   * again, when an announcement may have been missed. Only over a server; the store poll covers the rest.
   */
  onStoreChange(listener: () => void): () => void {
    this.#storeChangeListeners.add(listener);
    return () => this.#storeChangeListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    AppDb.#openHere.delete(path.resolve(this.location));
    await this.#queue;
    await this.conn.close();
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#isClosed) return Promise.reject(new Error('The app database is closed'));
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #clearReads(): void {
    this.#reads.clear();
    this.#readCount = 0;
  }

  /** What a cached answer of a read of these tables is valid for. */
  #stampOf(tables: Tables): string {
    if (tables === undefined) return `*${this.#generation}`;
    let stamp = String(this.#allGeneration);
    for (const table of tables) stamp += `,${this.#tableGenerations.get(table) ?? 0}`;
    return stamp;
  }

  #bump(tables: Tables): void {
    this.#generation++;
    if (tables === undefined) this.#allGeneration++;
    else for (const table of tables) this.#tableGenerations.set(table, (this.#tableGenerations.get(table) ?? 0) + 1);
  }

  async #query<T>(query: Query, sql: string, params: readonly SqlParam[]): Promise<T[]> {
    if (isWrite(sql)) this.#bump(writtenTables(sql));
    return (await query(toPositional(sql), bind(params))) as T[];
  }

  async #run(query: Query, sql: string, params: readonly SqlParam[]): Promise<void> {
    if (isWrite(sql)) this.#bump(writtenTables(sql));
    await query(params.length === 0 ? sql : toPositional(sql), bind(params));
  }

  /** The payload names the writer and the tables it wrote ('*': unknown), so the others drop only those answers. */
  async #notifyWrite(query: Query, tables: Tables): Promise<void> {
    if (!this.conn.isShared) return;
    const payload = `${this.#instanceId} ${tables === undefined ? '*' : [...tables].join(',')}`;
    await query('SELECT pg_notify($1, $2)', [WRITES_CHANNEL, payload]);
  }

  async #listen(): Promise<void> {
    const remoteWrite = (tables: Tables): void => {
      this.#bump(tables);
      for (const { tables: watched, listener } of this.#remoteWriteListeners) if (touches(tables, watched)) listener();
    };
    const storeChanged = (): void => {
      for (const listener of this.#storeChangeListeners) listener();
    };
    await this.conn.listen!(WRITES_CHANNEL, {
      onNotify: (payload) => {
        if (payload === STORE_CHANGED) return storeChanged();
        const [writer, list = '*'] = payload.split(' ');
        if (writer !== this.#instanceId) remoteWrite(list === '*' ? undefined : new Set(list.split(',')));
      },
      onLost: () => {
        // Whatever is written meanwhile would go unnoticed: stop answering from memory.
        this.#isCaching = false;
        this.#clearReads();
      },
      onListening: () => {
        this.#isCaching = true;
        remoteWrite(undefined);
        storeChanged();
      },
    });
  }
}

const isWrite = (sql: string): boolean => !/^\s*SELECT\b/i.test(sql);

const union = (a: Tables, b: Tables): Tables =>
  a === undefined || b === undefined ? undefined : new Set([...a, ...b]);

/** `?` placeholders (outside quoted text) to PostgreSQL's `$1`, `$2`, … */
export function toPositional(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

function bind(params: readonly SqlParam[]): unknown[] {
  return params.map((p) => (p instanceof Date ? p.toISOString() : p));
}
