/**
 * npm run test:e2e: makes sure Debian's chromium is installed (apt-get when missing and running as root), builds
 * the web app, prepares the demo data once, then runs Playwright (playwright.config.ts) against the real service on
 * a free port with a copy of that data; extra arguments (e.g. one spec file) go to `playwright test`. Without
 * arguments the spec files run in two groups at once, each against its own service and data (nothing is shared, so
 * no test sees another group's changes); E2E_GROUPS=1 runs them as one. The suite outgrew CI's time in one group.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { prepareE2eData } from '../web/e2e/demo-data.ts';
import { debianPackages, ensureDebianPackages } from './support/debian-packages.ts';
import { freePort } from './support/free-port.ts';

const repoDir = path.resolve(import.meta.dirname, '..');

/**
 * The second group: about half of the suite's time. Measured 26 Nov in two groups at load 10–14: the second group
 * (screenshots, smoke, table and chart, paint timing, plain http) 29 min, the first 43 of its 87 tests in 33 min,
 * of which the Crawls page (425 s) and crawl states (195 s) move here. A new spec file goes to the first group unless named here.
 */
const SECOND_GROUP = [
  'screenshots',
  'smoke',
  'table-and-chart',
  'rows-paint-timing',
  'plain-http',
  'crawls',
  'crawl-states',
].map((name) => `web/e2e/${name}.spec.ts`);

interface Group {
  name: string;
  args: string[];
}

function groups(args: string[]): Group[] {
  if (args.length > 0 || process.env.E2E_GROUPS === '1') return [{ name: 'e2e', args }];
  const specs = fs
    .readdirSync(path.join(repoDir, 'web/e2e'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => `web/e2e/${file}`)
    .sort();
  for (const file of SECOND_GROUP)
    if (!specs.includes(file)) throw new Error(`scripts/run-e2e.ts names ${file}, which does not exist`);
  return [
    { name: 'group 1', args: specs.filter((file) => !SECOND_GROUP.includes(file)) },
    { name: 'group 2', args: SECOND_GROUP },
  ];
}

/** Runs Playwright for one group with its own port, data directory and output directory; resolves to its exit code. */
async function runGroup(group: Group, template: string, prefixed: boolean): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-'));
  fs.cpSync(template, dataDir, { recursive: true });
  const port = process.env.E2E_PORT && !prefixed ? process.env.E2E_PORT : String(await freePort());
  const outputDir = prefixed ? `test-results/${group.name.replace(' ', '-')}` : 'test-results';
  console.log(`${group.name}: service on port ${port}, data in ${dataDir}, results in ${outputDir}`);
  const child = spawn(
    process.execPath,
    [path.join(repoDir, 'node_modules/@playwright/test/cli.js'), 'test', ...group.args],
    {
      cwd: repoDir,
      stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, E2E_PORT: port, E2E_DATA_DIR: dataDir, E2E_OUTPUT_DIR: outputDir },
    },
  );
  if (prefixed) {
    const tag = `[${group.name}] `;
    readline.createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${tag}${line}\n`));
    readline.createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`${tag}${line}\n`));
  }
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  return code;
}

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
  { cwd: repoDir, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const planned = groups(process.argv.slice(2));
const template = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-template-'));
try {
  await prepareE2eData(template, (line) => console.log(line));
  const codes = await Promise.all(planned.map((group) => runGroup(group, template, planned.length > 1)));
  const failed = planned.filter((_, i) => codes[i] !== 0).map((group) => group.name);
  if (failed.length > 0) console.error(`e2e: ${failed.join(' and ')} failed (each group's summary is above)`);
  process.exitCode = failed.length > 0 ? 1 : 0;
} finally {
  fs.rmSync(template, { recursive: true, force: true });
}
