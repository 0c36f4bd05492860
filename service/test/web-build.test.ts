/**
 * The dashboard's build as `npm start` runs it on a first start (service/web-build.ts, vite at log level warn): it
 * prints nothing a new user must wonder about, the bundle's chunk-size warning included, since every chunk stays
 * under the limit past which the build fails (web/chunk-size-limit.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHUNK_LIMIT_KB, oversizeChunks } from '../../web/chunk-size-limit.ts';
import { tempDir } from './auth-fixture.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('the dashboard build', () => {
  it('prints no warning, and no chunk is over the limit', async () => {
    const outDir = tempDir('thc-web-build-');
    const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
    const built = await run(
      process.execPath,
      [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
      { cwd: ROOT },
    );
    expect({ stdout: built.stdout, stderr: built.stderr }).toEqual({ stdout: '', stderr: '' });
    const assets = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(3);
    const bundle = Object.fromEntries(
      assets.map((f) => [f, { type: 'chunk', code: fs.readFileSync(path.join(outDir, 'assets', f), 'utf8') }]),
    );
    expect(oversizeChunks(bundle, CHUNK_LIMIT_KB)).toEqual([]);
  });

  it('names each chunk over the limit with its size', () => {
    const bundle = {
      'big.js': { type: 'chunk', code: 'x'.repeat(701_000) },
      'small.js': { type: 'chunk', code: 'x'.repeat(699_000) },
      'big.css': { type: 'asset' },
    };
    expect(oversizeChunks(bundle, 700)).toEqual(['big.js (701 kB)']);
  });
});
