/**
 * `npm run bench`: generates (or reuses) a benchmark site, loads its crawls, starts the real service and measures
 * each case over HTTP, then times the plain DuckDB query a naive implementation would run over the export's Parquet
 * files in the same run, so each figure is also a ratio. Writes bench/results.json and prints a table.
 *
 * BENCH_URLS (default 1,000,000), BENCH_CRAWLS (5), BENCH_RUNS (30) and BENCH_DIR (bench/out) scale it down for a
 * quick look.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, withConnection } from '../service/db/duckdb.ts';
import { catalog } from '../catalog/index.ts';
import { filterConstants } from '../catalog/constants.ts';
import type { ReportDefinition } from '../catalog/schema.ts';
import { parquetFileOf } from '../catalog/export-contract.ts';
import { exportColumns } from '../service/export/csv.ts';
import { freePort } from '../service/test/helpers/free-port.ts';
import { databaseFor, startPostgres } from '../service/test/helpers/postgres-server.ts';
import { debianPackages, ensureDebianPackages } from '../service/test/helpers/debian-packages.ts';
import { RUST_DOC_ROOT, startNginx } from '../service/test/helpers/real-site.ts';
import {
  ACTIVE_RUN_STATUSES,
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunsAnswer,
} from '../catalog/crawl-runs.ts';
import { benchCrawl, CRAWL_HEADING, crawlTable, type CrawlBenchResult } from './bench-crawl.ts';
import { compare, geometricMean, round, seededRandom, stats, type Comparison, type Stats } from './bench-stats.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCH_DIR = path.resolve(process.env.BENCH_DIR ?? path.join(ROOT, 'bench/out'));
const URLS = Number(process.env.BENCH_URLS ?? 1_000_000);
const CRAWLS = Number(process.env.BENCH_CRAWLS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 5);
/** An analyst's pause between clicks in the concurrency case, ms (uniform). */
const THINK_MS = [500, 1500] as const;
const SITE = 'northwind-outfitters';
const SEED = 7;
const ADMIN = { email: 'bench@thc.example', password: 'bench-password-1' };

/** The table's largest page and the dashboard's CSV chunk: what the columnar path is measured on. */
const ROWS_PAGE_100 = 'rows: 100-row page, default sort';
const CSV_CHUNK_1000 = 'CSV chunk: 1000 rows';

const exportsDir = path.join(BENCH_DIR, `exports-${URLS}-${CRAWLS}`);
const dataDir = path.join(BENCH_DIR, `data-${URLS}-${CRAWLS}`);

interface CaseResult {
  name: string;
  service: Stats;
  baseline?: Stats;
  ratio?: number;
  target?: number;
  note?: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; ms: number } {
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

/** Runs a node script under GNU time to get its peak RSS. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): { seconds: number; peakRssMb: number } {
  const { stdout, ms } = run('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', ...args], env);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stdout)?.[1] ?? NaN);
  return { seconds: round(ms / 1000), peakRssMb: Math.round(kb / 1024) };
}

function crawlExportDirs(): string[] {
  const siteDir = path.join(exportsDir, SITE);
  return fs
    .readdirSync(siteDir)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(a) - Number(b))
    .map((d) => path.join(siteDir, d));
}

class Client {
  cookie = '';
  csrf = '';
  constructor(readonly base: string) {}

  /** The same session sent to another replica. */
  on(base: string): Client {
    const other = new Client(base);
    other.cookie = this.cookie;
    other.csrf = this.csrf;
    return other;
  }

  async login(): Promise<void> {
    const response = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    this.cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    this.csrf = ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** `ms` as the client waits it; `serverMs` from the service's Server-Timing header (to the first byte). */
  async post(
    url: string,
    body: unknown,
    accept = 'application/json',
  ): Promise<{ ms: number; serverMs: number; bytes: number; total: number }> {
    const started = performance.now();
    const response = await this.send(url, body, accept);
    const buffer = await response.arrayBuffer();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`${url} → ${response.status}: ${Buffer.from(buffer).toString('utf8')}`);
    const serverMs = Number(/\bapp;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN);
    return { ms, serverMs, bytes: buffer.byteLength, total: Number(response.headers.get('x-total-count')) };
  }

  async json<T>(url: string, body: unknown): Promise<T> {
    const response = await this.send(url, body);
    if (!response.ok) throw new Error(`${url} → ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A signed-in POST of `body` as JSON; the response unread. */
  send(url: string, body: unknown, accept = 'application/json'): Promise<Response> {
    return fetch(`${this.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, cookie: this.cookie, 'x-csrf-token': this.csrf },
      body: JSON.stringify(body),
    });
  }
}

async function startService(port: number, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
    cwd: ROOT,
    // The crawl-load runs crawl sites served on 127.0.0.1, which the service's egress policy refuses unless allowed.
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO: '0',
      HOST: '127.0.0.1',
      CRAWL_ALLOW: '127.0.0.1/32',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the service did not become healthy within 120 s');
}

const rssMb = (pid: number): { rss: number; hwm: number } => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
};

async function measure(runs: number, once: () => Promise<number>): Promise<Stats> {
  await once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  return stats(samples);
}

