/**
 * `npm run bench`: generates (or reuses) a benchmark site, loads its crawls, starts the real service and measures
 * each case over HTTP, then times the plain DuckDB query a naive implementation would run over the export's Parquet
 * files in the same run, so each figure is also a ratio. Writes bench/results.json and prints a table.
 * `npm run bench -- --only <section>` runs one section alone (crawl, rows, replicas, crawl-load, import, scale), its figures
 * replacing that part of the results.
 *
 * BENCH_URLS (default 1,000,000), BENCH_CRAWLS (5), BENCH_RUNS (30) and BENCH_DIR (bench/out) scale it down for a
 * quick look.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { freePort } from '../scripts/support/free-port.ts';
import { baselines, type NaiveExport } from './suites/baselines.ts';
import { callsTable, measureCalls, type CaseResult } from './suites/calls.ts';
import { concurrencyTable, concurrent } from './suites/concurrency.ts';
import { benchCrawl, crawlOnly, crawlTable, type CrawlBenchResult } from './suites/crawl.ts';
import { crawlLoadOnly } from './suites/crawl-load.ts';
import { exportByChunks, streamingExport } from './suites/exports.ts';
import { importOnly } from './suites/import.ts';
import { replicasOnly } from './suites/replicas.ts';
import { scaleOnly, scaleSizeOnly } from './suites/scale.ts';
import { columnarRows, rowsOnly } from './suites/rows.ts';
import { BENCH_DIR, CRAWLS, RESULTS_MD, RUNS, URLS, writeResults } from './support/config.ts';
import { rssMb, startService } from './support/service.ts';
import { httpCasesOf, openSession } from './support/session.ts';
import { round } from './support/stats.ts';
import { crawlExportDirs, prepareStore } from './support/store.ts';

/** Every section but replicas and crawl-load, on one service; the results replace bench/results.json. */
async function main(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const results: Record<string, unknown> = {
    urls: URLS,
    crawls: CRAWLS,
    runs: RUNS,
    startedAt: new Date().toISOString(),
  };

  results.loads = prepareStore(results);

  const port = await freePort();
  const bootStarted = performance.now();
  const service = await startService(port);
  results.serviceBootSeconds = round((performance.now() - bootStarted) / 1000);
  let cases: CaseResult[] = [];
  let naiveExport: NaiveExport = {};
  try {
    const session = await openSession(port);
    const { client, urlReport, urlRows, base, rowsOf } = session;
    results.reports = session.reports;
    const { httpCases, lastOffset, middleOffset } = httpCasesOf(session);
    const calls = await measureCalls(client, httpCases);
    cases = calls.cases;

    const chunked = await exportByChunks(client, rowsOf(urlReport, { limit: 1000 }), Math.min(100_000, urlRows));
    results.chunkedCsv = chunked;
    console.log(`chunked export: ${chunked.rows} rows in ${chunked.seconds} s`);

    const streamed = await streamingExport(client, { ...base, reportId: urlReport.id, tableId: urlReport.tableId });
    results.streamingCsv = streamed;
    console.log(`streaming export: ${streamed.rows} rows, ${streamed.rowsPerSecond.join(', ')} rows/s`);

    results.columnar = await columnarRows(session);
    results.serviceRss = rssMb(service.pid ?? 0);
    results.concurrency = await concurrent(client, httpCases, calls.timings);

    naiveExport = await baselines(cases, { ...session, lastOffset, middleOffset }, crawlExportDirs());
  } finally {
    service.kill('SIGTERM');
  }
  results.cases = cases;
  results.naiveExport = naiveExport;
  results.crawl = await benchCrawl();
  writeResults(results);
  printTable(cases, results);
}

function printTable(cases: CaseResult[], results: Record<string, unknown>): void {
  const loop = new Map(cases.map((c) => [c.name, c.service]));
  const crawl = results.crawl as CrawlBenchResult | undefined;
  const text = [
    ...callsTable(cases),
    '',
    ...concurrencyTable(results.concurrency, loop),
    ...(crawl ? ['', crawlTable(crawl)] : []),
  ].join('\n');
  console.log(text);
  console.log(
    JSON.stringify({
      loads: results.loads,
      serviceRss: results.serviceRss,
      boot: results.serviceBootSeconds,
      streamingCsv: results.streamingCsv,
      naiveExport: results.naiveExport,
    }),
  );
  fs.writeFileSync(RESULTS_MD, text + '\n');
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const sections: Record<string, () => Promise<void>> = {
  crawl: crawlOnly,
  rows: rowsOnly,
  replicas: replicasOnly,
  'crawl-load': crawlLoadOnly,
  import: importOnly,
  scale: scaleOnly,
  'scale-size': scaleSizeOnly,
};
if (only !== undefined && !sections[only]) {
  console.error(`--only takes one section: ${Object.keys(sections).join(' or ')} (got ${only ?? 'nothing'})`);
  process.exit(2);
}
(only === undefined ? main() : sections[only]!()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
