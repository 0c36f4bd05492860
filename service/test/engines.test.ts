/**
 * package.json's engines field is true: every package the lock installs admits the lowest Node version it
 * declares, and the Node running the tests, so `npm install` and `npm ci` give no EBADENGINE warning.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface Semver {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

const ROOT = path.resolve(import.meta.dirname, '../..');
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as T;

describe('engines', () => {
  it('every locked package admits the Node versions package.json declares', () => {
    const declared = readJson<{ engines: { node: string } }>('package.json').engines.node;
    const lowest = semver.minVersion(declared)!.version;
    expect(semver.satisfies(process.version, declared)).toBe(true);
    const lock = readJson<{ packages: Record<string, { version?: string; engines?: { node?: string } }> }>(
      'package-lock.json',
    );
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => ![lowest, process.version].every((v) => semver.satisfies(v, entry.engines!.node!)))
      .map(
        ([name, entry]) =>
          `${name.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${entry.engines!.node}`,
      );
    expect(refusing).toEqual([]);
  });
});
