/** The embedded app database (PGlite) in DATA_DIR/app-db or in memory, started from a template cluster made once. */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { makePrivate } from '../data-dir.ts';
import { acquirePidLock, type PidLock } from '../pid-lock.ts';
import { AppDbLockedError, IN_MEMORY, type Connection, type Query } from './connection.ts';

const pglitePackage = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

/** `make`'s promise, made once per process (and again after a failure). */
function memoized<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (!made) {
      made = make();
      made.catch(() => (made = undefined));
    }
    return made;
  };
}

/** PGlite's WebAssembly, compiled once per process. */
const pgliteAssets = memoized(async (): Promise<PgliteAssets> => ({
  pgliteWasmModule: await WebAssembly.compile(fs.readFileSync(path.join(pglitePackage, 'pglite.wasm'))),
  initdbWasmModule: await WebAssembly.compile(fs.readFileSync(path.join(pglitePackage, 'initdb.wasm'))),
  fsBundle: new Blob([fs.readFileSync(path.join(pglitePackage, 'pglite.data'))]),
}));

/** Where the initialised empty cluster is kept, once per machine and PGlite version. */
function templatePath(extension: string): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(pglitePackage, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return path.join(pglitePackage, '..', '..', '..', '.cache', 'thc-app-db', `pglite-${version}-empty${extension}`);
}

/**
 * A freshly initialised database cluster as a tarball, for databases in memory. initdb takes seconds, so its result
 * is kept (node_modules/.cache) and each new database starts as a copy.
 */
const emptyClusterTar = memoized(async (): Promise<File> => {
  const file = templatePath('.tar');
  if (fs.existsSync(file)) return new File([fs.readFileSync(file)], path.basename(file));
  const fresh = await PGlite.create({ ...(await pgliteAssets()) });
  const dump = await fresh.dumpDataDir('none');
  await fresh.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
  return new File([bytes], path.basename(file));
});

/** The same cluster unpacked in a folder: a new database on disk starts as a plain copy, several times faster. */
const emptyClusterDir = memoized(async (): Promise<string> => {
  const dir = templatePath('');
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const tmp = `${dir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const db = await PGlite.create({ ...(await pgliteAssets()), dataDir: tmp, loadDataDir: await emptyClusterTar() });
  await db.close();
  publishDir(tmp, dir);
  return dir;
});

/** Renames a finished folder into place; when another process got there first, its copy serves. */
function publishDir(tmp: string, dir: string): void {
  try {
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw error;
  }
}

export async function openEmbedded(location: string): Promise<Connection> {
  const isInMemory = location === IN_MEMORY;
  let lock: PidLock | undefined;
  if (!isInMemory) {
    fs.mkdirSync(location, { recursive: true, mode: 0o700 });
    fs.chmodSync(location, 0o700);
    lock = acquirePidLock(
      `${location}.lock`,
      (pid) =>
        new AppDbLockedError(
          `${location} is in use by another process (${pid === undefined ? 'pid unknown' : `pid ${pid}`})`,
        ),
    );
  }
  try {
    if (!isInMemory && !fs.existsSync(path.join(location, 'PG_VERSION'))) {
      // Copied aside and renamed into place, so a crash mid-copy leaves no half database behind.
      const tmp = `${location}.${process.pid}.tmp`;
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.cpSync(await emptyClusterDir(), tmp, { recursive: true });
      // The copy keeps the template's modes (PGlite made its files 0666).
      makePrivate(tmp);
      fs.rmSync(location, { recursive: true, force: true });
      fs.renameSync(tmp, location);
    }
    const db = await PGlite.create({
      ...(await pgliteAssets()),
      ...(isInMemory ? { loadDataDir: await emptyClusterTar() } : { dataDir: location }),
    });
    const query: Query = async (sql, params) =>
      params.length === 0
        ? ((await db.exec(sql)).at(-1)?.rows ?? [])
        : (await db.query<Record<string, unknown>>(sql, [...params])).rows;
    return {
      isShared: false,
      query,
      async transaction(work) {
        await query('BEGIN', []);
        try {
          const result = await work(query);
          await query('COMMIT', []);
          return result;
        } catch (error) {
          await query('ROLLBACK', []);
          throw error;
        }
      },
      async close() {
        try {
          await db.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
