/**
 * Issue 28 §3: `npm ci` prints no warning about install scripts, because every dependency that has one is approved or
 * denied in package.json's `allowScripts`. Both checks read only files on this machine.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoDir = path.resolve(import.meta.dirname, '..');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(repoDir, file), 'utf8'));

/** A package's name from a lockfile path ("node_modules/a/node_modules/@s/b") or an allowScripts key ("@s/b@1.2.3"). */
function packageName(entry: string): string {
  const name = entry.split('node_modules/').at(-1)!;
  const version = name.indexOf('@', 1);
  return version === -1 ? name : name.slice(0, version);
}

describe('install scripts', () => {
  it('every locked dependency with an install script is approved or denied in allowScripts', () => {
    const { allowScripts } = readJson('package.json') as { allowScripts?: Record<string, boolean> };
    const decided = new Set(Object.keys(allowScripts ?? {}).map(packageName));
    const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([at, entry]) => at !== '' && entry.hasInstallScript === true)
      .map(([at]) => packageName(at));
    expect(withScripts.filter((name) => !decided.has(name))).toEqual([]);
  });

  it('npm reports no install script pending approval', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['approve-scripts', '--allow-scripts-pending', '--json', '--offline'],
      {
        cwd: repoDir,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ allowScripts: [] });
  });
});
