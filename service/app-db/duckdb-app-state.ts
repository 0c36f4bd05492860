/**
 * The app state of builds before PostgreSQL: DATA_DIR/app.duckdb. At the first start of this build on such a
 * DATA_DIR, while the app database holds no app state yet, everything in it is copied over (copy.ts) and the file
 * is renamed app.duckdb.imported, kept as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import { openDatabase } from '../db/duckdb.ts';
import { copyAppState, holdsAppState, type CopyCounts } from './copy.ts';
import { DUCKDB_APP_DB_FILE, type AppDb } from './db.ts';
import { AppDataError } from './errors.ts';
import type { SqlParam } from './sql.ts';

export const IMPORTED_SUFFIX = '.imported';

export async function importDuckDbAppState(appDb: AppDb, dataDir: string): Promise<CopyCounts | undefined> {
  const file = path.join(dataDir, DUCKDB_APP_DB_FILE);
  if (!fs.existsSync(file) || (await holdsAppState(appDb))) return undefined;
  const instance = await openDatabase(file, { threads: 1 });
  const conn = await instance.connect();
  let counts: CopyCounts | undefined;
  try {
    counts = await copyAppState(
      {
        all: async <T>(sql: string, params: readonly SqlParam[] = []) =>
          (await conn.runAndReadAll(sql, params as DuckDBValue[])).getRowObjectsJS() as T[],
      },
      appDb,
    ).catch((error: unknown) => {
      // Another replica imported it a moment ago.
      if (error instanceof AppDataError && error.status === 409) return undefined;
      throw error;
    });
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  if (!counts) return undefined;
  for (const name of fs.readdirSync(dataDir))
    if (name.startsWith(DUCKDB_APP_DB_FILE) && !name.endsWith(IMPORTED_SUFFIX))
      fs.renameSync(path.join(dataDir, name), path.join(dataDir, `${name}${IMPORTED_SUFFIX}`));
  return counts;
}
