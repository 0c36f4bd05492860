/**
 * The browser tests' run, in pieces `npm run test:e2e` and `npm test` share: the web app's build, the data prepared
 * once (web/e2e/demo-data.ts), and the spec files run in two groups at once, each against its own service on its own
 * copy of that data (nothing is shared, so no test sees another group's changes). E2E_GROUPS=1 runs them as one.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { prepareE2eData } from '../../web/e2e/demo-data.ts';
import { freePort } from './free-port.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');

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

export interface E2eGroup {
  name: string;
  args: string[];
}

/** One group with the given Playwright arguments (e.g. a spec file), or the whole suite in two groups. */
export function e2eGroups(args: string[]): E2eGroup[] {
  if (args.length > 0 || process.env.E2E_GROUPS === '1') return [{ name: 'e2e', args }];
  const specs = fs
    .readdirSync(path.join(repoDir, 'web/e2e'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => `web/e2e/${file}`)
    .sort();
  for (const file of SECOND_GROUP)
    if (!specs.includes(file)) throw new Error(`scripts/support/e2e-groups.ts names ${file}, which does not exist`);
  return [
    { name: 'group 1', args: specs.filter((file) => !SECOND_GROUP.includes(file)) },
    { name: 'group 2', args: SECOND_GROUP },
  ];
}

/**
 * Runs a child process to its end with its output passed through or, with `tag`, each line prefixed, and each line
 * also handed to `onLine` (and only to it with `isEchoed: false`); its exit code.
 */
export function runChild(
  command: string,
  args: string[],
  options: { tag?: string; env?: NodeJS.ProcessEnv; onLine?: (line: string) => void; isEchoed?: boolean } = {},
): Promise<number> {
  const { tag, env, onLine, isEchoed = true } = options;
  const isPiped = tag !== undefined || onLine !== undefined;
  const child = spawn(command, args, {
    cwd: repoDir,
    stdio: isPiped ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: env ?? process.env,
  });
  if (isPiped) {
    const pass = (out: NodeJS.WriteStream) => (line: string) => {
      if (isEchoed) out.write(`${tag ?? ''}${line}\n`);
      onLine?.(line);
    };
    readline.createInterface({ input: child.stdout! }).on('line', pass(process.stdout));
    readline.createInterface({ input: child.stderr! }).on('line', pass(process.stderr));
  }
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (status) => resolve(status ?? 1));
  });
}

/** vite build of web/dist, which the service serves; its exit code. */
export function buildWeb(): Promise<number> {
  return runChild(process.execPath, [
    path.join(repoDir, 'node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    'web/vite.config.ts',
  ]);
}

/** A temp directory holding the browser tests' data, made once and copied to each group. */
export async function prepareE2eTemplate(log: (line: string) => void): Promise<string> {
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-template-'));
  try {
    await prepareE2eData(template, log);
    return template;
  } catch (error) {
    fs.rmSync(template, { recursive: true, force: true });
    throw error;
  }
}

/** Runs Playwright for one group with its own port, data directory and output directory; resolves to its exit code. */
async function runGroup(group: E2eGroup, template: string, prefixed: boolean): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-'));
  fs.cpSync(template, dataDir, { recursive: true });
  const port = process.env.E2E_PORT && !prefixed ? process.env.E2E_PORT : String(await freePort());
  const outputDir = prefixed ? `test-results/${group.name.replace(' ', '-')}` : 'test-results';
  console.log(`${group.name}: service on port ${port}, data in ${dataDir}, results in ${outputDir}`);
  const code = await runChild(
    process.execPath,
    [path.join(repoDir, 'node_modules/@playwright/test/cli.js'), 'test', ...group.args],
    {
      tag: prefixed ? `[${group.name}] ` : undefined,
      env: { ...process.env, E2E_PORT: port, E2E_DATA_DIR: dataDir, E2E_OUTPUT_DIR: outputDir },
    },
  );
  if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  return code;
}

/** Runs the groups at once on copies of `template`; the names of those that failed. */
export async function runE2eGroups(planned: E2eGroup[], template: string): Promise<string[]> {
  const codes = await Promise.all(planned.map((group) => runGroup(group, template, planned.length > 1)));
  const failed = planned.filter((_, i) => codes[i] !== 0).map((group) => group.name);
  if (failed.length > 0) console.error(`e2e: ${failed.join(' and ')} failed (each group's summary is above)`);
  return failed;
}
