/**
 * npm test: everything, arranged for CI's two cores. The checks (Prettier, ESLint, the type check) run at once;
 * then vitest runs while the browser tests' web build and data are made beside it (vitest keeps about one core
 * busy), and the browser tests' chunks start on that second lane; when vitest ends, its lane takes chunks too. Every
 * step runs even when an earlier one failed, so that one run reports every failure; the last lines are each step's
 * result and minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { debianPackages, ensureDebianPackages } from './support/debian-packages.ts';
import { E2eQueue, buildWeb, e2eGroups, prepareE2eTemplate, runChild } from './support/e2e-groups.ts';

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

await Promise.all([
  check('prettier', [bin('prettier/bin/prettier.cjs'), '--check', '.']),
  check('eslint', [bin('eslint/bin/eslint.js'), '.']),
  check('typecheck', [bin('typescript7/bin/tsc'), '--noEmit']),
]);

// CI keeps only the end of the log, where the browser tests' lines would hide vitest's: its last lines come again there.
const VITEST_TAIL_LINES = 60;
const vitestTail: string[] = [];
const vitestFailures: string[] = [];
const keepTail = (line: string): void => {
  if (/^\s*(×|FAIL\b)/.test(line) && vitestFailures.length < VITEST_TAIL_LINES) vitestFailures.push(line);
  vitestTail.push(line);
  if (vitestTail.length > VITEST_TAIL_LINES) vitestTail.shift();
};

// The browser tests' chunks go to whichever lane is free: one starts once the data is ready, the other when vitest ends.
let queue: E2eQueue | undefined;
let e2eStarted = 0;
const onChunkEnd = (group: { name: string }, isPassed: boolean, seconds: number): void => {
  results.push({ name: `e2e: ${group.name}`, isPassed, seconds });
};
let template: string | undefined;
const prepared = step('e2e build and data', async () => {
  if ((await buildWeb()) !== 0) return false;
  template = await prepareE2eTemplate((line) => console.log(line));
  queue = new E2eQueue(e2eGroups([]), template, onChunkEnd);
  e2eStarted = performance.now();
  return true;
});
const e2eLane = async (): Promise<void> => {
  await prepared;
  await queue?.lane();
};
await Promise.all([
  step(
    'vitest',
    async () => (await runChild(process.execPath, [bin('vitest/vitest.mjs'), 'run'], { onLine: keepTail })) === 0,
  ).then(e2eLane),
  prepared.then(e2eLane),
]);
if (template) {
  results.push({
    name: 'e2e, first to last',
    isPassed: queue!.failed.length === 0,
    seconds: (performance.now() - e2eStarted) / 1000,
  });
  fs.rmSync(template, { recursive: true, force: true });
}

if (vitestFailures.length > 0) console.log(`\n== vitest's failed tests:\n${vitestFailures.join('\n')}`);
console.log(`\n== vitest's last ${vitestTail.length} lines, again:\n${vitestTail.join('\n')}`);
const minutes = (seconds: number): string => `${(seconds / 60).toFixed(1)} min`;
console.log(
  `\nnpm test:\n${results.map((r) => `  ${r.isPassed ? 'passed' : 'FAILED'}  ${r.name.padEnd(24)} ${minutes(r.seconds)}`).join('\n')}`,
);
process.exitCode = results.every((r) => r.isPassed) && template ? 0 : 1;
