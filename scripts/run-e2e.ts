/**
 * npm run test:e2e: makes sure Debian's chromium is installed (apt-get when missing and running as root), builds
 * the web app, then runs Playwright (playwright.config.ts) against the real service on a free port with a fresh
 * demo data directory. Extra arguments go to `playwright test`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const CHROMIUM = '/usr/bin/chromium';
const repoDir = path.resolve(import.meta.dirname, '..');

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `${CHROMIUM} is missing. Install Debian's chromium as root (apt-get install -y chromium) and run again; ` +
        'Playwright uses it instead of a downloaded browser.',
    );
    process.exit(1);
  }
  console.log('Installing chromium with apt-get…');
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`apt-get finished but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

ensureChromium();

const build = spawnSync(
  process.execPath,
  [path.join(repoDir, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts'],
  {
    cwd: repoDir,
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-'));
const port = process.env.E2E_PORT ?? String(await freePort());
console.log(`e2e: service on port ${port}, data in ${dataDir}`);

const result = spawnSync(
  process.execPath,
  [path.join(repoDir, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  { cwd: repoDir, stdio: 'inherit', env: { ...process.env, E2E_PORT: port, E2E_DATA_DIR: dataDir } },
);
if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
