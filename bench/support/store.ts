/**
 * The benchmark's store: the generated site's exports (made once, kept under BENCH_DIR), loaded with the real loader,
 * brought up to date and given the benchmark's admin.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ADMIN, BENCH_DIR, CRAWLS, dataDir, exportsDir, ROOT, SEED, SITE, URLS } from './config.ts';
import { round } from './stats.ts';

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; ms: number } {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return { stdout: result.stdout + result.stderr, ms: performance.now() - started };
}

/** Runs a node script under GNU time to get its peak RSS; `output` is its stdout and stderr with GNU time's. */
export function timed(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { seconds: number; peakRssMb: number; output: string } {
  const { stdout, ms } = run('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', ...args], env);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stdout)?.[1] ?? NaN);
  return { seconds: round(ms / 1000), peakRssMb: Math.round(kb / 1024), output: stdout };
}

/** `npm run admin -- <args>` on the benchmark's store; what it adds may be there from an earlier run. */
export function addUnlessThere(what: string, args: string[]): void {
  const added = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (added.status !== 0 && !/exists/i.test(added.stderr)) throw new Error(`admin ${what} failed: ${added.stderr}`);
}

export function crawlExportDirs(): string[] {
  const siteDir = path.join(exportsDir, SITE);
  return fs
    .readdirSync(siteDir)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(a) - Number(b))
    .map((d) => path.join(siteDir, d));
}

/** Generates and loads the benchmark site when missing, brings its crawls up to date and adds the benchmark's admin. */
export function prepareStore(results: Record<string, unknown>): unknown {
  if (!fs.existsSync(path.join(exportsDir, SITE))) {
    console.log(`Generating ${URLS.toLocaleString('en-GB')} URLs × ${CRAWLS} crawls into ${exportsDir} …`);
    // Into a side folder first: an interrupted generation must not pass for a finished one next time.
    const partialDir = `${exportsDir}.partial`;
    fs.rmSync(partialDir, { recursive: true, force: true });
    const { seconds, peakRssMb } = timed([
      'scripts/make-fixtures.ts',
      ...['--out', partialDir, '--site', SITE, '--urls', String(URLS), '--crawls', String(CRAWLS)],
      ...['--seed', String(SEED)],
    ]);
    results.generate = { seconds, peakRssMb };
    fs.rmSync(exportsDir, { recursive: true, force: true });
    fs.renameSync(partialDir, exportsDir);
  }

  const loadsFile = path.join(BENCH_DIR, `loads-${URLS}-${CRAWLS}.json`);
  // The loads' figures are written last: without them the store may hold only some of the crawls.
  if (!fs.existsSync(loadsFile) || !fs.existsSync(path.join(dataDir, 'store', SITE))) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    const loads: { crawl: string; seconds: number; peakRssMb: number }[] = [];
    for (const dir of crawlExportDirs()) {
      console.log(`Loading ${dir} …`);
      const { seconds, peakRssMb } = timed(['scripts/load-crawl.ts', dir], { DATA_DIR: dataDir });
      loads.push({ crawl: path.basename(dir), seconds, peakRssMb });
    }
    fs.writeFileSync(loadsFile, JSON.stringify(loads));
  }
  // A store kept from an older build may hold crawls precomputed the old way: bring them up to date first.
  const refresh = run(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--refresh'], {
    DATA_DIR: dataDir,
  });
  console.log(refresh.stdout.trim());
  const loads = fs.existsSync(loadsFile) ? (JSON.parse(fs.readFileSync(loadsFile, 'utf8')) as unknown) : null;
  addUnlessThere('user add', [
    ...['user', 'add', '--email', ADMIN.email, '--password', ADMIN.password, '--role', 'ADMIN'],
  ]);
  return loads;
}

/** A section run alone: the store ready, the benchmark's folder there. */
export function prepareSection(): void {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  prepareStore({});
}
