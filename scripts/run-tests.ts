/**
 * npm test: everything, arranged for CI's two cores. The checks (Prettier, ESLint, the type check) run at once;
 * then two lanes take the vitest shards and the browser tests' groups (below). Every step runs even when an earlier
 * one failed, so that one run reports every failure; the last lines are each step's result and minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { debianPackages, ensureDebianPackages } from './support/debian-packages.ts';
import {
  LaneQueue,
  buildWeb,
  e2eGroups,
  e2eJobs,
  prepareE2eTemplate,
  runChild,
  type Job,
} from './support/e2e-groups.ts';

const repoDir = path.resolve(import.meta.dirname, '..');
const bin = (file: string): string => path.join(repoDir, 'node_modules', file);

interface StepResult {
  name: string;
  isPassed: boolean;
  seconds: number;
}

const results: StepResult[] = [];

async function step(name: string, work: () => Promise<boolean>): Promise<boolean> {
  const started = performance.now();
  let isPassed = false;
  try {
    isPassed = await work();
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  results.push({ name, isPassed, seconds: (performance.now() - started) / 1000 });
  return isPassed;
}

/** A check's output is held until it ends, so that checks running at once do not interleave their lines. */
function check(name: string, args: string[]): Promise<boolean> {
  return step(name, async () => {
    const lines: string[] = [];
    const code = await runChild(process.execPath, args, { onLine: (line) => lines.push(line), isEchoed: false });
    console.log(`\n== ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`}\n${lines.join('\n')}`);
    return code === 0;
  });
}

// Installed first and in one go: apt-get refuses a second apt-get running beside it, and the steps below run at once.
try {
  ensureDebianPackages(Object.values(debianPackages));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}; the tests that need it will say so`);
}

// CI keeps only the end of the log, where the browser tests' lines would hide vitest's: its failures and each shard's
// last lines come again there, as do the browser tests' failures.
const VITEST_TAIL_LINES = 30;
const vitestFailures: string[] = [];
const vitestTails = new Map<number, string[]>();
const keepTail =
  (shard: number) =>
  (line: string): void => {
    // eslint-disable-next-line no-control-regex -- vitest colours its lines
    const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
    if (/^\s*(×|FAIL\b)/.test(plain) && vitestFailures.length < 2 * VITEST_TAIL_LINES) vitestFailures.push(plain);
    const tail = vitestTails.get(shard) ?? [];
    tail.push(line);
    if (tail.length > VITEST_TAIL_LINES) tail.shift();
    vitestTails.set(shard, tail);
  };

/**
 * vitest in shards (its files split by their measured time, service/test/helpers/duration-sequencer.ts), then the
 * browser tests' groups, each a job for the first lane free: one lane starts once the checks end, the other once the
 * browser tests' build and data are made, and both take jobs to the end. A shard keeps about one core busy, as a
 * browser group does, so the two cores stay busy.
 */
const VITEST_SHARDS = 3;
let template: string | undefined;
// The browser tests' build and data start beside the checks, whose last minute is ESLint's alone on one core.
const prepared = step('e2e build and data', async () => {
  if ((await buildWeb()) !== 0) return false;
  template = await prepareE2eTemplate((line) => console.log(line));
  return true;
});
await Promise.all([
  check('prettier', [bin('prettier/bin/prettier.cjs'), '--check', '.']),
  check('eslint', [bin('eslint/bin/eslint.js'), '.']),
  check('typecheck', [bin('typescript7/bin/tsc'), '--noEmit']),
]);
const vitestJobs: Job[] = Array.from({ length: VITEST_SHARDS }, (_, i) => ({
  name: `vitest ${i + 1}/${VITEST_SHARDS}`,
  run: async () =>
    (await runChild(process.execPath, [bin('vitest/vitest.mjs'), 'run', `--shard=${i + 1}/${VITEST_SHARDS}`], {
      onLine: keepTail(i + 1),
    })) === 0,
}));
// Playwright's account of each failed test (the numbered heading and its error's first lines), kept for the end, just
// above the summary: CI shows only the last lines.
const E2E_FAILURE_LINES = 6;
const MAX_E2E_FAILURE_LINES = 60;
const e2eFailures: string[] = [];
const failureLinesLeft = new Map<string, number>();
const keepE2eFailure = (group: string, line: string): void => {
  // eslint-disable-next-line no-control-regex -- Playwright colours its lines
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  // Playwright's list reporter numbers each failure's heading: "  1) web/e2e/x.spec.ts:12:3 › title".
  if (/^\s+\d+\) \S+\.spec\.ts:\d+:\d+ ›/.test(plain)) failureLinesLeft.set(group, E2E_FAILURE_LINES);
  const left = failureLinesLeft.get(group) ?? 0;
  if (left === 0 || e2eFailures.length >= MAX_E2E_FAILURE_LINES) return;
  failureLinesLeft.set(group, left - 1);
  if (plain.trim() !== '') e2eFailures.push(`[${group}] ${plain}`);
};
const jobs = [
  ...vitestJobs,
  ...e2eJobs(e2eGroups([]), async () => ((await prepared) ? template : undefined), keepE2eFailure),
];
const queue = new LaneQueue(jobs, (job, isPassed, seconds) => results.push({ name: job.name, isPassed, seconds }));
await Promise.all([queue.lane(), prepared.then(() => queue.lane())]);
if (template) fs.rmSync(template, { recursive: true, force: true });

if (vitestFailures.length > 0) console.log(`\n== vitest's failed tests:\n${vitestFailures.join('\n')}`);
for (const [shard, tail] of [...vitestTails].sort(([a], [b]) => a - b))
  console.log(`\n== vitest shard ${shard}'s last ${tail.length} lines, again:\n${tail.join('\n')}`);
if (e2eFailures.length > 0) console.log(`\n== the browser tests' failures, again:\n${e2eFailures.join('\n')}`);
const minutes = (seconds: number): string => `${(seconds / 60).toFixed(1)} min`;
console.log(
  `\nnpm test:\n${results.map((r) => `  ${r.isPassed ? 'passed' : 'FAILED'}  ${r.name.padEnd(24)} ${minutes(r.seconds)}`).join('\n')}`,
);
process.exitCode = results.every((r) => r.isPassed) && queue.failed.length === 0 ? 0 : 1;
