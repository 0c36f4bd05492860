/**
 * npm run make-fixtures -- --out DIR [--urls N] [--crawls K] [--seed S] [--site NAME]
 *
 * Writes deterministic crawl exports (DIR/<websiteId>/<crawlId>/manifest.json + Parquet per contract table).
 * Without --site both demo websites are written; --urls sets the size of each website (default: the demo size).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_CRAWLS,
  DEFAULT_SEED,
  DEMO_SITES,
  generateDemo,
  generateSite,
  type ExportDirs,
  type GenerateSiteOptions,
} from './fixtures/generate.ts';

const USAGE = `usage: make-fixtures --out DIR [--urls N] [--crawls K] [--seed S] [--site NAME]
  --out DIR      output directory (created if missing)
  --urls N       URLs per website (default: demo size)
  --crawls K     weekly crawls per website (default ${DEFAULT_CRAWLS})
  --seed S       seed, 0..2147483647 (default ${DEFAULT_SEED})
  --site NAME    one of: ${DEMO_SITES.join(', ')} (default: all)`;

class UsageError extends Error {}

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer, got '${raw}'`);
  return Number(raw);
}

interface Cli {
  outDir: string;
  urls?: number;
  crawls: number;
  seed: number;
  site?: string;
}

function parseCli(argv: string[]): Cli | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        urls: { type: 'string' },
        crawls: { type: 'string' },
        seed: { type: 'string' },
        site: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(String(error instanceof Error ? error.message : error).split('\n')[0]);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  if (!values.out) throw new UsageError('--out DIR is required');
  if (values.site !== undefined && !DEMO_SITES.includes(values.site))
    throw new UsageError(`unknown --site '${values.site}'; known: ${DEMO_SITES.join(', ')}`);
  const urls = integer('urls', values.urls);
  const crawls = integer('crawls', values.crawls) ?? DEFAULT_CRAWLS;
  const seed = integer('seed', values.seed) ?? DEFAULT_SEED;
  if (urls !== undefined && (urls < 200 || urls > 20_000_000))
    throw new UsageError('--urls must be from 200 to 20000000');
  if (crawls < 1 || crawls > 104) throw new UsageError('--crawls must be from 1 to 104');
  if (seed > 2 ** 31 - 1) throw new UsageError('--seed must be at most 2147483647');
  return { outDir: path.resolve(values.out), urls, crawls, seed, site: values.site };
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  if (cli === 'help') {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  const onCrawl: GenerateSiteOptions['onCrawl'] = ({ websiteId, crawlId, stats }) => {
    const n = (x: number) => x.toLocaleString('en-GB');
    console.log(
      `${websiteId} crawl ${crawlId}: ${n(stats.urls)} urls, ${n(stats.links)} links, ${n(stats.uniqueLinks)} unique links ` +
        `(${(stats.elapsedMs / 1000).toFixed(1)} s)`,
    );
  };
  let written: ExportDirs[];
  if (cli.site === undefined && cli.urls === undefined) {
    written = await generateDemo({ outDir: cli.outDir, crawls: cli.crawls, seed: cli.seed, onCrawl });
  } else {
    written = [];
    for (const site of cli.site === undefined ? DEMO_SITES : [cli.site])
      written.push(
        await generateSite({ outDir: cli.outDir, site, urls: cli.urls, crawls: cli.crawls, seed: cli.seed, onCrawl }),
      );
  }
  const crawls = written.reduce((n, w) => n + w.crawlDirs.length, 0);
  console.log(
    `wrote ${crawls} crawls of ${written.length} website(s) to ${cli.outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`make-fixtures: ${error.message}`);
    console.error(USAGE.split('\n')[0]);
    process.exit(2);
  }
  console.error(`make-fixtures: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
