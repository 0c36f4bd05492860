/**
 * The crawl section's rendered site: BENCH_CRAWL_RENDERED_PAGES (default 2,000) pages whose content React renders,
 * served by nginx on 127.0.0.1 (bench/support/rendered-site.ts), crawled with `--render-mode none` and then with
 * `--render-mode all`. Both fetch the same URLs (the shells carry the links), so the ratio of their pages/s is what
 * rendering costs. Beside GNU time's peak RSS (the crawler process), the peak of the crawler and Chromium's processes
 * together is sampled from /proc, and so is the CPU per page of each side (the crawler's node process, Chromium's).
 * BENCH_CRAWL_RENDER_TABS, when set, is the rendered crawl's `--render-tabs` (the crawl's default otherwise).
 */
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { startNginx } from '../../scripts/support/real-site.ts';
import { writeRenderedSite } from '../support/rendered-site.ts';
import { samplePeakTreeMemory } from '../support/process-tree.ts';
import { sampleCrawlerCpu } from '../support/rendered-site-cpu.ts';
import { round } from '../support/stats.ts';
import { crawlerRun, type CrawlBenchRow } from '../support/crawler-run.ts';

export const RENDERED_PAGES = Number(process.env.BENCH_CRAWL_RENDERED_PAGES ?? 2000);
const RENDER_TABS = process.env.BENCH_CRAWL_RENDER_TABS;

/** One crawl of the site, with the peak memory of its whole process tree and the CPU of its two sides. */
async function measured(site: string, url: string, mode: 'none' | 'all') {
  const memory = samplePeakTreeMemory();
  const cpu = sampleCrawlerCpu();
  const tabs = mode === 'all' && RENDER_TABS !== undefined ? ['--render-tabs', RENDER_TABS] : [];
  const run = await crawlerRun(site, url, ['--render-mode', mode, ...tabs]);
  return { run, treeMb: memory.stop(), cpu: cpu.stop() };
}

export async function benchRenderedCrawl(add: (row: CrawlBenchRow) => void): Promise<void> {
  ensureDebianPackages([debianPackages.chromium, debianPackages.chromiumHeadlessShell]);
  const files = await writeRenderedSite(RENDERED_PAGES);
  const site = await startNginx({ root: files.root });
  const name = `rendered ${RENDERED_PAGES.toLocaleString('en-GB')}`;
  try {
    // Pages/s over the crawl's own seconds (its summary line): the two runs' start-up (node, tsx) left out.
    const rate = (r: { urls: number; crawlerSeconds: number }): number => round(r.urls / r.crawlerSeconds, 2);
    const raw = await measured(name, site.url, 'none');
    add({ ...raw.run, note: `${rate(raw.run)} pages/s in the crawl; ${raw.treeMb} MB with its child processes` });
    const rendered = await measured(name, site.url, 'all');
    // Start-up included: what limits the rate is the CPU a page costs on each side.
    const perPage = (seconds: number): number => round((seconds * 1000) / rendered.run.urls, 1);
    const ratio = round(rate(rendered.run) / rate(raw.run), 2);
    add({
      ...rendered.run,
      note:
        `${rate(rendered.run)} pages/s in the crawl, ${ratio}× the ${rate(raw.run)} of --render-mode none; ` +
        `${rendered.treeMb} MB with Chromium's processes (PSS); CPU per page ` +
        `${perPage(rendered.cpu.browserS)} ms in Chromium, ${perPage(rendered.cpu.crawlerS)} ms in the crawler`,
    });
  } finally {
    await site.stop();
    files.remove();
  }
}
