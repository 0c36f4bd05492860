import os from 'node:os';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDatabase } from '../db/duckdb.ts';

/** Enough for a 1M-URL / 20M-link export on 2 cores: DuckDB spills sorts and aggregates beyond it to disk. */
export const DEFAULT_MEMORY_LIMIT = '2GB';

/**
 * The precompute's, unless the load was given a limit: its sorts and joins spill past it. At 10M URLs crawl 2's load
 * took 882 s with it against 964 s with 2GB, peaking at 5.4 GB RSS against 3.9 (bench/history.md). The whole load with
 * 3.5GB peaked at 5.9 GB, too near the 6 GB a 10M load may take.
 */
export const PRECOMPUTE_MEMORY_LIMIT = '3.5GB';

/** The database a load validates or builds in, on every core (a load runs alone under its website's lock). */
export const openLoadDatabase = (file: string, memoryLimit: string | undefined): Promise<DuckDBInstance> =>
  openDatabase(file, { memoryLimit: memoryLimit ?? DEFAULT_MEMORY_LIMIT, threads: os.availableParallelism() });

export function closeQuietly(conn: DuckDBConnection | undefined, db: DuckDBInstance | undefined): void {
  try {
    conn?.closeSync();
  } catch {
    /* already closed */
  }
  try {
    db?.closeSync();
  } catch {
    /* already closed */
  }
}