/** The naive implementation's SQL for a report: its filter straight over the export's Parquet file. */
function naiveFilter(report: ReportDefinition): string {
  return report.filter.replace(/\{([A-Z_]+)\}/g, (_, name: string) => {
    const value = (filterConstants as Record<string, number | readonly number[]>)[name];
    if (value === undefined) throw new Error(`unknown constant ${name}`);
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

/** Generates and loads the benchmark site when missing, brings its crawls up to date and adds the benchmark's admin. */
function prepareStore(results: Record<string, unknown>): unknown {
  if (!fs.existsSync(path.join(exportsDir, SITE))) {
    console.log(`Generating ${URLS.toLocaleString('en-GB')} URLs × ${CRAWLS} crawls into ${exportsDir} …`);
    // Into a side folder first: an interrupted generation must not pass for a finished one next time.
    const partialDir = `${exportsDir}.partial`;
    fs.rmSync(partialDir, { recursive: true, force: true });
    results.generate = timed([
      'scripts/make-fixtures.ts',
      '--out',
      partialDir,
      '--site',
      SITE,
      '--urls',
      String(URLS),
      '--crawls',
      String(CRAWLS),
      '--seed',
      String(SEED),
    ]);
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
      loads.push({ crawl: path.basename(dir), ...timed(['scripts/load-crawl.ts', dir], { DATA_DIR: dataDir }) });
    }
    fs.writeFileSync(loadsFile, JSON.stringify(loads));
  }
  // A store kept from an older build may hold crawls precomputed the old way: bring them up to date first.
  const refresh = run(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--refresh'], {
    DATA_DIR: dataDir,
  });
  console.log(refresh.stdout.trim());
  const loads = fs.existsSync(loadsFile) ? (JSON.parse(fs.readFileSync(loadsFile, 'utf8')) as unknown) : null;
  const admin = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/admin.ts',
      'user',
      'add',
      '--email',
      ADMIN.email,
      '--password',
      ADMIN.password,
      '--role',
      'ADMIN',
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (admin.status !== 0 && !/exists/i.test(admin.stderr)) throw new Error(`admin user add failed: ${admin.stderr}`);
  return loads;
}

type Session = Awaited<ReturnType<typeof openSession>>;

/** Signs in and picks the benchmark's reports: the largest URL and links reports the generator fills. */
async function openSession(port: number) {
  const client = new Client(`http://127.0.0.1:${port}`);
  await client.login();
  const crawls = await client.json<{ crawlId: number; dataStart: string; dataEnd: string }[]>(
    '/api/technical-health-check/crawl/get-redux',
    { websiteId: SITE },
  );
  const [current, previous] = crawls;
  if (!current || !previous) throw new Error('the benchmark needs at least two crawls');
  const overview = await client.json<{
    severityMap: Record<string, { reports: { reportId: string; ems_lumar_row_count: number }[] }>;
  }>('/api/technical-health-check/overview/get-overview', {
    websiteId: SITE,
    currentId: current.crawlId,
    refresh: false,
  });
  const counts = new Map(
    Object.values(overview.severityMap).flatMap((s) => s.reports.map((r) => [r.reportId, r.ems_lumar_row_count])),
  );
  const usesJoins = (r: ReportDefinition): boolean => /\b(gsc|ga)_/.test(r.filter);
  const largest = (table: string): ReportDefinition => {
    const candidates = catalog.reports.filter((r) => r.tableId === table && !usesJoins(r) && r.filter !== 'TRUE');
    const best = candidates.sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))[0];
    if (!best) throw new Error(`no ${table} report`);
    return best;
  };
  const urlReport = largest('urls');
  const linkReport = largest('links');
  const sortColumn = urlReport.datatableColumns.find((c) => !urlReport.keyColumns.includes(c) && c !== 'url') ?? 'url';
  const linkSort = linkReport.datatableColumns.find((c) => !linkReport.keyColumns.includes(c)) ?? 'url_from';
  const urlRows = counts.get(urlReport.id) ?? 0;
  const reports = { url: urlReport.id, urlRows, links: linkReport.id, linkRows: counts.get(linkReport.id) ?? 0 };
  console.log(`URL report ${urlReport.id} (${urlRows} rows), links report ${linkReport.id}, sort ${sortColumn}`);

  const base = {
    websiteId: SITE,
    currentId: current.crawlId,
    comparisonId: previous.crawlId,
    dataDateRange: { start: current.dataStart, end: current.dataEnd },
    differenceType: 'all',
    segmentId: null,
    showChecked: false,
    userFilter: '',
    channel: null,
    skipCache: true,
  };
  const summaryOf = (r: ReportDefinition): object => ({
    ...base,
    reportId: r.id,
    tableId: r.tableId,
    trendCrawlIds: crawls.slice(0, 5).map((c) => c.crawlId),
  });
  const rowsOf = (r: ReportDefinition, extra: object): object => ({
    ...base,
    reportId: r.id,
    tableId: r.tableId,
    limit: 10,
    offset: 0,
    orderBy: [],
    ...extra,
  });
  return {
    client,
    crawls,
    current,
    previous,
    urlReport,
    linkReport,
    sortColumn,
    linkSort,
    urlRows,
    reports,
    base,
    summaryOf,
    rowsOf,
  };
}

/** The measured cases: the dashboard's calls on the benchmark's reports. */
function httpCasesOf(session: Session): { httpCases: HttpCase[]; lastOffset: number; middleOffset: number } {
  const { current, previous, urlReport, linkReport, sortColumn, linkSort, urlRows, summaryOf, rowsOf } = session;
  const lastOffset = Math.max(0, Math.floor((urlRows - 1) / 10) * 10);
  const middleOffset = Math.floor(urlRows / 20) * 10;
  const httpCases: HttpCase[] = [
    [
      'overview',
      '/overview/get-overview',
      { websiteId: SITE, currentId: current.crawlId, comparisonId: previous.crawlId, refresh: true },
      20,
    ],
    ['summary', '/report/get-summary', summaryOf(urlReport), 30],
    ['rows: first page, default sort', '/report/get-rows', rowsOf(urlReport, {}), 100],
    [ROWS_PAGE_100, '/report/get-rows', rowsOf(urlReport, { limit: 100 }), 100],
    [
      `rows: first page, sort ${sortColumn} desc`,
      '/report/get-rows',
      rowsOf(urlReport, { orderBy: [{ id: sortColumn, desc: true }] }),
      100,
    ],
    ['rows: last page, default sort', '/report/get-rows', rowsOf(urlReport, { offset: lastOffset }), 250],
    [
      `rows: middle page, sort ${sortColumn}`,
      '/report/get-rows',
      rowsOf(urlReport, { offset: middleOffset, orderBy: [{ id: sortColumn, desc: false }] }),
      600,
    ],
    ['rows: Added tab', '/report/get-rows', rowsOf(urlReport, { differenceType: 'added' }), 100],
    ['rows: Removed tab', '/report/get-rows', rowsOf(urlReport, { differenceType: 'removed' }), 100],
    ['links report: first page', '/report/get-rows', rowsOf(linkReport, {}), 250],
    [
      `links report: sort ${linkSort}`,
      '/report/get-rows',
      rowsOf(linkReport, { orderBy: [{ id: linkSort, desc: true }] }),
      250,
    ],
    ["rows: 'URLs containing' filter", '/report/get-rows', rowsOf(urlReport, { userFilter: 'product' }), 100],
    [CSV_CHUNK_1000, '/report/get-rows', rowsOf(urlReport, { limit: 1000 }), undefined],
  ];
  return { httpCases, lastOffset, middleOffset };
}

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
  const cases: CaseResult[] = [];
  try {
    const session = await openSession(port);
    const { client, urlReport, linkReport, sortColumn, linkSort, urlRows, base, rowsOf } = session;
    results.reports = session.reports;
    const { httpCases, lastOffset, middleOffset } = httpCasesOf(session);
    const timings = new Map<string, Stats>();
    for (const [name, url, body, target] of httpCases) {
      const service = await measure(
        RUNS,
        async () => (await client.post(`/api/technical-health-check${url}`, body, acceptOf(url))).ms,
      );
      timings.set(name, service);
      cases.push({ name, service, target });
      console.log(`${name}: p50 ${service.p50} ms, p95 ${service.p95} ms`);
    }

    const chunked = await exportByChunks(client, rowsOf(urlReport, { limit: 1000 }), Math.min(100_000, urlRows));
    results.chunkedCsv = chunked;
    console.log(`chunked export: ${chunked.rows} rows in ${chunked.seconds} s`);

    const streamed = await streamingExport(client, { ...base, reportId: urlReport.id, tableId: urlReport.tableId });
    results.streamingCsv = streamed;
    console.log(`streaming export: ${streamed.rows} rows, ${streamed.rowsPerSecond.join(', ')} rows/s`);

    results.columnar = await columnarRows(session);
    results.serviceRss = rssMb(service.pid ?? 0);
    results.concurrency = await concurrent(client, httpCases, timings);

    await baselines(cases, urlReport, linkReport, sortColumn, linkSort, lastOffset, middleOffset, crawlExportDirs());
  } finally {
    service.kill('SIGTERM');
  }
  results.cases = cases;
  results.naiveExport = naiveExport;
  results.crawl = await benchCrawl();
  fs.writeFileSync(path.join(ROOT, 'bench/results.json'), JSON.stringify(results, null, 2) + '\n');
  printTable(cases, results);
}

/** Ends a service and waits for its exit, so that the embedded app database it held is free again. */
async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One timed request: as the client waits it, and inside the service (Server-Timing; NaN where not sent). */
interface Timing {
  ms: number;
  serverMs: number;
}

/** A request made the same way on each backend: `on[i]` sends it to backend i. */
interface PairedCase {
  name: string;
  on: (() => Promise<Timing>)[];
}

interface PairedResult extends Comparison {
  name: string;
  /** Per backend, in the order of `on`. */
  client: Stats[];
  server: Stats[];
}

