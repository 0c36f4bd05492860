/**
 * The crawl section of `npm run bench`, also alone with `npm run bench -- --only crawl`: our crawler (`npm run
 * crawl`, a child process under GNU time for its peak RSS) beside `wget --spider -r` and linkchecker on the same
 * sites in the same run, so the machine's load weighs on all alike: Debian's Apache manual and rust-doc served by nginx on 127.0.0.1, and a generated
 * site of BENCH_CRAWL_PAGES pages (default 200,000) served by this process. linkchecker checks ~30 URLs/s, so it
 * runs on the Apache manual only. `--render` is timed as the extra seconds of rendering BENCH_CRAWL_RENDER pages
 * of the Apache manual. The crawler runs with --skip-external: traffic stays on 127.0.0.1, as wget's does (no -H).
 * A client-rendered site is crawled with `--render-mode none` and `all` (crawl-render.ts).
 * BENCH_CRAWL_SITES (apache,rust,generated,rendered) picks sites. BENCH_CRAWL_BEFORE names another checkout (an older commit,
 * its node_modules linked) whose crawler runs on each site too, alternating with ours BENCH_CRAWL_ROUNDS times, so a
 * change's cost is measured side by side under the same load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { runLinkchecker, runWgetSpider } from '../../scripts/support/real-site-oracles.ts';
import { APACHE_MANUAL_ROOT, RUST_DOC_ROOT, startNginx } from '../../scripts/support/real-site.ts';
import { readResults, RESULTS_MD, writeResults } from '../support/config.ts';
import { crawlerRun, row, type CrawlBenchRow } from '../support/crawler-run.ts';
import { serveGenerated } from '../support/generated-site.ts';
import { benchRenderedCrawl } from './crawl-render.ts';
import { round } from '../support/stats.ts';

const GENERATED_PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 200_000);
const RENDER_PAGES = Number(process.env.BENCH_CRAWL_RENDER ?? 200);
const SITES = (process.env.BENCH_CRAWL_SITES ?? 'apache,rust,generated,rendered').split(',');
const BEFORE = process.env.BENCH_CRAWL_BEFORE ? path.resolve(process.env.BENCH_CRAWL_BEFORE) : undefined;
const ROUNDS = BEFORE ? Math.max(1, Number(process.env.BENCH_CRAWL_ROUNDS ?? 2)) : 1;

export interface CrawlBenchResult {
  startedAt: string;
  cpus: number;
  loadAverage: number[];
  rows: CrawlBenchRow[];
}

async function wgetRun(site: string, url: string): Promise<CrawlBenchRow> {
  const wget = await runWgetSpider(url);
  return row(site, 'wget --spider', wget.pages.size, wget.seconds, wget.peakRssMb, 'HEAD then GET for each HTML page');
}

export async function benchCrawl(): Promise<CrawlBenchResult> {
  ensureDebianPackages([
    debianPackages.nginx,
    debianPackages.apacheManual,
    debianPackages.rustDoc,
    debianPackages.wget,
    debianPackages.linkchecker,
  ]);
  const result: CrawlBenchResult = {
    startedAt: new Date().toISOString(),
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => round(l)),
    rows: [],
  };
  const add = (r: CrawlBenchRow): void => {
    result.rows.push(r);
    console.log(
      `crawl bench: ${r.site} ${r.tool}: ${r.urls} URLs in ${r.seconds} s, ${r.urlsPerSecond}/s, ${r.peakRssMb} MB`,
    );
  };

  /** Ours, and the older checkout's crawler alternating with it when one is named. */
  const crawlers = async (site: string, url: string): Promise<CrawlBenchRow & { crawlerSeconds: number }> => {
    let ours: CrawlBenchRow & { crawlerSeconds: number } = await crawlerRun(site, url);
    add(ours);
    for (let round = 0; BEFORE && round < ROUNDS; round++) {
      add(await crawlerRun(site, url, [], BEFORE));
      if (round < ROUNDS - 1) add((ours = await crawlerRun(site, url)));
    }
    return ours;
  };

  if (SITES.includes('apache')) {
    const site = await startNginx({ root: APACHE_MANUAL_ROOT });
    try {
      const plain = await crawlers('Apache manual', site.url);
      add(await wgetRun('Apache manual', site.url));
      if (RENDER_PAGES > 0) {
        const rendered = await crawlerRun('Apache manual', site.url, ['--render', String(RENDER_PAGES)]);
        const extra = rendered.crawlerSeconds - plain.crawlerSeconds;
        add({
          ...rendered,
          note: `${RENDER_PAGES} pages rendered in ${round(extra)} extra s: ${round(RENDER_PAGES / extra)} rendered pages/s`,
        });
      }
      const linkchecker = await runLinkchecker(site.url, { fresh: true });
      add(row('Apache manual', 'linkchecker', linkchecker.urlsChecked, linkchecker.seconds, linkchecker.peakRssMb));
    } finally {
      await site.stop();
    }
  }
  if (SITES.includes('rust')) {
    const site = await startNginx({ root: RUST_DOC_ROOT });
    try {
      await crawlers('rust-doc', `${site.url}index.html`);
      add(await wgetRun('rust-doc', `${site.url}index.html`));
    } finally {
      await site.stop();
    }
  }
  if (SITES.includes('generated')) {
    const site = await serveGenerated(GENERATED_PAGES);
    const name = `generated ${GENERATED_PAGES.toLocaleString('en-GB')}`;
    try {
      await crawlers(name, site.url);
      add(await wgetRun(name, site.url));
    } finally {
      await site.close();
    }
  }
  if (SITES.includes('rendered')) await benchRenderedCrawl(add);
  return result;
}

/** The first words of the crawl table in bench/results.md. */
const CRAWL_HEADING = 'Crawl (';

/** A figure, or a dash where a failed run has none (NaN, or null once read back from JSON). */
const shown = (n: number | null): string => (n === null || !Number.isFinite(n) ? '–' : String(n));

export function crawlTable(result: CrawlBenchResult): string {
  return [
    `${CRAWL_HEADING}${result.cpus} CPUs, load average ${result.loadAverage.join(' ')} at the start)`,
    '',
    '| site | tool | URLs | seconds | URLs/s | peak RSS MB | note |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...result.rows.map(
      (r) =>
        `| ${r.site} | ${r.tool} | ${shown(r.urls)} | ${r.seconds} | ${shown(r.urlsPerSecond)} | ${r.peakRssMb} | ${r.note ?? ''} |`,
    ),
  ].join('\n');
}

/** `npm run bench -- --only crawl`: the crawl section alone, its figures replacing the crawl part of the results. */
export async function crawlOnly(): Promise<void> {
  const results = readResults();
  const previous = results.crawl as CrawlBenchResult | undefined;
  const crawl = await benchCrawl();
  // Sites left out of this run (BENCH_CRAWL_SITES) keep their rows of the previous run.
  const sites = new Set(crawl.rows.map((r) => r.site));
  crawl.rows = [...(previous?.rows ?? []).filter((r) => !sites.has(r.site)), ...crawl.rows];
  results.crawl = crawl;
  writeResults(results);
  const table = crawlTable(crawl);
  console.log(table);
  const before = fs.existsSync(RESULTS_MD)
    ? fs.readFileSync(RESULTS_MD, 'utf8').split(CRAWL_HEADING)[0]!.trimEnd()
    : '';
  fs.writeFileSync(RESULTS_MD, `${before}\n\n${table}\n`.trimStart());
}
