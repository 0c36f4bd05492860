import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDataDirPrivate, makePrivate } from './data-dir.ts';

const dirs: string[] = [];
const initialUmask = process.umask();
afterEach(() => {
  process.umask(initialUmask);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-data-dir-'));
  dirs.push(dir);
  return dir;
}

const modeOf = (file: string): string => (fs.lstatSync(file).mode & 0o777).toString(8);

describe('makePrivate', () => {
  it('takes group and other permissions off every folder and file, and leaves links and their targets', () => {
    const root = tempDir();
    const outside = path.join(tempDir(), 'outside.txt');
    fs.writeFileSync(outside, 'x');
    fs.chmodSync(outside, 0o644);
    fs.mkdirSync(path.join(root, 'store/shop/1'), { recursive: true });
    const files = {
      'store/shop/1/crawl.duckdb': 0o666,
      'store/shop/website.json': 0o644,
      'app-db/PG_VERSION': 0o640,
      'run.sh': 0o755,
      'admin.token': 0o600,
    };
    for (const [name, mode] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), name);
      fs.chmodSync(path.join(root, name), mode);
    }
    for (const folder of ['', 'store', 'store/shop', 'store/shop/1', 'app-db'])
      fs.chmodSync(path.join(root, folder), 0o755);
    fs.symlinkSync(outside, path.join(root, 'link'));

    expect(makePrivate(root)).toBe(9);
    expect(
      Object.fromEntries(
        ['', ...Object.keys(files), 'store', 'store/shop', 'store/shop/1', 'app-db'].map((n) => [
          n,
          modeOf(path.join(root, n)),
        ]),
      ),
    ).toEqual({
      '': '700',
      'store/shop/1/crawl.duckdb': '600',
      'store/shop/website.json': '600',
      'app-db/PG_VERSION': '600',
      'run.sh': '700',
      'admin.token': '600',
      store: '700',
      'store/shop': '700',
      'store/shop/1': '700',
      'app-db': '700',
    });
    expect(modeOf(outside)).toBe('644');
    // A second walk finds nothing to do.
    expect(makePrivate(root)).toBe(0);
  });
});

describe('makeDataDirPrivate', () => {
  it('creates DATA_DIR 0700 and sets umask 077 for what the process writes next', () => {
    process.umask(0o022);
    const dataDir = path.join(tempDir(), 'data');
    makeDataDirPrivate(dataDir);
    expect(modeOf(dataDir)).toBe('700');
    fs.writeFileSync(path.join(dataDir, 'new.txt'), 'x', { mode: 0o666 });
    fs.mkdirSync(path.join(dataDir, 'new'), { mode: 0o777 });
    expect([modeOf(path.join(dataDir, 'new.txt')), modeOf(path.join(dataDir, 'new'))]).toEqual(['600', '700']);
  });
});
