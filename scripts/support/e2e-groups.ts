/**
 * The browser tests' run, in pieces `npm run test:e2e` and `npm test` share: the web app's build, the data prepared
 * once (web/e2e/demo-data.ts), and the spec files run in groups, two at once, each against its own service on its own
 * copy of that data (nothing is shared, so no test sees another group's changes). E2E_GROUPS=1 runs them as one.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { prepareE2eData } from '../../web/e2e/demo-data.ts';
import { freePort } from './free-port.ts';
import { buildWebDist, dashboardBuild } from '../../service/web-build.ts';
import { loadedDemo } from '../../service/test/helpers/demo-fixtures.ts';

const repoDir = path.resolve(import.meta.dirname, '../..');

/**
 * The spec files in chunks, longest first, taken by whichever lane is free (`LaneQueue`; in `npm test` after the
 * vitest shards), so the machine's two cores stay busy to the end. A spec file named nowhere joins the last chunk.
 * Minutes beside vitest on 27 Nov: crawls 5.5, screenshots 4.3, dashboard 2.4, report 2.1, table 1.5.
 */
const CHUNKS: { name: string; specs: string[] }[] = [
  { name: 'crawls', specs: ['crawls', 'crawl-states'] },
  { name: 'screenshots', specs: ['screenshots'] },
  {
    name: 'admin and sources',
    specs: [
      'admin',
      'admin-staff',
      'notifications',
      'data-sources',
      'ai-and-query',
      'checklist-verified',
      'screenshots-rendered',
    ],
  },
  { name: 'dashboard', specs: ['dashboard', 'error-states', 'login', 'new-user', 'crawl-labels', 'comparability'] },
  { name: 'report', specs: ['report', 'report-export', 'removal-reasons', 'at-stake'] },
  { name: 'table', specs: ['smoke', 'table-and-chart', 'rows-paint-timing', 'plain-http'] },
];

export interface E2eGroup {
  name: string;
  args: string[];
}

/** One group with the given Playwright arguments (e.g. a spec file), or the whole suite in its chunks. */
export function e2eGroups(args: string[]): E2eGroup[] {
  const specs = fs
    .readdirSync(path.join(repoDir, 'web/e2e'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => file.replace(/\.spec\.ts$/, ''))
    .sort();
  if (args.length > 0) return [{ name: 'e2e', args }];
  if (process.env.E2E_GROUPS === '1') return [{ name: 'e2e', args: [] }];
  const named = CHUNKS.flatMap((chunk) => chunk.specs);
  for (const name of named)
    if (!specs.includes(name)) throw new Error(`scripts/support/e2e-groups.ts names ${name}, which does not exist`);
  const unnamed = specs.filter((name) => !named.includes(name));
  return CHUNKS.map((chunk, i) => ({
    name: chunk.name,
    args: [...chunk.specs, ...(i === CHUNKS.length - 1 ? unnamed : [])].map((name) => `web/e2e/${name}.spec.ts`),
  }));
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

/** The dashboard's build into web/dist, which the service serves (service/web-build.ts); its exit code. */
export async function buildWeb(): Promise<number> {
  let code = 1;
  await buildWebDist(async (outDir) => {
    const { command, args, env } = dashboardBuild(outDir);
    code = await runChild(command, args, { env });
    return code === 0;
  });
  return code;
}

/**
 * A temp directory holding the browser tests' data, made once and copied to each group. The demo websites come from
 * the cache the vitest files that load the demo share (service/test/helpers/demo-fixtures.ts): the data seedDemo
 * writes, made once for the whole run.
 */
export async function prepareE2eTemplate(log: (line: string) => void): Promise<string> {
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-template-'));
  try {
    const started = performance.now();
    fs.cpSync((await loadedDemo()).dataDir, template, { recursive: true });
    log(`e2e: demo websites from the fixture cache in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await prepareE2eData(template, log);
    return template;
  } catch (error) {
    fs.rmSync(template, { recursive: true, force: true });
    throw error;
  }
}

/** Runs Playwright for one group with its own port, data directory and output directory; resolves to its exit code. */
export async function runE2eGroup(
  group: E2eGroup,
  template: string,
  prefixed: boolean,
  onLine?: (line: string) => void,
): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-e2e-'));
  fs.cpSync(template, dataDir, { recursive: true });
  const port = process.env.E2E_PORT && !prefixed ? process.env.E2E_PORT : String(await freePort());
  const outputDir = prefixed ? `test-results/${group.name.replaceAll(' ', '-')}` : 'test-results';
  console.log(`${group.name}: service on port ${port}, data in ${dataDir}, results in ${outputDir}`);
  const code = await runChild(
    process.execPath,
    [path.join(repoDir, 'node_modules/@playwright/test/cli.js'), 'test', ...group.args],
    {
      tag: prefixed ? `[${group.name}] ` : undefined,
      env: { ...process.env, E2E_PORT: port, E2E_DATA_DIR: dataDir, E2E_OUTPUT_DIR: outputDir },
      onLine,
    },
  );
  if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  return code;
}

/** A piece of a test run that one lane runs to its end: a vitest shard, or a group of spec files. */
export interface Job {
  name: string;
  run: () => Promise<boolean>;
}

/**
 * Jobs taken in order by the first lane free: `lane()` takes jobs until none is left, so a lane can join late (after
 * the browser tests' build) and the lanes still end at about the same time.
 */
export class LaneQueue {
  readonly failed: string[] = [];
  private next = 0;

  constructor(
    private readonly jobs: readonly Job[],
    private readonly onJobEnd: (job: Job, isPassed: boolean, seconds: number) => void = () => {},
  ) {}

  async lane(): Promise<void> {
    for (let job = this.jobs[this.next++]; job; job = this.jobs[this.next++]) {
      const started = performance.now();
      const isPassed = await job.run().catch((error: unknown) => {
        console.error(`${job.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return false;
      });
      if (!isPassed) this.failed.push(job.name);
      this.onJobEnd(job, isPassed, (performance.now() - started) / 1000);
    }
  }
}

/** The groups as jobs, each on its own copy of `template`; `onLine(group, line)` sees each line of their output. */
export const e2eJobs = (
  groups: readonly E2eGroup[],
  template: () => Promise<string | undefined>,
  onLine?: (group: string, line: string) => void,
): Job[] =>
  groups.map((group) => ({
    name: `e2e: ${group.name}`,
    run: async () => {
      const prepared = await template();
      const each = onLine && ((line: string) => onLine(group.name, line));
      return prepared !== undefined && (await runE2eGroup(group, prepared, groups.length > 1, each)) === 0;
    },
  }));
