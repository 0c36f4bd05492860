/**
 * The scale section (`npm run bench -- --only scale`): the same figures at growing sizes, so that the cost's growth
 * is seen. For each of BENCH_SCALE_SIZES (default 1,000,000, 3,000,000 and 10,000,000 URLs) a child process
 * generates two crawls of the benchmark site, loads them with precompute (time, peak RSS, the store's size on disk),
 * starts the service and times the dashboard's calls with one analyst and with eight at once, and streams the largest
 * URL report as CSV. Then our crawler crawls the generated site of BENCH_SCALE_CRAWL pages (default the largest
 * size) with the defaults (peak RSS, disk use, URLs/s), beside `wget --spider` on its first 200,000 pages; a crawl
 * interrupted with Ctrl-C after BENCH_SCALE_INTERRUPT_S seconds must still write an export that loads.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { runWgetSpider } from '../../scripts/support/real-site-oracles.ts';
import { measureCalls } from './calls.ts';
import { concurrent } from './concurrency.ts';
import { streamingExport } from './exports.ts';
import { BENCH_DIR, dataDir, readResults, ROOT, URLS, writeResults } from '../support/config.ts';
import { crawlerRun, type CrawlBenchRow } from '../support/crawler-run.ts';
import { serveGenerated } from '../support/generated-site.ts';
import { freePort } from '../../scripts/support/free-port.ts';
import { rssMb, startService, stopService } from '../support/service.ts';
import { httpCasesOf, openSession } from '../support/session.ts';
import { round } from '../support/stats.ts';
import { prepareStore } from '../support/store.ts';

// Empty: no size is measured now (the crawl alone, say); the sizes measured before keep their columns.
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000000,3000000,10000000').split(',').filter(Boolean).map(Number);
const CRAWL_PAGES = Number(process.env.BENCH_SCALE_CRAWL ?? Math.max(0, ...SIZES));
const WGET_PAGES = Math.min(200_000, CRAWL_PAGES);
const INTERRUPT_S = Number(process.env.BENCH_SCALE_INTERRUPT_S ?? 60);
/** The targets: every call's p95, a load, and the crawl's and the load's peak memory. */
const CALL_P95_MS = 250;
const LOAD_MINUTES = 15;
const LOAD_RSS_MB = 6 * 1024;
const CRAWL_RSS_MB = 2 * 1024;
const CSV_ROWS_PER_S = 300_000;

/** One size's figures, as its child process writes them. */
export interface ScaleSize {
  urls: number;
  /** When the child wrote these figures (ISO); a column kept from an earlier run says when it ran. */
  measuredAt?: string;
  loadAverage: number[];
  generate?: { seconds: number; peakRssMb: number };
  loads: { crawl: string; seconds: number; peakRssMb: number }[];
  storeMb: number;
  calls: { name: string; p50: number; p95: number }[];
  eightAnalysts: { name: string; p95: number }[];
  streamingCsv: { rows: number; rowsPerSecond: number[] };
  serviceRssMb: { rss: number; hwm: number };
  /** CPU seconds (user + system): of preparing the store (generation, loads, refresh), and of the service. */
  cpuSeconds?: { store: number; service: number };
}

interface ScaleCrawl {
  pages: number;
  measuredAt?: string;
  crawler: CrawlBenchRow & { peakDiskMb: number; exportMb: number };
  /** The crawl's export loaded with precompute into a store of its own. */
  load?: { seconds: number; peakRssMb: number; storeMb: number; ok: boolean; line: string };
  wget: { pages: number; crawler: CrawlBenchRow; wget: CrawlBenchRow };
  interrupted: { afterSeconds: number; urls: number; loads: boolean; reason: string };
}

const sizeFile = (urls: number): string => path.join(BENCH_DIR, `scale-${urls}.json`);

/** Bytes under a folder, in MB (0 when it is gone). */
export function folderMb(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  return Math.round(Number(/^(\d+)/.exec(du.stdout)?.[1] ?? 0) / 1024);
}

/** User + system CPU seconds of a process (`self` for this one) and, with `children`, of its waited-for children. */
function cpuSecondsOf(pid: number | 'self', children: boolean): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = (i: number): number => Number(fields[i - 3]);
  // Fields 14-17 of stat(5): utime, stime, cutime, cstime, in clock ticks (100 a second on Linux).
  return round((children ? ticks(16) + ticks(17) : ticks(14) + ticks(15)) / 100);
}