/** The single analyst's rounds: each case this many times on each backend, after the warm-up rounds. */
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 40);
const PAIRED_WARM_UP_ROUNDS = 3;
/**
 * The single analyst's pause before each request in the paired comparison, ms (uniform): shorter than THINK_MS so
 * that 40 rounds on two backends take about three minutes, long enough for the machine to go idle between requests
 * as it does between an analyst's clicks.
 */
const PAIRED_THINK_MS = [25, 175] as const;

type Samples = { client: number[]; server: number[] };

/**
 * Times every case on every backend, `rounds` times after `warmUpRounds` not counted, until `isDone` (asked after
 * each round) says so. Within a round each case goes to every backend in turn, the backends' order alternating from
 * round to round, each request after a PAIRED_THINK_MS pause: load from the rest of the machine and a request's start
 * from idle then hit every backend alike, which measuring one backend after the other does not give. Answers the
 * samples per case, per backend.
 */
async function timeRounds(
  cases: readonly PairedCase[],
  rounds: number,
  warmUpRounds: number,
  isDone: () => Promise<boolean> = () => Promise.resolve(false),
): Promise<Samples[][]> {
  const random = seededRandom(20261123);
  const samples = cases.map((c) => c.on.map((): Samples => ({ client: [], server: [] })));
  for (let pass = 0; pass < warmUpRounds + rounds && !(await isDone()); pass++)
    for (const [i, c] of cases.entries()) {
      const order = c.on.map((_, b) => b);
      if (pass % 2 === 1) order.reverse();
      for (const b of order) {
        await sleep(PAIRED_THINK_MS[0] + random() * (PAIRED_THINK_MS[1] - PAIRED_THINK_MS[0]));
        const { ms, serverMs } = await c.on[b]!();
        if (pass < warmUpRounds) continue;
        samples[i]![b]!.client.push(ms);
        if (Number.isFinite(serverMs)) samples[i]![b]!.server.push(serverMs);
      }
    }
  return samples;
}

/** Two backends compared on the same cases (`timeRounds`): the second ÷ the first, per case and over all requests. */
async function paired(cases: readonly PairedCase[]): Promise<{ perCase: PairedResult[]; all: Comparison }> {
  const samples = await timeRounds(cases, PAIRED_ROUNDS, PAIRED_WARM_UP_ROUNDS);
  const perCase = cases.map((c, i) => ({
    name: c.name,
    client: samples[i]!.map((s) => stats(s.client)),
    server: samples[i]!.map((s) => stats(s.server)),
    ...compare(samples[i]![0]!.client, samples[i]![1]!.client),
  }));
  const allOf = (b: number): number[] => samples.flatMap((s) => s[b]!.client);
  return { perCase, all: compare(allOf(0), allOf(1)) };
}

const timedPost = (client: Client, url: string, body: unknown, accept?: string) => async (): Promise<Timing> => {
  const { ms, serverMs } = await client.post(url, body, accept);
  return { ms, serverMs };
};

/** The dashboard's calls (`httpCasesOf`), one per backend's session. */
const pairedHttpCases = (sessions: readonly Session[]): PairedCase[] =>
  httpCasesOf(sessions[0]!).httpCases.map(([name, url], i) => ({
    name,
    on: sessions.map((s) => {
      const body = httpCasesOf(s).httpCases[i]![2];
      return timedPost(s.client, `/api/technical-health-check${url}`, body, acceptOf(url));
    }),
  }));

/**
 * The calls that write app state: a sign-in, a checklist save (two new items each time) and an approval of the
 * current crawl (idempotent after the first: a read and a no-op), one per backend's session.
 */
function pairedAppStateCalls(sessions: readonly Session[]): PairedCase[] {
  // Rows of reports of severity NONE cannot be checked.
  const checkable = catalog.reports.find((r) => r.tableId === 'urls' && r.severity !== 'NONE');
  if (!checkable) throw new Error('no report whose rows can be checked');
  let saved = 0;
  const login = (client: Client) => async (): Promise<Timing> => {
    const started = performance.now();
    await new Client(client.base).login();
    return { ms: performance.now() - started, serverMs: NaN };
  };
  const save = (client: Client, crawlId: number) => (): Promise<Timing> => {
    const urls = [0, 1].map((n) => `https://${SITE}.example/bench-${process.pid}-${saved}-${n}`);
    saved++;
    return timedPost(client, '/api/technical-health-check/checklist/save', {
      websiteId: SITE,
      setChecked: urls.map((url) => ({ url, subKeys: [] })),
      setUnchecked: [],
      start: crawlId,
      submodule: checkable.id,
      module: 'technical-health-check',
      end: null,
      differenceType: 'all',
    })();
  };
  return [
    { name: 'login', on: sessions.map((s) => login(s.client)) },
    { name: 'checklist save', on: sessions.map((s) => save(s.client, s.current.crawlId)) },
    {
      name: 'approve',
      on: sessions.map((s) =>
        timedPost(s.client, '/api/technical-health-check/crawl/approve', {
          websiteId: SITE,
          moduleId: `${SITE}:${s.current.crawlId}`,
        }),
      ),
    },
  ];
}

/**
 * How far over the embedded default a case may be for one analyst on PostgreSQL: a network round trip per app-state
 * read may cost something, but not so much that an analyst would notice.
 */
const SINGLE_ANALYST_LIMIT = 1.2;

/**
 * `npm run bench -- --only replicas`: the app state on the embedded default against a real PostgreSQL server
 * (Debian's, started as the tests start it), one analyst's calls sent to both in turn (`paired`); then eight analysts
 * against one replica and against two replicas over that server and the same store, round robin as a load balancer
 * sends them. Its figures replace that part of the results.
 */
