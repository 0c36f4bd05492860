/**
 * Fixtures that take minutes to make (the demo's exports, the demo loaded), made once and shared by every test file
 * and the browser tests' data that need them, across vitest's shards and `npm test`'s lanes running at once. An entry
 * is keyed by its inputs and a hash of the code that makes it, so a change to the generator or the loader makes a new
 * one; it is made in a scratch directory and renamed into place, so a reader sees a whole entry or none, and a lock
 * directory holding the maker's pid makes the others wait rather than make it again. Entries are read-only to their
 * users: copy what you change.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../../..');
export const FIXTURE_CACHE_DIR = process.env.THC_FIXTURE_CACHE ?? path.join(os.tmpdir(), 'thc-fixture-cache');
/** The code every cached fixture is made by: the generator, the contract and catalogue, the loader and importers. */
const CODE_DIRS = ['catalog', 'scripts/fixtures', 'service'];
const TEST_CODE = /(^service\/test\/|\.test\.tsx?$)/;
/** Entries of older code are removed when a new one is made, but one: a run of the previous code may still read it. */
const KEPT_PER_NAME = 2;
const POLL_MS = 500;

let codeHash: string | undefined;

/** sha256 over the paths and bytes of the fixture code (tests excluded, the cache's own makers included). */
export function fixtureCodeHash(): string {
  if (codeHash) return codeHash;
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile() && !TEST_CODE.test(rel)) files.push(rel);
    }
  };
  CODE_DIRS.forEach(walk);
  files.push('service/test/helpers/fixture-cache.ts', 'service/test/helpers/demo-fixtures.ts');
  const hash = crypto.createHash('sha256');
  for (const file of files.sort()) hash.update(`${file}\0`).update(fs.readFileSync(path.join(REPO, file)));
  codeHash = hash.digest('hex').slice(0, 16);
  return codeHash;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the lock, or answers false while a live process holds it; a dead holder's lock is broken. */
function tryLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    let pid = 0;
    let age = 0;
    try {
      age = Date.now() - fs.statSync(lock).mtimeMs;
      pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // The pid not written yet, or the lock released meanwhile: both are decided below.
    }
    if (!fs.existsSync(lock)) return tryLock(lock);
    if (pid > 0 && isAlive(pid)) return false;
    // A holder that died before writing its pid looks like one that has not written it yet: give it a moment.
    if (!(pid > 0) && age < 10_000) return false;
    fs.rmSync(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
  return true;
}

/** Removes the entries of `prefix` (one name and inputs) made by other code but the newest `KEPT_PER_NAME - 1`. */
function removeOlderEntries(prefix: string, kept: string): void {
  const entries = fs
    .readdirSync(FIXTURE_CACHE_DIR)
    .filter((e) => e.startsWith(prefix) && !e.includes('.') && e !== kept)
    .map((e) => ({ e, mtime: fs.statSync(path.join(FIXTURE_CACHE_DIR, e)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || (a.e < b.e ? -1 : 1));
  for (const { e } of entries.slice(KEPT_PER_NAME - 1))
    fs.rmSync(path.join(FIXTURE_CACHE_DIR, e), { recursive: true, force: true });
}

/**
 * The directory of the entry `name` for `inputs`, made by `make(dir)` into an empty directory if no run made it yet
 * (or waited for, while another process makes it).
 */
export async function cachedFixture(
  name: string,
  inputs: unknown,
  make: (dir: string) => Promise<void>,
): Promise<string> {
  const prefix = `${name}-${crypto.createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12)}-`;
  const entry = path.join(FIXTURE_CACHE_DIR, `${prefix}${fixtureCodeHash()}`);
  const lock = `${entry}.lock`;
  fs.mkdirSync(FIXTURE_CACHE_DIR, { recursive: true });
  for (;;) {
    if (fs.existsSync(entry)) return entry;
    if (tryLock(lock)) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    if (fs.existsSync(entry)) return entry;
    const scratch = `${entry}.making-${process.pid}`;
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(scratch);
    try {
      await make(scratch);
      fs.renameSync(scratch, entry);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    removeOlderEntries(prefix, path.basename(entry));
    return entry;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
