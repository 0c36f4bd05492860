/** One run of our crawler (`npm run crawl` under GNU time) as a row of the crawl section (bench/suites/crawl.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTool } from '../../scripts/support/real-site-oracles.ts';
import { ROOT } from './config.ts';
import { round } from './stats.ts';

export interface CrawlBenchRow {
  site: string;
  tool:
    | 'crawler'
    | 'crawler --render'
    | 'crawler (before)'
    | 'crawler --render-mode none'
    | 'crawler --render-mode all'
    | 'wget --spider'
    | 'linkchecker';
  /** URLs requested (pages, redirects, errors, other files). */
  urls: number;
  seconds: number;
  urlsPerSecond: number;
  peakRssMb: number;
  note?: string;
}

export function row(
  site: string,
  tool: CrawlBenchRow['tool'],
  urls: number,
  seconds: number,
  peakRssMb: number,
  note?: string,
) {
  const result: CrawlBenchRow = {
    site,
    tool,
    urls,
    seconds: round(seconds),
    urlsPerSecond: Math.round(urls / seconds),
    peakRssMb,
  };
  if (note) result.note = note;
  return result;
}

/** `npm run crawl` as a child process; its own summary line gives the URLs fetched. */
export async function crawlerRun(
  site: string,
  url: string,
  extra: string[] = [],
  root = ROOT,
  place: { workDir?: string; beforeRemoval?: (dir: string) => void } = {},
): Promise<CrawlBenchRow & { crawlerSeconds: number }> {
  const dir = fs.mkdtempSync(path.join(place.workDir ?? os.tmpdir(), 'thc-bench-crawl-'));
  try {
    const stdout = path.join(dir, 'stdout.txt');
    const run = await runTool(
      process.execPath,
      [
        ...['--import', 'tsx', 'scripts/crawl.ts', url, '--out', path.join(dir, 'export')],
        ...['--website', `bench-${site.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, '--crawl', '1', '--skip-external'],
        ...extra,
      ],
      { cwd: root, stdoutFile: stdout },
    );
    const summary = fs.readFileSync(stdout, 'utf8');
    const match = /crawled ([\d,]+) URLs of .* in ([\d.]+) s/.exec(summary);
    const mode = extra.includes('--render-mode') ? extra[extra.indexOf('--render-mode') + 1] : undefined;
    const tool: CrawlBenchRow['tool'] =
      root !== ROOT
        ? 'crawler (before)'
        : extra.includes('--render')
          ? 'crawler --render'
          : mode === 'all' || mode === 'none'
            ? `crawler --render-mode ${mode}`
            : 'crawler';
    if (run.status !== 0 || !match) {
      // A failed crawl is a figure too: its time, its peak RSS and its one-line error.
      const error = (run.stderr + summary).split('\n').find((l) => l.startsWith('crawl:')) ?? `exit ${run.status}`;
      console.error(`the crawl of ${url} failed: ${run.stderr.slice(-2000)}`);
      return { ...row(site, tool, NaN, run.seconds, run.peakRssMb, `FAILED: ${error}`), crawlerSeconds: NaN };
    }
    return {
      ...row(site, tool, Number(match[1]!.replaceAll(',', '')), run.seconds, run.peakRssMb),
      crawlerSeconds: Number(match[2]),
    };
  } finally {
    place.beforeRemoval?.(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
