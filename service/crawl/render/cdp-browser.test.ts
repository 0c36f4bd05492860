/**
 * The browser's launch leaves nothing behind that keeps a process alive: a command-line crawl that rendered ends when
 * its work does, not when the launch's time limit would have run out.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { debianPackages, ensureDebianPackages } from '../../../scripts/support/debian-packages.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const LAUNCH_MS = 60_000;

beforeAll(() => ensureDebianPackages([debianPackages.chromium, debianPackages.chromiumHeadlessShell]));

it('ends a process that launched and closed the browser well before the launch time limit', async () => {
  const script = `
    import { CdpBrowser } from './service/crawl/render/cdp-browser.ts';
    import { CHROMIUM_ARGS } from './service/crawl/render-browser.ts';
    import { rendererPath } from './service/crawl/render/render-pool.ts';
    const browser = await CdpBrowser.launch(rendererPath(), CHROMIUM_ARGS, ${LAUNCH_MS});
    await browser.close(10_000);
    console.log('closed');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let closedAt = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('closed')) closedAt = performance.now();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const exitedAt = performance.now();
  expect(code).toBe(0);
  expect(closedAt).toBeGreaterThan(0);
  expect(exitedAt - closedAt).toBeLessThan(10_000);
}, 120_000);
