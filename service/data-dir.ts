/**
 * DATA_DIR holds password hashes and session tokens (the embedded app database in app-db/), the admin CLI's token
 * and the outgoing mail: only the service's user may read it. The processes that write there run with umask 077,
 * so what they create is 0600 (files) and 0700 (folders), whatever the file's creator asks for (DuckDB asks for
 * 0644); a directory or app database left readable by an older build (app.duckdb) is tightened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DUCKDB_APP_DB_FILE } from './app-db/db.ts';

export function makeDataDirPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  for (const name of fs.readdirSync(dataDir))
    if (name.startsWith(DUCKDB_APP_DB_FILE)) fs.chmodSync(path.join(dataDir, name), 0o600);
}
