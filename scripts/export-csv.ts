/**
 * npm run export-csv -- --website ID --crawl N --report category/report [--out FILE]
 *                       [--difference all|added|removed] [--filter TEXT] [--data-dir DIR]
 *
 * Staff export of a whole report tab as CSV, straight from DATA_DIR's store (default ./data, crawls attached
 * READ_ONLY), without the service: the same export function as POST /api/technical-health-check/report/export-csv.
 * Added and Removed compare against the next older crawl. Writes to FILE, or stdout without --out; a summary
 * line goes to stderr. Exit codes: 0 exported, 1 not found or failed (one line on stderr), 2 bad usage.
 */
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { categoryById, reportById } from '../catalog/index.ts';
import { readCommandLine } from '../service/command-line.ts';
import { openDatabase } from '../service/db/duckdb.ts';
import { differenceTypes, RequestError, type DifferenceType } from '../service/engine/compile.ts';
import { ReportEngine, tabRequest } from '../service/engine/engine.ts';
import { exportCsv } from '../service/export/csv.ts';
import { openCrawlRegistry } from '../service/source-data/mid-refresh.ts';

const USAGE =
  'usage: npm run export-csv -- --website ID --crawl N --report category/report [--out FILE] [--difference all|added|removed] [--filter TEXT] [--data-dir DIR]';

const say = (line: string): void => void process.stderr.write(`export-csv: ${line}\n`);

interface Options {
  websiteId: string;
  crawlId: number;
  reportId: string;
  out: string | undefined;
  differenceType: DifferenceType;
  filter: string | undefined;
  dataDir: string;
}

function fail(problem: string, code: 1 | 2): never {
  say(code === 2 ? `${problem} (${USAGE})` : problem);
  process.exit(code);
}

function parseCommandLine(argv: string[]): Options {
  const parsed = readCommandLine(
    argv,
    {
      website: { type: 'string' },
      crawl: { type: 'string' },
      report: { type: 'string' },
      out: { type: 'string' },
      difference: { type: 'string' },
      filter: { type: 'string' },
    },
    (problem) => fail(problem, 2),
  );
  const values = parsed.values;
  if (parsed.isHelp) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (parsed.positionals.length > 0) return fail(`unexpected argument ${parsed.positionals[0]}`, 2);
  if (!values.website) return fail('missing --website', 2);
  if (!values.crawl || !/^[1-9][0-9]{0,9}$/.test(values.crawl)) return fail('--crawl takes a crawl number', 2);
  if (!values.report) return fail('missing --report', 2);
  const difference = values.difference ?? 'all';
  if (!(differenceTypes as readonly string[]).includes(difference))
    return fail(`--difference takes ${differenceTypes.join(', ')}`, 2);
  return {
    websiteId: values.website,
    crawlId: Number(values.crawl),
    reportId: values.report,
    out: values.out,
    differenceType: difference as DifferenceType,
    filter: values.filter,
    dataDir: parsed.dataDir,
  };
}

async function main(): Promise<void> {
  const options = parseCommandLine(process.argv.slice(2));
  const report = reportById(options.reportId);
  if (!report || categoryById(report.category)?.isHidden) fail(`report ${options.reportId} could not be found.`, 1);
  if (!fs.existsSync(options.dataDir)) fail(`data directory ${options.dataDir} does not exist`, 1);
  const db = await openDatabase();
  try {
    const registry = await openCrawlRegistry(options.dataDir, db);
    if (!registry.website(options.websiteId)) fail(`website ${options.websiteId} could not be found.`, 1);
    const record = registry.crawl(options.websiteId, options.crawlId);
    if (!record) fail(`crawl ${options.crawlId} of ${options.websiteId} could not be found.`, 1);
    const engine = new ReportEngine(db, registry);
    const previous = registry.previous(options.websiteId, options.crawlId);
    const current = await engine.target(record);
    const comparison = previous ? await engine.target(previous) : undefined;
    const req = { ...tabRequest(report, current, comparison, options.differenceType), userFilter: options.filter };
    const started = performance.now();
    const total = await engine.count(req);
    const output: Writable = options.out ? fs.createWriteStream(options.out) : process.stdout;
    await pipeline(Readable.from(exportCsv(db, req, total)), output, { end: options.out !== undefined });
    const seconds = (performance.now() - started) / 1000;
    say(
      `${total} rows of ${report.id} → ${options.out ?? 'stdout'} in ${seconds.toFixed(2)} s (${Math.round(total / seconds)} rows/s)`,
    );
    engine.dispose();
  } catch (error) {
    // A reader that stopped early (`| head`) is not a failure.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE' && !options.out) process.exit(0);
    if (error instanceof RequestError) fail(`${error.field}: ${error.message}`, 1);
    fail(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), 1);
  } finally {
    db.closeSync();
  }
}

await main();