async function replicasOnly(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const file = path.join(ROOT, 'bench/results.json');
  const results = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
  prepareStore({});
  const loadAverageBefore = os.loadavg().map(round);
  const started = performance.now();

  const postgres = await startPostgres();
  const services: ChildProcess[] = [];
  try {
    const databaseUrl = await databaseFor(postgres.url, 'bench');
    // While no service holds the embedded app database: the copy leaves it as it is, for the embedded service.
    run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'app-db', 'migrate-to', databaseUrl], {
      DATA_DIR: dataDir,
    });
    const env = { DATABASE_URL: databaseUrl };
    const embeddedPort = await freePort();
    const embeddedService = await startService(embeddedPort);
    services.push(embeddedService);
    const portA = await freePort();
    services.push(await startService(portA, env));
    const sessions = [await openSession(embeddedPort), await openSession(portA)];
    const singleAnalyst = await paired(pairedHttpCases(sessions));
    const appState = await paired(pairedAppStateCalls(sessions));
    console.log(`one analyst, embedded and PostgreSQL in turn: ${PAIRED_ROUNDS} rounds done`);
    await stopService(embeddedService);

    const session = sessions[1]!;
    const { httpCases } = httpCasesOf(session);
    const eight = async (clients: Client[]) => ({
      replicas: clients.length,
      analysts: await workload(clients, httpCases, 8, 2 * httpCases.length, THINK_MS),
      withoutPauses: await workload(clients, httpCases, 8, httpCases.length, [0, 0]),
    });
    const oneReplica = await eight([session.client]);
    const portB = await freePort();
    services.push(await startService(portB, env));
    const twoReplicas = await eight([session.client, session.client.on(`http://127.0.0.1:${portB}`)]);

    const p95Of = (w: { perCase: LoadCase[] }, name: string): number | undefined =>
      w.perCase.find((c) => c.name === name)?.client.p95;
    const eightAnalysts = httpCases.map(([name]) => ({
      name,
      oneReplicaP95: p95Of(oneReplica.analysts, name),
      twoReplicasP95: p95Of(twoReplicas.analysts, name),
      withoutPausesOneReplicaP95: p95Of(oneReplica.withoutPauses, name),
      withoutPausesTwoReplicasP95: p95Of(twoReplicas.withoutPauses, name),
    }));
    const summary = (w: { requests: number; errors: number; requestsPerSecond: number; all: Stats }) => ({
      requests: w.requests,
      errors: w.errors,
      requestsPerSecond: w.requestsPerSecond,
      p95: w.all.p95,
    });
    const byBackend = ({ name, client, server, ...ratios }: PairedResult): BackendComparison => ({
      name,
      embedded: { client: client[0]!, server: server[0]! },
      postgres: { client: client[1]!, server: server[1]! },
      ...ratios,
    });
    const slower = singleAnalyst.perCase.filter(
      (c) => Math.max(c.p50RatioInterval[0], c.p95RatioInterval[0]) > SINGLE_ANALYST_LIMIT,
    );
    results.replicas = {
      urls: URLS,
      crawls: CRAWLS,
      runs: RUNS,
      at: new Date().toISOString(),
      cores: os.cpus().length,
      loadAverage: { before: loadAverageBefore, after: os.loadavg().map(round) },
      seconds: round((performance.now() - started) / 1000),
      thinkMs: THINK_MS,
      singleAnalyst: {
        rounds: PAIRED_ROUNDS,
        warmUpRounds: PAIRED_WARM_UP_ROUNDS,
        thinkMs: PAIRED_THINK_MS,
        all: singleAnalyst.all,
        geometricMeanP50Ratio: geometricMean(singleAnalyst.perCase.map((c) => c.p50Ratio)),
        geometricMeanP95Ratio: geometricMean(singleAnalyst.perCase.map((c) => c.p95Ratio)),
        worstP95Ratio: Math.max(...singleAnalyst.perCase.map((c) => c.p95Ratio)),
        slowerThanLimit: { limit: SINGLE_ANALYST_LIMIT, cases: slower.map((c) => c.name) },
        perCase: singleAnalyst.perCase.map(byBackend),
      },
      appState: appState.perCase.map(byBackend),
      eightAnalysts: {
        oneReplica: { analysts: summary(oneReplica.analysts), withoutPauses: summary(oneReplica.withoutPauses) },
        twoReplicas: { analysts: summary(twoReplicas.analysts), withoutPauses: summary(twoReplicas.withoutPauses) },
        perCase: eightAnalysts,
      },
    };
    fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
    console.log(replicasTable(results.replicas as ReplicasResult));
  } finally {
    for (const service of services) await stopService(service);
    postgres.stop();
  }
}

type Throughput = { requestsPerSecond: number; errors: number; p95: number };

interface BackendComparison extends Comparison {
  name: string;
  embedded: { client: Stats; server: Stats };
  postgres: { client: Stats; server: Stats };
}

type ReplicasResult = {
  loadAverage: { before: number[]; after: number[] };
  seconds: number;
  singleAnalyst: {
    rounds: number;
    thinkMs: readonly number[];
    all: Comparison;
    geometricMeanP50Ratio: number;
    geometricMeanP95Ratio: number;
    slowerThanLimit: { limit: number; cases: string[] };
    perCase: BackendComparison[];
  };
  appState: BackendComparison[];
  eightAnalysts: {
    oneReplica: Record<'analysts' | 'withoutPauses', Throughput>;
    twoReplicas: Record<'analysts' | 'withoutPauses', Throughput>;
    perCase: {
      name: string;
      oneReplicaP95?: number;
      twoReplicasP95?: number;
      withoutPausesOneReplicaP95?: number;
      withoutPausesTwoReplicasP95?: number;
    }[];
  };
};

/** A comparison's two ratios as table cells, each with its interval. */
const ratios = (c: Comparison): string =>
  `${c.p50Ratio} (${c.p50RatioInterval.join('–')}) | ${c.p95Ratio} (${c.p95RatioInterval.join('–')})`;

function replicasTable(r: ReplicasResult): string {
  const dash = (n: number | null | undefined): string => (n === undefined || n === null ? '–' : String(n));
  const { oneReplica, twoReplicas } = r.eightAnalysts;
  const { singleAnalyst: single } = r;
  const compared = (c: BackendComparison): string =>
    `| ${c.name} | ${c.embedded.client.p50} | ${c.embedded.client.p95} | ${c.postgres.client.p50} | ${c.postgres.client.p95} | ${ratios(c)} |`;
  const head = [
    '| embedded p50 ms | embedded p95 ms | PostgreSQL p50 ms | PostgreSQL p95 ms | PostgreSQL ÷ embedded, p50 (95% interval) | p95 (95% interval) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  return [
    `One analyst, embedded and PostgreSQL in turn, ${single.rounds} requests per case on each (pauses ${single.thinkMs.join('–')} ms):`,
    '',
    `| case ${head[0]}`,
    `| --- ${head[1]}`,
    ...single.perCase.map(compared),
    `| all requests | | | | | ${ratios(single.all)} |`,
    `| geometric mean of the cases | | | | | ${single.geometricMeanP50Ratio} | ${single.geometricMeanP95Ratio} |`,
    '',
    `Cases whose whole interval is over ${single.slowerThanLimit.limit}×: ${single.slowerThanLimit.cases.join(', ') || 'none'}`,
    '',
    `| app-state call ${head[0]}`,
    `| --- ${head[1]}`,
    ...r.appState.map(compared),
    '',
    '| case | 8 analysts, 1 replica p95 ms | 8 analysts, 2 replicas p95 ms | 8 without pauses, 1 replica p95 ms | 8 without pauses, 2 replicas p95 ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...r.eightAnalysts.perCase.map(
      (c) =>
        `| ${c.name} | ${dash(c.oneReplicaP95)} | ${dash(c.twoReplicasP95)} | ${dash(c.withoutPausesOneReplicaP95)} | ${dash(c.withoutPausesTwoReplicasP95)} |`,
    ),
    `| all requests | ${oneReplica.analysts.p95} | ${twoReplicas.analysts.p95} | ${oneReplica.withoutPauses.p95} | ${twoReplicas.withoutPauses.p95} |`,
    `| requests/s (errors) | ${oneReplica.analysts.requestsPerSecond} (${oneReplica.analysts.errors}) | ${twoReplicas.analysts.requestsPerSecond} (${twoReplicas.analysts.errors}) | ${oneReplica.withoutPauses.requestsPerSecond} (${oneReplica.withoutPauses.errors}) | ${twoReplicas.withoutPauses.requestsPerSecond} (${twoReplicas.withoutPauses.errors}) |`,
    '',
    `${r.seconds} s; load average before ${r.loadAverage.before.join(', ')}, after ${r.loadAverage.after.join(', ')}`,
  ].join('\n');
}

/** The website the crawl-load section crawls rust-doc into: its own, so the benchmark site's crawls stay as they are. */
const CRAWL_LOAD_WEBSITE = 'bench-rust-doc';
/** Requests per dashboard case, idle and during the crawl. */
const CRAWL_LOAD_SAMPLES = Number(process.env.BENCH_CRAWL_LOAD_SAMPLES ?? 60);
/** The dashboard's p95 during a crawl, at most this many times idle: a crawl may slow analysts, not stall them. */
const CRAWL_LOAD_GOAL = 2;
const RUN_POLL_MS = 200;
/**
 * How often the sampling looks at the run: every app-database read drops the service's cached session reads, so a
 * look before every round would make the next request slower by more than the crawl does.
 */
const RUN_LOOK_MS = 2000;

