/**
 * Two trees of this project compared on one generated site (issues 30 §5 and 31: "every call keeps its p95 within 10%,
 * measured side by side"). Each tree serves its own store, loaded from the same exports by that tree's loader:
 *
 *   node --import tsx bench/side-by-side.ts BEFORE_TREE BEFORE_DATA_DIR AFTER_TREE AFTER_DATA_DIR OUT_JSON
 *
 * One analyst's dashboard calls (the cases of bench/results.md) go to both services in turn (paired.ts), then the
 * whole URL report is streamed as CSV from each in turn, three times each. The figures are the after ÷ before ratios
 * with their bootstrap intervals.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { freePort } from '../scripts/support/free-port.ts';
import { streamingExport } from './suites/exports.ts';
import { ADMIN } from './support/config.ts';
import { paired, pairedHttpCases } from './support/paired.ts';
import { stopService } from './support/service.ts';
import { openSession, type Session } from './support/session.ts';
import { round } from './support/stats.ts';

interface Tree {
  name: 'before' | 'after';
  root: string;
  dataDir: string;
}

function addAdmin(tree: Tree): void {
  const args = ['user', 'add', '--email', ADMIN.email, '--password', ADMIN.password, '--role', 'ADMIN'];
  const added = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: tree.root,
    env: { ...process.env, DATA_DIR: tree.dataDir },
    encoding: 'utf8',
  });
  if (added.status !== 0 && !/exists/i.test(added.stderr)) throw new Error(`admin in ${tree.root}: ${added.stderr}`);
}

/** The tree's service on its store, once healthy. */
async function serve(tree: Tree, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
    cwd: tree.root,
    env: { ...process.env, DATA_DIR: tree.dataDir, PORT: String(port), DEMO: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const isHealthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (isHealthy) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the ${tree.name} service did not become healthy within 120 s`);
}

/** The whole URL report as streamed CSV, from each service in turn, `rounds` times each. */
async function streamedInTurn(sessions: readonly Session[], rounds: number): Promise<number[][]> {
  const rowsPerSecond: number[][] = sessions.map(() => []);
  for (let i = 0; i < rounds; i++)
    for (const b of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const s = sessions[b]!;
      const body = { ...s.base, reportId: s.urlReport.id, tableId: s.urlReport.tableId };
      const streamed = await streamingExport(s.client, body);
      rowsPerSecond[b]!.push(...streamed.rowsPerSecond);
    }
  return rowsPerSecond;
}

async function main(): Promise<void> {
  const [beforeRoot, beforeData, afterRoot, afterData, out] = process.argv.slice(2);
  if (!beforeRoot || !beforeData || !afterRoot || !afterData || !out)
    throw new Error('usage: side-by-side.ts BEFORE_TREE BEFORE_DATA_DIR AFTER_TREE AFTER_DATA_DIR OUT_JSON');
  const trees: Tree[] = [
    { name: 'before', root: beforeRoot, dataDir: beforeData },
    { name: 'after', root: afterRoot, dataDir: afterData },
  ];
  const services: ChildProcess[] = [];
  try {
    for (const tree of trees) addAdmin(tree);
    const ports = [await freePort(), await freePort()];
    for (const [i, tree] of trees.entries()) services.push(await serve(tree, ports[i]!));
    const sessions = [await openSession(ports[0]!), await openSession(ports[1]!)];
    const loadAverage = { before: os.loadavg().map((x) => round(x)) };
    const calls = await paired(pairedHttpCases(sessions));
    const callsLoad = os.loadavg().map((x) => round(x));
    const csv = await streamedInTurn(sessions, Number(process.env.BENCH_CSV_ROUNDS ?? 2));
    const result = {
      at: new Date().toISOString(),
      reports: sessions.map((s) => s.reports),
      loadAverage: { ...loadAverage, afterCalls: callsLoad, afterCsv: os.loadavg().map((x) => round(x)) },
      calls,
      csvRowsPerSecond: { before: csv[0], after: csv[1] },
    };
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    for (const c of calls.perCase)
      console.log(
        `${c.name.padEnd(46)} p95 ${c.client[0]!.p95} → ${c.client[1]!.p95} ms, ×${c.p95Ratio} (${c.p95RatioInterval.join('–')})`,
      );
    console.log(`CSV rows/s before ${csv[0]!.join(', ')}; after ${csv[1]!.join(', ')}`);
  } finally {
    for (const service of services) await stopService(service);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
