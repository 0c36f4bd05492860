/** The import-data command run as users run it, and a crawl's loaded tables read back, for the import tests. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openDatabase, quoteLiteral } from '../../db/duckdb.ts';
import { expect } from 'vitest';
import { readCurrentLoad, storeDir } from '../../store/layout.ts';
import { snapshotTree } from './tree-snapshot.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runImportData(dataDir: string, websiteId: string, args: string[]): CliRun {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/import-data.ts', '--website', websiteId, '--data-dir', dataDir, ...args],
    { cwd: REPO, encoding: 'utf8', timeout: 240_000 },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs the command, which must refuse (exit 1) with `message` on stderr and leave the store as it was. */
export function expectRefusedImport(dataDir: string, websiteId: string, args: string[], message: string): void {
  const before = snapshotTree(storeDir(dataDir));
  const refused = runImportData(dataDir, websiteId, args);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain(message);
  expect(snapshotTree(storeDir(dataDir))).toEqual(before);
}

const shellQuoted = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;

/** The command on a terminal (util-linux `script` gives it a pseudo-terminal): its output, progress bar included. */
export function runImportDataOnTerminal(dataDir: string, websiteId: string, args: string[]): CliRun {
  const command = [process.execPath, '--import', 'tsx', 'scripts/import-data.ts', '--website', websiteId]
    .concat(['--data-dir', dataDir, ...args])
    .map(shellQuoted)
    .join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: REPO, encoding: 'utf8', timeout: 240_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Rows of a query over the live load of a crawl (its tables unqualified). */
export async function queryCrawl<T>(dataDir: string, websiteId: string, crawlId: number, sql: string): Promise<T[]> {
  const live = readCurrentLoad(dataDir, websiteId, crawlId)!;
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    await conn.run(`ATTACH ${quoteLiteral(live.dbFile)} AS c (READ_ONLY); USE c`);
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as T[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
