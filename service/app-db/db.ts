/**
 * The app database: DATA_DIR/app.duckdb, holding accounts, websites, approvals and checklists. DuckDB lets one
 * process open a file read-write, so the service owns it while running and the admin CLI hands its commands over
 * (see scripts/admin.ts). All statements of a process go through one connection, one at a time: the traffic is
 * small, and serialising it rules out write-write conflicts between concurrent requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  LIST,
  VARCHAR,
  listValue,
  timestampValue,
  type DuckDBConnection,
  type DuckDBInstance,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { openDatabase } from '../db/duckdb.ts';
import { migrate, type Migration } from './migrate.ts';
import { migrations } from './migrations.ts';

export const APP_DB_FILE = 'app.duckdb';
/** Written by the running service (mode 0600) so the admin CLI can hand its commands to it. */
export const ADMIN_TOKEN_FILE = 'admin.token';
/** How long to wait for app.duckdb while another process (an admin CLI run) has it open. */
const OPEN_WAIT_MS = 10_000;

/** Values a statement can bind. Dates bind as TIMESTAMP (UTC), string arrays as VARCHAR[]. */
export type SqlParam = string | number | boolean | null | Date | readonly string[];

export interface Sql {
  all<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  run(sql: string, params?: readonly SqlParam[]): Promise<void>;
  /**
   * A read whose answer depends on nothing but the database and `params` (no clock, no randomness): answered from
   * memory until the next write. Callers must not modify the rows.
   */
  cached<T>(sql: string, params?: readonly SqlParam[]): Promise<readonly T[]>;
}

/** Cached reads kept at most; beyond it the cache starts over. */
const MAX_CACHED_READS = 10_000;

export class AppDb implements Sql {
  #queue: Promise<unknown> = Promise.resolve();
  #isClosed = false;
  /**
   * Bumped by every statement that is not a cached read, so a cached answer is never older than the last write.
   * Every request reads its session (and often its checklist) here: from memory, it never waits behind report
   * queries for a libuv thread.
   */
  #generation = 0;
  readonly #reads = new Map<string, { generation: number; rows: Promise<readonly unknown[]> }>();
  /** Files open in this process: DuckDB's file lock only keeps other processes out. */
  static readonly #openFiles = new Set<string>();

  private constructor(
    readonly file: string,
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  /** Opens (creating when missing) and brings the schema up to date; tests pass an older `migrations` list. */
  static async open(file: string, options: { migrations?: readonly Migration[]; now?: Date } = {}): Promise<AppDb> {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const instance = await openDatabase(file, { threads: 1 });
    const conn = await instance.connect();
    const db = new AppDb(file, instance, conn);
    if (file !== ':memory:') AppDb.#openFiles.add(path.resolve(file));
    try {
      await db.transaction((tx) => migrate(tx, options.migrations ?? migrations, options.now ?? new Date()));
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  }

  /** Opens like `open`, waiting a little while another short-lived process (an admin CLI run) holds the file. */
  static async openWaiting(file: string, clock: () => Date = () => new Date()): Promise<AppDb> {
    const deadline = Date.now() + OPEN_WAIT_MS;
    for (;;) {
      try {
        return await AppDb.open(file, { now: clock() });
      } catch (error) {
        if (!isLockedError(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return this.#exclusive(() => this.#all<T>(sql, params));
  }

  run(sql: string, params: readonly SqlParam[] = []): Promise<void> {
    return this.#exclusive(() => this.#run(sql, params));
  }

  cached<T>(sql: string, params: readonly SqlParam[] = []): Promise<readonly T[]> {
    const key = JSON.stringify([sql, params]);
    const hit = this.#reads.get(key);
    if (hit && hit.generation === this.#generation) return hit.rows as Promise<readonly T[]>;
    if (this.#reads.size >= MAX_CACHED_READS) this.#reads.clear();
    const generation = this.#generation;
    const rows = this.#exclusive(async () => {
      const [values, types] = bind(params);
      return (await this.conn.runAndReadAll(sql, values, types)).getRowObjectsJS() as T[];
    });
    this.#reads.set(key, { generation, rows });
    rows.catch(() => {
      if (this.#reads.get(key)?.rows === rows) this.#reads.delete(key);
    });
    return rows;
  }

  /** Runs `work` in one transaction; nothing else touches the database until it commits or rolls back. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      await this.conn.run('BEGIN TRANSACTION');
      try {
        const result = await work({
          all: (s, p = []) => this.#all(s, p),
          run: (s, p = []) => this.#run(s, p),
          cached: (s, p = []) => this.#all(s, p),
        });
        await this.conn.run('COMMIT');
        return result;
      } catch (error) {
        await this.conn.run('ROLLBACK');
        throw error;
      } finally {
        this.#generation++;
      }
    });
  }

  /** Whether this process has the file open (a service in the same process as a loader, in tests). */
  static isOpenHere(file: string): boolean {
    return AppDb.#openFiles.has(path.resolve(file));
  }

  close(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    if (this.file !== ':memory:') AppDb.#openFiles.delete(path.resolve(this.file));
    this.conn.closeSync();
    this.instance.closeSync();
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#isClosed) return Promise.reject(new Error('The app database is closed'));
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #all<T>(sql: string, params: readonly SqlParam[]): Promise<T[]> {
    this.#generation++;
    const [values, types] = bind(params);
    const reader = await this.conn.runAndReadAll(sql, values, types);
    return reader.getRowObjectsJS() as T[];
  }

  async #run(sql: string, params: readonly SqlParam[]): Promise<void> {
    this.#generation++;
    const [values, types] = bind(params);
    await this.conn.run(sql, values, types);
  }
}

function bind(params: readonly SqlParam[]): [DuckDBValue[], DuckDBType[]] {
  const values: DuckDBValue[] = [];
  const types: (DuckDBType | undefined)[] = [];
  for (const param of params) {
    if (param instanceof Date) {
      values.push(timestampValue(BigInt(param.getTime()) * 1000n));
      types.push(undefined);
    } else if (Array.isArray(param)) {
      values.push(listValue(param as string[]));
      types.push(LIST(VARCHAR));
    } else {
      values.push(param as DuckDBValue);
      types.push(undefined);
    }
  }
  return [values, types as DuckDBType[]];
}

/** True when DuckDB refused the file because another process holds it. */
export const isLockedError = (error: unknown): boolean =>
  error instanceof Error && /could not set lock on file|conflicting lock/i.test(error.message);

export const appDbFile = (dataDir: string): string => path.join(dataDir, APP_DB_FILE);
