import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIST_DIR } from './app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/chunk-size-limit.ts', 'catalog'];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/**
 * The dashboard's vite build into `outDir`, as users get it: NODE_ENV is production whatever the caller runs under
 * (vitest sets "test", with which vite bundles React's development build: slower, and every effect run twice).
 */
export function dashboardBuild(
  outDir: string,
  options: { logLevel?: 'warn' } = {},
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const logLevel = options.logLevel ? ['--logLevel', options.logLevel] : [];
  return {
    command: process.execPath,
    args: [vite, 'build', '--config', 'web/vite.config.ts', ...logLevel, '--outDir', outDir, '--emptyOutDir'],
    env: { ...process.env, NODE_ENV: 'production' },
  };
}

/**
 * Builds web/dist beside it and then puts it in place by two renames, so that a service already serving web/dist (a
 * test's, or the browser tests') never serves an emptied or half-written build while another process rebuilds it.
 */
export async function buildWebDist(
  build: (outDir: string) => Promise<boolean> | boolean,
  distDir = WEB_DIST_DIR,
): Promise<boolean> {
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const next = `${distDir}.next-${suffix}`;
  const old = `${distDir}.old-${suffix}`;
  try {
    if (!(await build(next))) return false;
    if (fs.existsSync(distDir)) fs.renameSync(distDir, old);
    fs.renameSync(next, distDir);
    return true;
  } finally {
    fs.rmSync(next, { recursive: true, force: true });
    fs.rmSync(old, { recursive: true, force: true });
  }
}

/** Builds the dashboard when web/dist is missing or older than its sources, so `npm start` always serves it. */
export async function ensureWebBuild(): Promise<void> {
  const index = path.join(WEB_DIST_DIR, 'index.html');
  const built = fs.statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  if (built >= sources) return;
  console.log(built ? 'The dashboard build is stale: rebuilding…' : 'Building the dashboard…');
  const isBuilt = await buildWebDist((outDir) => {
    const { command, args, env } = dashboardBuild(outDir, { logLevel: 'warn' });
    return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env }).status === 0;
  });
  if (!isBuilt) throw new Error('building the dashboard failed (npm run build shows why)');
}