/** The child's part (`--only scale-size`, BENCH_URLS and BENCH_CRAWLS=2 set by the parent): one size's figures. */
export async function scaleSizeOnly(): Promise<void> {
  fs.mkdirSync(BENCH_DIR, { recursive: true });
  const figures: Record<string, unknown> = {};
  const loads = prepareStore(figures) as ScaleSize['loads'];
  const storeCpu = cpuSecondsOf('self', true);
  const port = await freePort();
  const service = await startService(port);
  try {
    const session = await openSession(port);
    const { httpCases } = httpCasesOf(session);
    const { cases, timings } = await measureCalls(session.client, httpCases);
    const concurrency = (await concurrent(session.client, httpCases, timings)) as {
      perCase: { name: string; eightAnalysts: { client: { p95: number } } }[];
    };
    const csv = await streamingExport(session.client, {
      ...session.base,
      reportId: session.urlReport.id,
      tableId: session.urlReport.tableId,
    });
    const result: ScaleSize = {
      urls: URLS,
      measuredAt: new Date().toISOString(),
      loadAverage: os.loadavg().map((l) => round(l)),
      ...(figures.generate ? { generate: figures.generate as ScaleSize['generate'] } : {}),
      loads,
      storeMb: folderMb(dataDir),
      calls: cases.map((c) => ({ name: c.name, p50: c.service.p50, p95: c.service.p95 })),
      eightAnalysts: concurrency.perCase.map((c) => ({ name: c.name, p95: c.eightAnalysts.client.p95 })),
      streamingCsv: { rows: csv.rows, rowsPerSecond: csv.rowsPerSecond },
      serviceRssMb: rssMb(service.pid ?? 0),
      cpuSeconds: { store: storeCpu, service: cpuSecondsOf(service.pid ?? 0, false) },
    };
    fs.writeFileSync(sizeFile(URLS), JSON.stringify(result, null, 2));
  } finally {
    await stopService(service);
  }
}

/** Our crawler on the generated site, with the peak disk use of its export and scratch sampled while it runs. */
async function crawlWithDisk(
  name: string,
  url: string,
  pages: number,
): Promise<{ crawler: ScaleCrawl['crawler']; load: ScaleCrawl['load'] }> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-scale-crawl-'));
  let peakDiskMb = 0;
  let exportMb = 0;
  let load: ScaleCrawl['load'];
  const sampler = setInterval(() => (peakDiskMb = Math.max(peakDiskMb, folderMb(parent))), 10_000);
  try {
    const run = await crawlerRun(name, url, ['--max-urls', String(pages * 2)], ROOT, {
      workDir: parent,
      beforeRemoval: (dir) => {
        exportMb = folderMb(path.join(dir, 'export'));
        clearInterval(sampler);
        load = loadTimed(path.join(dir, 'export'), path.join(parent, 'data'));
      },
    });
    return { crawler: { ...run, peakDiskMb: Math.max(peakDiskMb, exportMb), exportMb }, load };
  } finally {
    clearInterval(sampler);
    fs.rmSync(parent, { recursive: true, force: true });
  }
}

/** `load-crawl` of one export under GNU time into `dataDir`: seconds, peak RSS and the store's size. */
function loadTimed(exportDir: string, dataDir: string): ScaleCrawl['load'] {
  if (!fs.existsSync(exportDir)) return undefined;
  console.log(`scale: loading the crawl's export (${folderMb(exportDir)} MB) …`);
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, '--import', 'tsx', 'scripts/load-crawl.ts', exportDir],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    },
  );
  const output = `${run.stdout}${run.stderr}`;
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(output)?.[1] ?? NaN);
  const lines = output.split('\n');
  const line =
    lines.find((l) => l.startsWith('load-crawl: loaded')) ??
    lines.findLast((l) => l.startsWith('load-crawl:')) ??
    `exit ${run.status}`;
  return {
    seconds: round((performance.now() - started) / 1000),
    peakRssMb: Math.round(kb / 1024),
    storeMb: folderMb(dataDir),
    ok: run.status === 0,
    line,
  };
}

