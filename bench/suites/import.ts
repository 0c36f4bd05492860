/**
 * The import section (`--only import`): 16 months of Search Console's bulk export for the benchmark site
 * (bulk-export.ts), imported from Parquet and from CSV with the real importer, each into its own copy of the store, as
 * a child process under GNU time; then the dashboard's calls on the store without the import and on the store with it,
 * one analyst's requests sent to both in turn.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalog } from '../../catalog/index.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { bulkExport, MONTHS, type BulkExport } from '../support/bulk-export.ts';
import { BENCH_DIR, CRAWLS, dataDir, readResults, SITE, URLS, writeResults } from '../support/config.ts';
import { paired, pairedHttpCases } from '../support/paired.ts';
import { startService, stopService } from '../support/service.ts';
import { httpCasesOf, openSession, type HttpCase, type Session } from '../support/session.ts';
import { geometricMean, ratios, round, type Comparison, type Stats } from '../support/stats.ts';
import { prepareSection, timed } from '../support/store.ts';
import { PAIRED_ROUNDS, PAIRED_THINK_MS } from '../support/timing.ts';

/** The issue's targets on this 2-core machine. */
export const TARGETS = { parquetRowsPerSecond: 1_000_000, csvRowsPerSecond: 300_000, peakRssMb: 1536, p95Ratio: 1.1 };

interface ImportRun {
  format: 'parquet' | 'csv';
  fileMb: number;
  /** From the start of importData until the new version is published (the crawls' refresh not included). */
  importSeconds: number;
  rowsPerSecond: number;
  /** The import and then the crawls' refresh, each in its own child process. */
  withRefreshSeconds: number;
  /** The import's child process from start to exit, Node's start included. */
  processSeconds: number;
  /** The import's own peak RSS, its child process's (the refresh runs in another). */
  peakRssMb: number;
  refreshSeconds: number;
  refreshPeakRssMb: number;
  steps: Record<string, number>;
  tables: Record<string, number>;
  urls: unknown;
  refreshedCrawls: number;
  /** DuckDB alone on the same file just before, with the importer's reader (import-child.ts `baseline`). */
  baseline: { readSeconds: number; copySeconds: number; peakRssMb: number };
  /** The import's seconds over the bare read's, and over the bare copy's. */
  overRead: number;
  overCopy: number;
  loadAverage: number[];
}

type Compared = Comparison & { name: string; withoutData: Stats; withData: Stats };

const copyOf = (format: string): string => `${dataDir}-import-${format}`;

function copyStore(to: string): void {
  fs.rmSync(to, { recursive: true, force: true });
  const copied = spawnSync('cp', ['-a', '--reflink=auto', dataDir, to], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`cp ${dataDir} ${to}: ${copied.stderr}`);
}

function timeImport(bulk: BulkExport, format: 'parquet' | 'csv'): ImportRun {
  const store = copyOf(format);
  copyStore(store);
  console.log(`DuckDB alone on the ${format} file …`);
  const bare = timed(['bench/support/import-child.ts', store, SITE, bulk[format], 'baseline']);
  const bareLine = bare.output.split('\n').find((l) => l.startsWith('{'));
  if (!bareLine) throw new Error(`the ${format} baseline printed no result:\n${bare.output}`);
  const baseline = {
    ...(JSON.parse(bareLine) as { readSeconds: number; copySeconds: number }),
    peakRssMb: bare.peakRssMb,
  };
  console.log(`Importing ${bulk.rows.toLocaleString('en-GB')} rows from ${format} …`);
  const { seconds, peakRssMb, output } = timed(['bench/support/import-child.ts', store, SITE, bulk[format]]);
  const line = output.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`the ${format} import printed no result:\n${output}`);
  const child = JSON.parse(line) as {
    importSeconds: number;
    steps: Record<string, number>;
    tables: Record<string, number>;
    urls: unknown;
  };
  console.log(`Refreshing the crawls after the ${format} import …`);
  const refreshRun = timed(['bench/support/import-child.ts', store, SITE, bulk[format], 'refresh']);
  const refreshLine = refreshRun.output.split('\n').find((l) => l.startsWith('{'));
  if (!refreshLine) throw new Error(`the ${format} refresh printed no result:\n${refreshRun.output}`);
  const refresh = JSON.parse(refreshLine) as { seconds: number; refreshed: number[]; refreshFailure: string | null };
  if (refresh.refreshFailure) throw new Error(`the ${format} import's refresh failed: ${refresh.refreshFailure}`);
  const run: ImportRun = {
    format,
    fileMb: format === 'parquet' ? bulk.parquetMb : bulk.csvMb,
    importSeconds: child.importSeconds,
    rowsPerSecond: Math.round(bulk.rows / child.importSeconds),
    withRefreshSeconds: round(child.importSeconds + refresh.seconds),
    processSeconds: seconds,
    peakRssMb,
    refreshSeconds: refresh.seconds,
    refreshPeakRssMb: refreshRun.peakRssMb,
    steps: child.steps,
    tables: child.tables,
    urls: child.urls,
    refreshedCrawls: refresh.refreshed.length,
    baseline,
    overRead: round(child.importSeconds / baseline.readSeconds),
    overCopy: round(child.importSeconds / baseline.copySeconds),
    loadAverage: os.loadavg().map(round),
  };
  console.log(
    `${format}: ${run.rowsPerSecond.toLocaleString('en-GB')} rows/s (${run.importSeconds} s, ${run.overRead}× DuckDB's bare read of ${baseline.readSeconds} s, ${run.overCopy}× its bare copy of ${baseline.copySeconds} s; ${run.withRefreshSeconds} s with ${run.refreshedCrawls} crawls refreshed), peak RSS ${peakRssMb} MB (the refresh apart: ${run.refreshPeakRssMb} MB); load ${run.loadAverage.join(', ')}`,
  );
  return run;
}