/** A crawl-runs call (catalog/crawl-runs.ts); a route this build lacks is named as such. */
async function crawlRunsCall<T>(client: Client, call: string, body: object): Promise<T> {
  const response = await client.send(`/api/crawl-runs/${call}`, body);
  const text = await response.text();
  if (response.status === 404 && text.includes(`/api/crawl-runs/${call} does not exist`))
    throw new Error(
      `the service has no POST /api/crawl-runs/${call}: this build does not run crawls (issue 17's crawl runs are missing)`,
    );
  if (!response.ok) throw new Error(`/api/crawl-runs/${call} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function runOf(client: Client, runId: number): Promise<CrawlRun> {
  const { runs } = await crawlRunsCall<CrawlRunsAnswer>(client, 'list', { websiteId: CRAWL_LOAD_WEBSITE });
  const run = runs.find((r) => r.id === runId);
  if (!run) throw new Error(`crawl run ${runId} is not in the list of ${CRAWL_LOAD_WEBSITE}`);
  return run;
}

async function waitForRun(
  client: Client,
  runId: number,
  isWanted: (run: CrawlRun) => boolean,
  what: string,
  timeoutMs = 120_000,
): Promise<CrawlRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await runOf(client, runId);
    if (isWanted(run)) return run;
    if (Date.now() > deadline)
      throw new Error(`crawl run ${runId} was not ${what} within ${timeoutMs / 1000} s (status ${run.status})`);
    await sleep(RUN_POLL_MS);
  }
}

/**
 * `npm run bench -- --only crawl-load`: the dashboard while the service crawls. The overview and a
 * report's first page (caches bypassed) are timed idle, then while a crawl of rust-doc (Debian's, served by nginx on
 * 127.0.0.1) started through the service's crawl-runs calls is `running`, then idle again; the run is cancelled
 * without keeping its pages once enough samples are in. Its figures go to `crawlLoad` in bench/results.json.
 */
async function crawlLoadOnly(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const file = path.join(ROOT, 'bench/results.json');
  const results = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
  ensureDebianPackages([debianPackages.nginx, debianPackages.rustDoc]);
  prepareStore({});
  const added = spawnSync(
    process.execPath,
    [
      ...['--import', 'tsx', 'scripts/admin.ts', 'website', 'add'],
      ...['--id', CRAWL_LOAD_WEBSITE, '--name', 'rust-doc (benchmark)', '--domain', '127.0.0.1'],
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (added.status !== 0 && !/exists/i.test(added.stderr)) throw new Error(`admin website add failed: ${added.stderr}`);
  const started = performance.now();
  const site = await startNginx({ root: RUST_DOC_ROOT });
  const port = await freePort();
  const service = await startService(port);
  try {
    const session = await openSession(port);
    const { client } = session;
    // Before the idle samples: a build without crawl runs is told at once.
    await crawlRunsCall(client, 'get-settings', { websiteId: CRAWL_LOAD_WEBSITE });
    const wanted = new Set(['overview', 'rows: first page, default sort']);
    const cases: PairedCase[] = httpCasesOf(session)
      .httpCases.filter(([name]) => wanted.has(name))
      .map(([name, url, body]) => ({
        name,
        on: [timedPost(client, `/api/technical-health-check${url}`, body, acceptOf(url))],
      }));
    // One backend: each case's samples.
    const samplesOf = (samples: Samples[][]): Samples[] => samples.map((perBackend) => perBackend[0]!);

    const loadIdle = os.loadavg().map(round);
    const idle = samplesOf(await timeRounds(cases, CRAWL_LOAD_SAMPLES, PAIRED_WARM_UP_ROUNDS));
    console.log(`idle: ${CRAWL_LOAD_SAMPLES} requests per case done`);

    const settings = {
      ...defaultCrawlSettings('127.0.0.1'),
      startUrl: `${site.url}index.html`,
      schedule: null,
    };
    await crawlRunsCall(client, 'save-settings', { websiteId: CRAWL_LOAD_WEBSITE, settings });
    const { run } = await crawlRunsCall<{ run: CrawlRun }>(client, 'start', { websiteId: CRAWL_LOAD_WEBSITE });
    // From its first page on: the worker's start (a child process, at the lowest priority) is not the crawl yet.
    const running = await waitForRun(
      client,
      run.id,
      (r) => r.status !== 'queued' && (r.status !== 'running' || r.progress.pagesDone > 0),
      'crawling',
    );
    if (running.status !== 'running')
      throw new Error(`crawl run ${run.id} went ${running.status} before any sample: ${running.reason ?? ''}`);
    const windowStarted = performance.now();
    let lastLook = windowStarted;
    const during = samplesOf(
      await timeRounds(cases, CRAWL_LOAD_SAMPLES, 0, async () => {
        if (performance.now() - lastLook < RUN_LOOK_MS) return false;
        lastLook = performance.now();
        return (await runOf(client, run.id)).status !== 'running';
      }),
    );
    const windowSeconds = round((performance.now() - windowStarted) / 1000);
    const last = await runOf(client, run.id);
    const loadDuringCrawl = os.loadavg().map(round);
    const pagesCrawled = last.progress.pagesDone - running.progress.pagesDone;
    const statusAtWindowEnd = last.status;
    if (ACTIVE_RUN_STATUSES.includes(last.status)) {
      const cancel = { websiteId: CRAWL_LOAD_WEBSITE, runId: run.id, keepCrawled: false };
      // 409: the run ended (loaded) since the last look.
      const response = await client.send('/api/crawl-runs/cancel', cancel);
      if (!response.ok && response.status !== 409)
        throw new Error(`/api/crawl-runs/cancel → ${response.status}: ${await response.text()}`);
    }
    const ended = await waitForRun(client, run.id, (r) => !ACTIVE_RUN_STATUSES.includes(r.status), 'ended');
    console.log(
      `during the crawl: ${during[0]!.client.length} requests per case in ${windowSeconds} s, ${pagesCrawled} pages crawled; run ${ended.status}`,
    );

    const loadAfter = os.loadavg().map(round);
    const after = samplesOf(await timeRounds(cases, Math.ceil(CRAWL_LOAD_SAMPLES / 2), 0));
    results.crawlLoad = {
      urls: URLS,
      crawls: CRAWLS,
      at: new Date().toISOString(),
      cores: os.cpus().length,
      seconds: round((performance.now() - started) / 1000),
      site: 'rust-doc',
      settings: { startUrl: settings.startUrl, concurrency: settings.concurrency, delayMs: settings.delayMs },
      thinkMs: PAIRED_THINK_MS,
      goal: CRAWL_LOAD_GOAL,
      loadAverage: { idle: loadIdle, duringCrawl: loadDuringCrawl, after: loadAfter },
      window: {
        seconds: windowSeconds,
        pagesCrawled,
        pagesPerSecond: round(pagesCrawled / windowSeconds),
        statusAtEnd: statusAtWindowEnd,
        runOutcome: ended.status,
      },
      perCase: cases.map((c, i) => {
        return {
          name: c.name,
          idle: stats(idle[i]!.client),
          duringCrawl: stats(during[i]!.client),
          idleAfter: stats(after[i]!.client),
          ...compare(idle[i]!.client, during[i]!.client),
          /** Inside the service, to the first byte (Server-Timing). */
          server: { idle: stats(idle[i]!.server), duringCrawl: stats(during[i]!.server) },
        };
      }),
    };
    fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
    console.log(crawlLoadTable(results.crawlLoad as CrawlLoadResult));
  } finally {
    await stopService(service);
    await site.stop();
  }
}

type CrawlLoadResult = {
  seconds: number;
  goal: number;
  thinkMs: readonly number[];
  loadAverage: Record<'idle' | 'duringCrawl' | 'after', number[]>;
  window: { seconds: number; pagesCrawled: number; pagesPerSecond: number; statusAtEnd: string; runOutcome: string };
  perCase: ({
    name: string;
    idle: Stats;
    duringCrawl: Stats;
    idleAfter: Stats;
    server: Record<'idle' | 'duringCrawl', Stats>;
  } & Comparison)[];
};

function crawlLoadTable(r: CrawlLoadResult): string {
  return [
    `The dashboard during a crawl of rust-doc by the service (pauses ${r.thinkMs.join('–')} ms; goal p95 ≤ ${r.goal}× idle):`,
    '',
    '| case | idle p50 ms | idle p95 ms | during crawl p50 ms | during crawl p95 ms | during ÷ idle, p50 (95% interval) | p95 (95% interval) | idle again p95 ms | in service p95 ms, idle → during |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.perCase.map(
      (c) =>
        `| ${c.name} | ${c.idle.p50} | ${c.idle.p95} | ${c.duringCrawl.p50} | ${c.duringCrawl.p95} | ${ratios(c)} | ${c.idleAfter.p95} | ${c.server.idle.p95} → ${c.server.duringCrawl.p95} |`,
    ),
    '',
    `${r.window.pagesCrawled} pages crawled in the ${r.window.seconds} s window, ${r.window.pagesPerSecond} pages/s (run ${r.window.statusAtEnd} at its end, then ${r.window.runOutcome}); ${r.seconds} s in all`,
    `load average idle ${r.loadAverage.idle.join(', ')}, during the crawl ${r.loadAverage.duringCrawl.join(', ')}, after ${r.loadAverage.after.join(', ')}`,
  ].join('\n');
}

interface ColumnarCase {
  name: string;
  accept: string;
  isCached: boolean;
  /** Each run asks for a page at an offset not asked for before (a page turn), not the same page again. */
  isNewPage: boolean;
  bytes: number;
  /** As the client waits it, the body read. */
  client: Stats;
  /** Inside the service, to the first byte (Server-Timing). */
  server: Stats;
}

/**
 * A 100-row page and a 1000-row chunk as Arrow (what the dashboard asks for) and as JSON (API users), each with a
 * fresh query (skipCache) of the same page, a fresh query at a new offset each run (a page turn: DuckDB parses and plans
 * its text anew, where the same page runs a kept statement) and from the engine's result cache, where only encoding
 * the answer remains.
 */
async function columnarRows(session: Session): Promise<{
  urls: number;
  crawls: number;
  runs: number;
  at: string;
  cases: ColumnarCase[];
  raw: RawPageQuery[];
}> {
  const { client, urlReport, rowsOf } = session;
  const out: ColumnarCase[] = [];
  for (const [name, limit] of [
    [ROWS_PAGE_100, 100],
    [CSV_CHUNK_1000, 1000],
  ] as const)
    for (const accept of [ARROW_STREAM_TYPE, 'application/json'])
      for (const [isCached, isNewPage] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const) {
        const body = rowsOf(urlReport, { limit, skipCache: !isCached });
        const samples: { client: number[]; server: number[] } = { client: [], server: [] };
        let bytes = 0;
        const { total } = await client.post('/api/technical-health-check/report/get-rows', body, accept);
        const offsets = newPageOffsets(total, limit);
        for (let i = 0; i < RUNS; i++) {
          const asked = isNewPage ? { ...body, offset: offsets[i]! } : body;
          const answer = await client.post('/api/technical-health-check/report/get-rows', asked, accept);
          samples.client.push(answer.ms);
          samples.server.push(answer.serverMs);
          bytes = answer.bytes;
        }
        const result = {
          name,
          accept,
          isCached,
          isNewPage,
          bytes,
          client: stats(samples.client),
          server: stats(samples.server),
        };
        out.push(result);
        console.log(
          `${name} as ${accept}${isCached ? ', cached' : isNewPage ? ', new page' : ''}: client p50 ${result.client.p50} ms, service p50 ${result.server.p50} ms, ${bytes} B`,
        );
      }
  const raw = await rawPageQueries(session.urlReport);
  // The store's scale travels with the figures: this section may run on a smaller store than the rest.
  return { urls: URLS, crawls: CRAWLS, runs: RUNS, at: new Date().toISOString(), cases: out, raw };
}

/**
 * The offsets of the new-page runs, for the service and the raw baseline alike: spread over the whole tab, none of
 * them 0 (asked for first) or asked for twice.
 */
function newPageOffsets(total: number, limit: number): number[] {
  const stride = Math.max(1, Math.floor((total - limit) / (RUNS + 1)));
  return Array.from({ length: RUNS }, (_, i) => (i + 1) * stride);
}

interface RawPageQuery {
  name: string;
  /** The first page's text run again, parsed and planned each time. */
  query: Stats;
  /** The first page's execution alone, from a statement prepared once. */
  execute: Stats;
  /** Each run a page at a new offset, as the new-page case asks for them. */
  newPage: Stats;
}

/**
 * The floor under the fresh cases: the same page queries run by DuckDB in this process on the store (attached
 * read-only beside the service), parsed and planned each time as the service does, and the first page's execution
 * alone from a statement prepared once.
 */
async function rawPageQueries(report: ReportDefinition): Promise<RawPageQuery[]> {
  const { CrawlRegistry } = await import('../service/store/registry.ts');
  const { ReportEngine, tabRequest } = await import('../service/engine/engine.ts');
  const { compileRows } = await import('../service/engine/compile.ts');
  const db = await openDatabase();
  const registry = await CrawlRegistry.open(dataDir, db);
  const engine = new ReportEngine(db, registry);
  try {
    const [current, previous] = registry.crawls(SITE);
    if (!current) throw new Error('no crawl to query');
    const target = await engine.target(current);
    const comparison = previous ? await engine.target(previous) : undefined;
    const out: RawPageQuery[] = [];
    for (const [name, limit] of [
      [ROWS_PAGE_100, 100],
      [CSV_CHUNK_1000, 1000],
    ] as const) {
      const pageAt = (offset: number) => {
        const compiled = compileRows({ ...tabRequest(report, target, comparison, 'all'), limit, offset });
        const page = compiled.page(compiled.knownTotal ?? Number.MAX_SAFE_INTEGER);
        if (!page || page.params.length > 0) throw new Error(`the ${name} query is not a plain range read`);
        return { page, total: compiled.knownTotal ?? 0 };
      };
      const { page, total } = pageAt(0);
      const newPages = newPageOffsets(total, limit).map((offset) => pageAt(offset).page.sql);
      const result = await withConnection(db, async (conn) => {
        const prepared = await conn.prepare(page.sql);
        const timed = (run: () => Promise<unknown>) =>
          measure(RUNS, async () => {
            const started = performance.now();
            await run();
            return performance.now() - started;
          });
        try {
          const query = await timed(() => conn.run(page.sql));
          const execute = await timed(() => prepared.run());
          let next = 0;
          const newPage = await timed(() => conn.run(newPages[next++ % newPages.length]!));
          return { name, query, execute, newPage };
        } finally {
          prepared.destroySync();
        }
      });
      console.log(
        `${name}, raw DuckDB: query p50 ${result.query.p50} ms, execution alone p50 ${result.execute.p50} ms, new page p50 ${result.newPage.p50} ms`,
      );
      out.push(result);
    }
    return out;
  } finally {
    engine.dispose();
    db.closeSync();
  }
}

/** `npm run bench -- --only rows`: the columnar section alone, its figures replacing that part of the results. */
async function rowsOnly(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const file = path.join(ROOT, 'bench/results.json');
  const results = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
  prepareStore({});
  const port = await freePort();
  const service = await startService(port);
  try {
    results.columnar = await columnarRows(await openSession(port));
  } finally {
    service.kill('SIGTERM');
  }
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}

/** `npm run bench -- --only crawl`: the crawl section alone, its figures replacing the crawl part of the results. */
async function crawlOnly(): Promise<void> {
  const file = path.join(ROOT, 'bench/results.json');
  const results = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
  const previous = results.crawl as CrawlBenchResult | undefined;
  const crawl = await benchCrawl();
  // Sites left out of this run (BENCH_CRAWL_SITES) keep their rows of the previous run.
  const sites = new Set(crawl.rows.map((r) => r.site));
  crawl.rows = [...(previous?.rows ?? []).filter((r) => !sites.has(r.site)), ...crawl.rows];
  results.crawl = crawl;
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  const table = crawlTable(crawl);
  console.log(table);
  const md = path.join(ROOT, 'bench/results.md');
  const before = fs.existsSync(md) ? fs.readFileSync(md, 'utf8').split(CRAWL_HEADING)[0]!.trimEnd() : '';
  fs.writeFileSync(md, `${before}\n\n${table}\n`.trimStart());
}

/** The server-side export: the whole report as one streamed CSV response, three times (the first may be cold). */
async function streamingExport(
  client: Client,
  body: object,
): Promise<{ rows: number; bytes: number; seconds: number[]; rowsPerSecond: number[] }> {
  const seconds: number[] = [];
  let rows = 0;
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await client.send('/api/technical-health-check/report/export-csv', body);
    if (!response.ok || !response.body) throw new Error(`export-csv → ${response.status}: ${await response.text()}`);
    rows = Number(response.headers.get('x-total-count'));
    bytes = 0;
    let newlines = 0;
    for await (const chunk of response.body) {
      const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      bytes += buffer.byteLength;
      for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) newlines++;
    }
    seconds.push((performance.now() - started) / 1000);
    // The header line plus one line per row, as the generator's values hold no line breaks.
    if (newlines !== rows + 1) console.warn(`export-csv wrote ${newlines} lines for ${rows} rows`);
  }
  return {
    rows,
    bytes,
    seconds: seconds.map((x) => Math.round(x * 100) / 100),
    rowsPerSecond: seconds.map((x) => Math.round(rows / x)),
  };
}

/** The dashboard's CSV path: 1000-row chunks, each continuing from the previous chunk's cursor. */
async function exportByChunks(
  client: Client,
  body: object,
  wanted: number,
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  let after: string[] | null = null;
  while (rows < wanted) {
    const chunk: { rows: unknown[]; nextCursor: string[] | null } = await client.json(
      '/api/technical-health-check/report/get-rows',
      { ...body, after },
    );
    rows += chunk.rows.length;
    after = chunk.nextCursor;
    if (!after || chunk.rows.length === 0) break;
  }
  return { rows, seconds: round((performance.now() - started) / 1000) };
}

type HttpCase = [name: string, url: string, body: object, target: number | undefined];

interface LoadCase {
  name: string;
  /** As the client waits it. */
  client: Stats;
  /** Inside the service, to the first byte (Server-Timing). */
  server: Stats;
}

/**
 * `users` clients at once, each working through the cases in turn: a request, then a pause drawn uniformly from
 * `think` (a seeded generator, so runs are comparable); clients start staggered, as analysts do not all click in
 * the same millisecond.
 */
async function workload(
  clients: readonly Client[],
  httpCases: readonly HttpCase[],
  users: number,
  perUser: number,
  think: readonly [number, number],
): Promise<{
  users: number;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  /** Every request's time as the client waits it, over all cases. */
  all: Stats;
  perCase: LoadCase[];
}> {
  const started = performance.now();
  let sent = 0;
  const samples = new Map<string, { client: number[]; server: number[] }>();
  let errors = 0;
  const random = seededRandom(20261121);
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      await sleep(random() * think[1]);
      for (let i = 0; i < perUser; i++) {
        const [name, url, body] = httpCases[(user + i) % httpCases.length]!;
        // Round robin over the replicas, as a load balancer sends them.
        const client = clients[sent++ % clients.length]!;
        try {
          const { ms, serverMs } = await client.post(`/api/technical-health-check${url}`, body, acceptOf(url));
          const into = samples.get(name) ?? { client: [], server: [] };
          into.client.push(ms);
          into.server.push(serverMs);
          samples.set(name, into);
        } catch {
          errors++;
        }
        await sleep(think[0] + random() * (think[1] - think[0]));
      }
    }),
  );
  const perCase = httpCases.flatMap(([name]) => {
    const s = samples.get(name);
    return s ? [{ name, client: stats(s.client), server: stats(s.server) }] : [];
  });
  const requests = users * perUser;
  return {
    users,
    requests,
    errors,
    requestsPerSecond: round(requests / ((performance.now() - started) / 1000)),
    all: stats([...samples.values()].flatMap((s) => s.client)),
    perCase,
  };
}

/**
 * Eight analysts at once against one analyst working the same way (the same cases in turn, the same 0.5–1.5 s
 * pauses to read each answer), so that the ratio measures what concurrency costs: after a pause the machine has gone
 * idle, which alone makes a request slower than in a back-to-back loop, so both ratios are reported. The same mix
 * without pauses (eight clients firing back to back) measures CPU saturation, not what an analyst waits, and is
 * reported apart.
 */
async function concurrent(
  client: Client,
  httpCases: readonly HttpCase[],
  backToBack: Map<string, Stats>,
): Promise<object> {
  const one = await workload([client], httpCases, 1, RUNS * httpCases.length, THINK_MS);
  const eight = await workload([client], httpCases, 8, Math.ceil((2 * RUNS * httpCases.length) / 8), THINK_MS);
  const saturated = await workload([client], httpCases, 8, Math.max(12, Math.ceil(RUNS / 2)), [0, 0]);
  const perCase = eight.perCase.map((c) => {
    const alone = one.perCase.find((o) => o.name === c.name);
    const loop = backToBack.get(c.name);
    return {
      name: c.name,
      oneAnalyst: alone,
      eightAnalysts: c,
      ratioToOneAnalyst: alone ? round(c.client.p95 / alone.client.p95) : null,
      ratioToBackToBack: loop ? round(c.client.p95 / loop.p95) : null,
    };
  });
  console.log(
    `8 concurrent analysts (think ${THINK_MS.join('–')} ms): ${eight.errors} errors (one analyst: ${one.errors})`,
  );
  for (const c of perCase)
    console.log(
      `  ${c.name}: p95 ${c.eightAnalysts.client.p95} ms, ${c.ratioToOneAnalyst}× one analyst, ${c.ratioToBackToBack}× back-to-back`,
    );
  console.log(`8 clients without pauses: ${saturated.errors} errors`);
  const withoutPauses = saturated.perCase.map((c) => {
    const loop = backToBack.get(c.name);
    return { ...c, ratioToBackToBack: loop ? round(c.client.p95 / loop.p95) : null };
  });
  for (const c of withoutPauses)
    console.log(`  ${c.name}: p95 ${c.client.p95} ms, ${c.ratioToBackToBack}× back-to-back`);
  return {
    thinkMs: THINK_MS,
    oneAnalyst: { requests: one.requests, errors: one.errors },
    eightAnalysts: { requests: eight.requests, errors: eight.errors },
    perCase,
    withoutPauses: { requests: saturated.requests, errors: saturated.errors, perCase: withoutPauses },
  };
}

const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';

/** Rows travel as Arrow, as the dashboard asks for them; the other calls answer JSON. */
const acceptOf = (url: string): string | undefined => (url.endsWith('rows') ? ARROW_STREAM_TYPE : undefined);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What DuckDB's own CSV writer does with the streamed export's report (filled by `baselines`). */
const naiveExport: { rows?: number; columns?: number; rowsPerSecond?: number } = {};

async function baselines(
  cases: CaseResult[],
  urlReport: ReportDefinition,
  linkReport: ReportDefinition,
  sortColumn: string,
  linkSort: string,
  lastOffset: number,
  middleOffset: number,
  crawlDirs: string[],
): Promise<void> {
  const currentDir = crawlDirs.at(-1)!;
  const previousDir = crawlDirs.at(-2)!;
  const file = (dir: string, table: string): string => `read_parquet('${path.join(dir, parquetFileOf(table))}')`;
  const key = (r: ReportDefinition): string => r.keyColumns.join(', ');
  const page = (r: ReportDefinition, dir: string, order: string, offset: number, limit = 10, extra = 'TRUE'): string =>
    `SELECT * FROM ${file(dir, r.tableId)} WHERE (${naiveFilter(r)}) AND ${extra} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  const counts = catalog.reports
    .filter((r) => !/\b(gsc|ga)_/.test(r.filter))
    .map((r) => `(SELECT count(*) FROM ${file(currentDir, r.tableId)} WHERE ${naiveFilter(r)})`)
    .join(', ');
  const added = (r: ReportDefinition, from: string, against: string): string =>
    `SELECT * FROM ${file(from, r.tableId)} a WHERE (${naiveFilter(r)}) AND NOT EXISTS (SELECT 1 FROM ${file(against, r.tableId)} b WHERE ${r.keyColumns
      .map((k) => `b.${k} = a.${k}`)
      .join(
        ' AND ',
      )} AND (${naiveFilter(r).replace(/\b([a-z_]+)\b/g, (w) => (r.keyColumns.includes(w) ? `b.${w}` : w))})) ORDER BY ${r.keyColumns.map((k) => `a.${k}`).join(', ')} LIMIT 10`;
  const naive: Record<string, string> = {
    overview: `SELECT ${counts}`,
    summary: `SELECT count(*) FROM ${file(currentDir, urlReport.tableId)} WHERE ${naiveFilter(urlReport)}`,
    'rows: first page, default sort': page(urlReport, currentDir, key(urlReport), 0),
    [`rows: first page, sort ${sortColumn} desc`]: page(
      urlReport,
      currentDir,
      `${sortColumn} DESC, ${key(urlReport)}`,
      0,
    ),
    'rows: last page, default sort': page(urlReport, currentDir, key(urlReport), lastOffset),
    [`rows: middle page, sort ${sortColumn}`]: page(
      urlReport,
      currentDir,
      `${sortColumn}, ${key(urlReport)}`,
      middleOffset,
    ),
    'rows: Added tab': added(urlReport, currentDir, previousDir),
    'rows: Removed tab': added(urlReport, previousDir, currentDir),
    'links report: first page': page(linkReport, currentDir, key(linkReport), 0),
    [`links report: sort ${linkSort}`]: page(linkReport, currentDir, `${linkSort} DESC, ${key(linkReport)}`, 0),
    "rows: 'URLs containing' filter": page(urlReport, currentDir, key(urlReport), 0, 10, `url ILIKE '%product%'`),
    [ROWS_PAGE_100]: page(urlReport, currentDir, key(urlReport), 0, 100),
    [CSV_CHUNK_1000]: page(urlReport, currentDir, key(urlReport), 0, 1000),
  };
  const db = await openDatabase();
  await withConnection(db, async (conn) => {
    for (const result of cases) {
      const sql = naive[result.name] ?? naive[result.name.replace(/sort \w+$/, '')];
      if (!sql) continue;
      result.baseline = await measure(BASELINE_RUNS, async () => {
        const started = performance.now();
        await conn.run(sql);
        return performance.now() - started;
      });
      result.ratio = round(result.baseline.p50 / result.service.p50);
    }
    // DuckDB writing the same report's CSV itself: its columns that the export file holds, in key order.
    const held = new Set(
      (await conn.runAndReadAll(`SELECT * FROM ${file(currentDir, urlReport.tableId)} LIMIT 0`)).columnNames(),
    );
    const columns = exportColumns(urlReport)
      .map((c) => c.id)
      .filter((id) => held.has(id));
    const out = path.join(BENCH_DIR, 'naive-export.csv');
    const copy = `COPY (SELECT ${columns.join(', ')} FROM ${file(currentDir, urlReport.tableId)} WHERE ${naiveFilter(urlReport)} ORDER BY ${key(urlReport)}) TO '${out}' (HEADER)`;
    const rows = Number((await conn.runAndReadAll(copy)).getRowsJS()[0]?.[0] ?? 0);
    const copied = await measure(3, async () => {
      const started = performance.now();
      await conn.run(copy);
      return performance.now() - started;
    });
    fs.rmSync(out, { force: true });
    naiveExport.rows = rows;
    naiveExport.columns = columns.length;
    naiveExport.rowsPerSecond = Math.round(rows / (copied.p50 / 1000));
  });
}

interface ConcurrencyCase {
  name: string;
  oneAnalyst?: LoadCase;
  eightAnalysts: LoadCase;
  ratioToOneAnalyst: number | null;
  ratioToBackToBack: number | null;
}

function printTable(cases: CaseResult[], results: Record<string, unknown>): void {
  const lines = [
    '| case | service p50 ms | service p95 ms | target p95 ms | naive DuckDB p50 ms | naive ÷ service (p50) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...cases.map(
      (c) =>
        `| ${c.name} | ${c.service.p50} | ${c.service.p95} | ${c.target ?? '–'} | ${c.baseline?.p50 ?? '–'} | ${c.ratio ?? '–'} |`,
    ),
  ];
  const concurrency = (results.concurrency as { perCase: ConcurrencyCase[] } | undefined)?.perCase ?? [];
  const loop = new Map(cases.map((c) => [c.name, c.service]));
  const under = [
    '| case | back-to-back p95 ms | one analyst p95 ms | 8 analysts p95 ms | 8 ÷ one analyst | 8 ÷ back-to-back | in service p95 ms, one → 8 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...concurrency.map(
      (c) =>
        `| ${c.name} | ${loop.get(c.name)?.p95 ?? '–'} | ${c.oneAnalyst?.client.p95 ?? '–'} | ${c.eightAnalysts.client.p95} | ${c.ratioToOneAnalyst ?? '–'} | ${c.ratioToBackToBack ?? '–'} | ${c.oneAnalyst?.server.p95 ?? '–'} → ${c.eightAnalysts.server.p95} |`,
    ),
  ];
  const crawl = results.crawl as CrawlBenchResult | undefined;
  const text = [...lines, '', ...under, ...(crawl ? ['', crawlTable(crawl)] : [])].join('\n');
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
  fs.writeFileSync(path.join(ROOT, 'bench/results.md'), text + '\n');
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const sections: Record<string, () => Promise<void>> = {
  crawl: crawlOnly,
  rows: rowsOnly,
  replicas: replicasOnly,
  'crawl-load': crawlLoadOnly,
};
if (only !== undefined && !sections[only]) {
  console.error(`--only takes one section: ${Object.keys(sections).join(' or ')} (got ${only ?? 'nothing'})`);
  process.exit(2);
}
(only === undefined ? main() : sections[only]!()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
