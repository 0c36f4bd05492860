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
import { buildWebDist, dashboardBuild } from '../web-build.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('the dashboard build', () => {
  it('prints no warning, and no chunk is over the limit', async () => {
    const outDir = tempDir('thc-web-build-');
    const { command, args, env } = dashboardBuild(outDir, { logLevel: 'warn' });
    const built = await run(command, args, { cwd: ROOT, env });
    expect({ stdout: built.stdout, stderr: built.stderr }).toEqual({ stdout: '', stderr: '' });
    const assets = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(3);
    const bundle = Object.fromEntries(
      assets.map((f) => [f, { type: 'chunk', code: fs.readFileSync(path.join(outDir, 'assets', f), 'utf8') }]),
    );
    expect(oversizeChunks(bundle, CHUNK_LIMIT_KB)).toEqual([]);
    // React's production build, though vitest runs this under NODE_ENV=test: only its development build says this.
    const devOnly = Object.keys(bundle).filter((f) => bundle[f]!.code.includes('Download the React DevTools'));
    expect(devOnly).toEqual([]);
  });

  it('replaces web/dist only once the new build is whole, and keeps the old one when the build fails', async () => {
    const dist = path.join(tempDir('thc-web-dist-'), 'dist');
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, 'index.html'), 'old');
    const isBuilt = await buildWebDist((outDir) => {
      fs.mkdirSync(outDir);
      fs.writeFileSync(path.join(outDir, 'index.html'), 'new');
      expect(fs.readFileSync(path.join(dist, 'index.html'), 'utf8')).toBe('old');
      return true;
    }, dist);
    expect(isBuilt).toBe(true);
    expect(fs.readFileSync(path.join(dist, 'index.html'), 'utf8')).toBe('new');
    expect(await buildWebDist((outDir) => (fs.mkdirSync(outDir), false), dist)).toBe(false);
    expect(fs.readFileSync(path.join(dist, 'index.html'), 'utf8')).toBe('new');
    expect(fs.readdirSync(path.dirname(dist))).toEqual(['dist']);
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
