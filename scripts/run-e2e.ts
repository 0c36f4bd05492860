/**
 * npm run test:e2e: makes sure Debian's chromium is installed (apt-get when missing and running as root), builds
 * the web app, then runs Playwright (playwright.config.ts) against the real service on a free port with a fresh
 * demo data directory. Extra arguments go to `playwright test`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { debianPackages, ensureDebianPackages } from './support/debian-packages.ts';
import { freePort } from './support/free-port.ts';

const repoDir = path.resolve(import.meta.dirname, '..');

try {
  ensureDebianPackages([debianPackages.chromium]);
} catch (error) {
  console.error(
    `${error instanceof Error ? error.message : String(error)} (Playwright uses it, never a downloaded browser)`,
  );
  process.exit(1);
}

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