/** A crawl stopped by SIGINT (Ctrl-C) after `seconds`, its export then loaded into a store of its own. */
async function interruptedCrawl(url: string, seconds: number): Promise<ScaleCrawl['interrupted']> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-scale-interrupt-'));
  try {
    const out = path.join(dir, 'export');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/crawl.ts', url, '--out', out, '--website', 'bench-interrupted', '--crawl', '1'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    child.kill('SIGINT');
    const code = await exited;
    const urls = Number(/crawled ([\d,]+) URLs/.exec(output)?.[1]?.replaceAll(',', '') ?? NaN);
    const load = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', out], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(dir, 'data') },
      encoding: 'utf8',
    });
    const last = (text: string): string => text.trim().split('\n').at(-1) ?? '';
    return {
      afterSeconds: seconds,
      urls,
      loads: load.status === 0,
      reason: load.status === 0 ? `crawl exit ${code}; ${last(load.stdout)}` : `load failed: ${last(load.stderr)}`,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function scaleCrawl(): Promise<ScaleCrawl> {
  ensureDebianPackages([debianPackages.wget]);
  const first = await serveGenerated(WGET_PAGES);
  let wget: ScaleCrawl['wget'];
  try {
    const name = `generated ${WGET_PAGES.toLocaleString('en-GB')}`;
    const ours = await crawlerRun(name, first.url);
    const theirs = await runWgetSpider(first.url);
    wget = {
      pages: WGET_PAGES,
      crawler: ours,
      wget: {
        site: name,
        tool: 'wget --spider',
        urls: theirs.pages.size,
        seconds: round(theirs.seconds),
        urlsPerSecond: Math.round(theirs.pages.size / theirs.seconds),
        peakRssMb: theirs.peakRssMb,
      },
    };
  } finally {
    await first.close();
  }
  const site = await serveGenerated(CRAWL_PAGES);
  try {
    const interrupted = await interruptedCrawl(site.url, INTERRUPT_S);
    console.log(`scale: Ctrl-C after ${INTERRUPT_S} s: ${interrupted.urls} URLs, loads: ${interrupted.loads}`);
    const started = performance.now();
    const { crawler, load } = await crawlWithDisk(
      `generated ${CRAWL_PAGES.toLocaleString('en-GB')}`,
      site.url,
      CRAWL_PAGES,
    );
    console.log(
      `scale: crawled ${crawler.urls} URLs in ${round((performance.now() - started) / 1000)} s, ` +
        `peak RSS ${crawler.peakRssMb} MB, peak disk ${crawler.peakDiskMb} MB; load: ${JSON.stringify(load)}`,
    );
    return {
      pages: CRAWL_PAGES,
      measuredAt: new Date().toISOString(),
      crawler,
      wget,
      interrupted,
      ...(load && { load }),
    };
  } finally {
    await site.close();
  }
}

const mark = (isMet: boolean): string => (isMet ? '' : ' ✗');
/** Figures from before sizes and the crawl recorded their time say so. */
const whenOf = (iso: string | undefined): string => (iso ? iso.slice(0, 16).replace('T', ' ') : 'not recorded');
const mb = (n: number): string => (n >= 1024 ? `${round(n / 1024)} GB` : `${n} MB`);

export function scaleTable(sizes: readonly ScaleSize[], crawl: ScaleCrawl | undefined, load: string): string {
  const head = (title: string): string[] => [
    `| ${title} | ${sizes.map((s) => s.urls.toLocaleString('en-GB')).join(' | ')} |`,
    `| --- | ${sizes.map(() => '---:').join(' | ')} |`,
  ];
  const line = (label: string, cell: (s: ScaleSize) => string): string =>
    `| ${label} | ${sizes.map(cell).join(' | ')} |`;
  const callNames = sizes[0]?.calls.map((c) => c.name) ?? [];
  const p95 = (s: ScaleSize, name: string, of: 'calls' | 'eightAnalysts'): string => {
    const found = s[of].find((c) => c.name === name)?.p95;
    return found === undefined ? '–' : `${found}${mark(found <= CALL_P95_MS)}`;
  };
  const lines = [
    `Scale (${os.cpus().length} CPUs; ${load}; ✗ marks a figure outside its target)`,
    '',
    ...head('URLs per crawl'),
    line('measured (UTC)', (s) => whenOf(s.measuredAt)),
    line('generate 2 crawls, s', (s) => String(s.generate?.seconds ?? '(kept)')),
    line(`load with precompute, slower crawl, s (≤ ${LOAD_MINUTES * 60})`, (s) => {
      const worst = Math.max(...s.loads.map((l) => l.seconds));
      return `${worst}${mark(worst <= LOAD_MINUTES * 60)}`;
    }),
    line(`load peak RSS (≤ ${mb(LOAD_RSS_MB)})`, (s) => {
      const worst = Math.max(...s.loads.map((l) => l.peakRssMb));
      return `${mb(worst)}${mark(worst <= LOAD_RSS_MB)}`;
    }),
    line('store on disk, 2 crawls', (s) => mb(s.storeMb)),
    line('service RSS after the calls (peak)', (s) => `${mb(s.serviceRssMb.rss)} (${mb(s.serviceRssMb.hwm)})`),
    line('CPU s: store prepared (generation, loads) / service', (s) =>
      s.cpuSeconds ? `${s.cpuSeconds.store} / ${s.cpuSeconds.service}` : '–',
    ),
    line('load average at the end', (s) => s.loadAverage.join(' ')),
    '',
    ...head(`p95 ms, one analyst (≤ ${CALL_P95_MS})`),
    ...callNames.map((name) => line(name, (s) => p95(s, name, 'calls'))),
    '',
    ...head(`p95 ms, eight analysts at once (≤ ${CALL_P95_MS})`),
    ...callNames.map((name) => line(name, (s) => p95(s, name, 'eightAnalysts'))),
    '',
    ...head(`streamed CSV of the largest URL report (≥ ${CSV_ROWS_PER_S.toLocaleString('en-GB')} rows/s)`),
    line('rows', (s) => s.streamingCsv.rows.toLocaleString('en-GB')),
    line('rows/s (best of 3)', (s) => {
      const best = Math.max(...s.streamingCsv.rowsPerSecond);
      return `${best.toLocaleString('en-GB')}${mark(best >= CSV_ROWS_PER_S)}`;
    }),
  ];
  if (crawl) {
    const c = crawl.crawler;
    lines.push(
      '',
      `Crawl of the generated site of ${crawl.pages.toLocaleString('en-GB')} pages (defaults, --skip-external; measured ${whenOf(crawl.measuredAt)})`,
      '',
      '| tool | URLs | seconds | URLs/s | peak RSS | peak disk | export |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| crawler | ${c.urls} | ${c.seconds} | ${c.urlsPerSecond} | ${mb(c.peakRssMb)}${mark(c.peakRssMb <= CRAWL_RSS_MB)} | ${mb(c.peakDiskMb)} | ${mb(c.exportMb)} |`,
      `| crawler, first ${crawl.wget.pages.toLocaleString('en-GB')} pages | ${crawl.wget.crawler.urls} | ${crawl.wget.crawler.seconds} | ${crawl.wget.crawler.urlsPerSecond} | ${mb(crawl.wget.crawler.peakRssMb)} | | |`,
      `| wget --spider, first ${crawl.wget.pages.toLocaleString('en-GB')} pages | ${crawl.wget.wget.urls} | ${crawl.wget.wget.seconds} | ${crawl.wget.wget.urlsPerSecond} | ${mb(crawl.wget.wget.peakRssMb)} | | |`,
      '',
      ...(crawl.load
        ? [
            `The crawl's export loaded with precompute in ${crawl.load.seconds} s${mark(crawl.load.seconds <= LOAD_MINUTES * 60)}, ` +
              `peak RSS ${mb(crawl.load.peakRssMb)}${mark(crawl.load.peakRssMb <= LOAD_RSS_MB)}, store ${mb(crawl.load.storeMb)} on disk` +
              `${crawl.load.ok ? '' : ' — FAILED'} (${crawl.load.line}).`,
            '',
          ]
        : []),
      `Ctrl-C after ${crawl.interrupted.afterSeconds} s: ${crawl.interrupted.urls} URLs written; the export ` +
        `${crawl.interrupted.loads ? 'loads' : 'does NOT load'} (${crawl.interrupted.reason}).`,
    );
  }
  return lines.join('\n');
}

/** The scale tables have a page of their own: the other sections rewrite bench/results.md. */
const SCALE_MD = path.join(ROOT, 'bench/results-scale.md');

/** `npm run bench -- --only scale`: each size in a child process of its own, then the crawl. */
export async function scaleOnly(): Promise<void> {
  const loadAtStart = `load average ${os
    .loadavg()
    .map((l) => round(l))
    .join(' ')} at the start`;
  // Sizes measured before and not run now keep their column, so the growth stays in one table.
  const earlier = readResults().scale as { sizes?: ScaleSize[]; crawl?: ScaleCrawl } | undefined;
  const sizes: ScaleSize[] = (earlier?.sizes ?? []).filter((s) => !SIZES.includes(s.urls));
  for (const urls of SIZES) {
    console.log(`scale: ${urls.toLocaleString('en-GB')} URLs × 2 crawls …`);
    fs.rmSync(sizeFile(urls), { force: true });
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/main.ts', '--only', 'scale-size'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, BENCH_URLS: String(urls), BENCH_CRAWLS: '2', BENCH_RUNS: process.env.BENCH_RUNS ?? '20' },
    });
    if (child.status !== 0 || !fs.existsSync(sizeFile(urls)))
      throw new Error(`the scale run at ${urls} URLs failed (exit ${child.status}); see its output above`);
    sizes.push(JSON.parse(fs.readFileSync(sizeFile(urls), 'utf8')) as ScaleSize);
  }
  sizes.sort((a, b) => a.urls - b.urls);
  const crawl = CRAWL_PAGES > 0 ? await scaleCrawl() : earlier?.crawl;
  const results = readResults();
  results.scale = { startedAt: new Date().toISOString(), loadAtStart, sizes, crawl };
  writeResults(results);
  const table = scaleTable(sizes, crawl, loadAtStart);
  console.log(table);
  fs.writeFileSync(SCALE_MD, `${table}\n`);
}
