/**
 * The app database: PostgreSQL, holding accounts, sessions, websites, approvals, checklists and job runs.
 *
 * With DATABASE_URL=postgres://… every replica and CLI shares that server. Without it, an embedded PostgreSQL
 * (PGlite) keeps its files in DATA_DIR/app-db: the same dialect and code path, zero setup, one process at a time
 * (DATA_DIR/app-db.lock), so there the admin CLI hands its commands to the running service.
 *
 * All statements of a process go through one connection, one at a time: the traffic is small, and serialising it
 * rules out write-write conflicts between this process's concurrent requests. Reads kept in memory are named by
 * topic (cached-topics.ts) and dropped when code says it changed that topic; over a server the change is announced
 * to the other replicas (LISTEN/NOTIFY), so a crawl run's heartbeat each second leaves sessions, websites and
 * checklists in memory everywhere.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ALL_TOPICS, isCachedTopic, type CachedTopic } from './cached-topics.ts';
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

/**
 * Cached reads kept per topic, least recently used dropped first: sessions are one read per signed-in token, and a
 * busy replica keeps its active users' without growing with every token ever seen.
 */
const MAX_CACHED_READS = 10_000;

/** A cached read: the rows, and the generation of its topic when it was asked. */
interface CachedRead {
  generation: number;
  rows: Promise<readonly unknown[]>;
}

export class AppDb implements Sql {
  #queue: Promise<unknown> = Promise.resolve();
  #isClosed = false;
  /**
   * Per topic, bumped by every change of it here or on another replica, so an answer asked before the last change
   * is never served after it (a read in flight across a change included).
   */
  readonly #generations = new Map<CachedTopic, number>(ALL_TOPICS.map((topic) => [topic, 0]));
  /** Over a server, cached answers are kept only while the notifications of other replicas' changes arrive. */
  #isCaching: boolean;
  /** Embedded databases open in this process: the pid lock only keeps other processes out. */
  static readonly #openHere = new Set<string>();
  /**
   * Cached reads by topic, then by statement text and values as JSON; a topic's are dropped by a change of it (here,
   * or on another replica through its notification), all of them when the notifications stop.
   */
  readonly #reads = new Map<CachedTopic, LRUCache<string, CachedRead>>(
    ALL_TOPICS.map((topic) => [topic, new LRUCache({ max: MAX_CACHED_READS })]),
  );
  readonly #instanceId = randomBytes(12).toString('base64url');
  readonly #remoteChangeListeners = new Set<{ topic: CachedTopic; listener: () => void }>();
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
    return this.#exclusive(() => this.#query<T>(this.conn.query, sql, params));
  }

  run(sql: string, params: readonly SqlParam[] = []): Promise<void> {
    return this.#exclusive(() => this.#run(this.conn.query, sql, params));
  }

  cached<T>(topic: CachedTopic, sql: string, params: readonly SqlParam[] = []): Promise<readonly T[]> {
    if (!this.#isCaching) return this.all<T>(sql, params);
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    const reads = this.#reads.get(topic)!;
    const generation = this.#generations.get(topic)!;
    const hit = reads.get(key);
    if (hit && hit.generation === generation) return hit.rows as Promise<readonly T[]>;
    const rows = this.#exclusive(async () => (await this.conn.query(sql, bind(params))) as T[]);
    reads.set(key, { generation, rows });
    rows.catch(() => {
      if (reads.peek(key)?.rows === rows) reads.delete(key);
    });
    return rows;
  }

  async changed(...topics: CachedTopic[]): Promise<void> {
    this.#bump(topics);
    await this.#exclusive(() => this.#announce(this.conn.query, topics));
  }

  /** Runs `work` in one transaction; nothing else of this process touches the database until it ends. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    /** The topics the work said it changed: dropped and announced at commit. */
    const changed = new Set<CachedTopic>();
    return this.#exclusive(() =>
      this.conn
        .transaction(async (query) => {
          const result = await work({
            all: (s, p = []) => this.#query(query, s, p),
            run: (s, p = []) => this.#run(query, s, p),
            cached: (_topic, s, p = []) => this.#query(query, s, p),
            changed: (...topics) => {
              for (const topic of topics) changed.add(topic);
              return Promise.resolve();
            },
          });
          // Delivered at commit, and only then.
          if (changed.size > 0) await this.#announce(query, [...changed]);
          return result;
        })
        .finally(() => this.#bump([...changed])),
    );
  }

  /** Calls `listener` after another process changed `topic` in the shared database (cached-topics.ts). */
  onRemoteChange(topic: CachedTopic, listener: () => void): () => void {
    const entry = { topic, listener };
    this.#remoteChangeListeners.add(entry);
    return () => this.#remoteChangeListeners.delete(entry);
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
    for (const reads of this.#reads.values()) reads.clear();
  }

  #bump(topics: readonly CachedTopic[]): void {
    for (const topic of topics) {
      this.#generations.set(topic, this.#generations.get(topic)! + 1);
      this.#reads.get(topic)!.clear();
    }
  }

  #query<T>(query: Query, sql: string, params: readonly SqlParam[]): Promise<T[]> {
    return query(sql, bind(params)) as Promise<T[]>;
  }

  async #run(query: Query, sql: string, params: readonly SqlParam[]): Promise<void> {
    await query(sql, bind(params));
  }

  /** The payload names the writer and the topics it changed, so the others drop only those answers. */
  async #announce(query: Query, topics: readonly CachedTopic[]): Promise<void> {
    if (!this.conn.isShared || topics.length === 0) return;
    await query('SELECT pg_notify($1, $2)', [WRITES_CHANNEL, `${this.#instanceId} ${topics.join(',')}`]);
  }

  async #listen(): Promise<void> {
    const remoteChange = (topics: readonly CachedTopic[]): void => {
      this.#bump(topics);
      for (const { topic, listener } of this.#remoteChangeListeners) if (topics.includes(topic)) listener();
    };
    const storeChanged = (): void => {
      for (const listener of this.#storeChangeListeners) listener();
    };
    await this.conn.listen!(WRITES_CHANNEL, {
      onNotify: (payload) => {
        if (payload === STORE_CHANGED) return storeChanged();
        const [writer, list = ''] = payload.split(' ');
        // A topic this build does not know (a newer replica's) may cover anything: drop every answer.
        const named = list.split(',');
        if (writer !== this.#instanceId) remoteChange(named.every(isCachedTopic) ? named : ALL_TOPICS);
      },
      onLost: () => {
        // Whatever is written meanwhile would go unnoticed: stop answering from memory.
        this.#isCaching = false;
        this.#clearReads();
      },
      onListening: () => {
        this.#isCaching = true;
        remoteChange(ALL_TOPICS);
        storeChanged();
      },
    });
  }
}

function bind(params: readonly SqlParam[]): unknown[] {
  return params.map((p) => (p instanceof Date ? p.toISOString() : p));
}
