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

/** Builds the dashboard when web/dist is missing or older than its sources, so `npm start` always serves it. */
export function ensureWebBuild(): void {
  const index = path.join(WEB_DIST_DIR, 'index.html');
  const built = fs.statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  if (built >= sources) return;
  console.log(built ? 'The dashboard build is stale: rebuilding…' : 'Building the dashboard…');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the dashboard failed (npm run build shows why)');
}