/** The benchmark's calls, and the Search Console report's summary and first page, which the import feeds. */
function casesWithSearchConsole(session: Session): HttpCase[] {
  const report = catalog.reports.find((r) => r.id === 'search-console/all');
  if (!report) throw new Error('no search-console/all report');
  return [
    ...httpCasesOf(session).httpCases,
    ['search-console/all: summary', '/report/get-summary', session.summaryOf(report), 30],
    ['search-console/all: first page', '/report/get-rows', session.rowsOf(report, {}), 100],
  ];
}

/** The calls on the store without the import (backend 0) and with it (backend 1), in turn. */
async function sideBySide(withData: string): ReturnType<typeof paired> {
  const ports = [await freePort(), await freePort()];
  const services: ChildProcess[] = [];
  try {
    services.push(await startService(ports[0]!));
    services.push(await startService(ports[1]!, { DATA_DIR: withData }));
    const sessions = [await openSession(ports[0]!), await openSession(ports[1]!)];
    return await paired(pairedHttpCases(sessions, casesWithSearchConsole));
  } finally {
    for (const service of services) await stopService(service);
  }
}

export async function importOnly(): Promise<void> {
  prepareSection();
  const loadAverageBefore = os.loadavg().map(round);
  const started = performance.now();
  const bulk = await bulkExport();
  const runs = [timeImport(bulk, 'parquet'), timeImport(bulk, 'csv')];
  fs.rmSync(copyOf('csv'), { recursive: true, force: true });
  const loadAverageAfterImports = os.loadavg().map(round);
  const calls = await sideBySide(copyOf('parquet'));
  const perCase = calls.perCase.map(({ name, client, server: _server, ...ratio }): Compared => ({
    name,
    withoutData: client[0]!,
    withData: client[1]!,
    ...ratio,
  }));
  const result = {
    urls: URLS,
    crawls: CRAWLS,
    at: new Date().toISOString(),
    cores: os.cpus().length,
    loadAverage: { before: loadAverageBefore, afterImports: loadAverageAfterImports, after: os.loadavg().map(round) },
    seconds: round((performance.now() - started) / 1000),
    targets: TARGETS,
    bulkExport: {
      rows: bulk.rows,
      months: MONTHS,
      start: bulk.start,
      end: bulk.end,
      parquetMb: bulk.parquetMb,
      csvMb: bulk.csvMb,
    },
    imports: runs,
    calls: {
      rounds: PAIRED_ROUNDS,
      thinkMs: PAIRED_THINK_MS,
      all: calls.all,
      geometricMeanP95Ratio: geometricMean(perCase.map((c) => c.p95Ratio)),
      overTarget: perCase.filter((c) => c.p95RatioInterval[0] > TARGETS.p95Ratio).map((c) => c.name),
      perCase,
    },
  };
  fs.writeFileSync(path.join(BENCH_DIR, `import-${URLS}-${CRAWLS}.json`), `${JSON.stringify(result, null, 2)}\n`);
  // Read just before writing: another section may have written its figures during this one's minutes.
  writeResults({ ...readResults(), import: result });
  console.log(importTable(result));
}

function importTable(r: {
  imports: ImportRun[];
  calls: { perCase: Compared[]; overTarget: string[] };
  bulkExport: { rows: number };
  loadAverage: Record<string, number[]>;
  seconds: number;
}): string {
  return [
    `${r.bulkExport.rows.toLocaleString('en-GB')} rows of searchdata_url_impression, ${MONTHS} months:`,
    '',
    '| format | file MB | import s | rows/s | target rows/s | bare read s | bare copy s | import ÷ read | import ÷ copy | import peak RSS MB | refresh s | refresh peak RSS MB | load |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...r.imports.map(
      (i) =>
        `| ${i.format} | ${i.fileMb} | ${i.importSeconds} | ${i.rowsPerSecond} | ${i.format === 'parquet' ? TARGETS.parquetRowsPerSecond : TARGETS.csvRowsPerSecond} | ${i.baseline.readSeconds} | ${i.baseline.copySeconds} | ${i.overRead} | ${i.overCopy} | ${i.peakRssMb} | ${i.refreshSeconds} | ${i.refreshPeakRssMb} | ${i.loadAverage.join(', ')} |`,
    ),
    '',
    '| case | without data p95 ms | with data p95 ms | with ÷ without, p50 (95% interval) | p95 (95% interval) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...r.calls.perCase.map((c) => `| ${c.name} | ${c.withoutData.p95} | ${c.withData.p95} | ${ratios(c)} |`),
    '',
    `Cases whose whole p95 interval is over ${TARGETS.p95Ratio}×: ${r.calls.overTarget.join(', ') || 'none'}`,
    `${r.seconds} s; load average ${Object.entries(r.loadAverage)
      .map(([k, v]) => `${k} ${v.join(', ')}`)
      .join('; ')}`,
  ].join('\n');
}
