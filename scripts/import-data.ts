/**
 * npm run import-data -- --website ID --source SOURCE FILE... [--start YYYY-MM-DD --end YYYY-MM-DD] [--replace]
 *   [--data-dir DIR]
 *
 * Imports vendor export files into a website's data source (service/sources/import-data.ts) and refreshes the
 * crawls whose data window they touch. Exit codes: 0 done (or nothing to change), 1 refused or failed (one line on
 * stderr naming the file, line and column of bad input), 2 bad usage.
 */
import cliProgress from 'cli-progress';
import type { ImportStep } from '../catalog/data-source-calls.ts';
import { dataSourceIds, isDataSourceId } from '../catalog/data-sources.ts';
import { readCommandLine } from '../service/command-line.ts';
import { dateText } from '../service/sources/cells.ts';
import { importers } from '../service/sources/detect-format.ts';
import { ImportError } from '../service/sources/import-error.ts';
import { importData, type ImportOptions } from '../service/sources/import-data.ts';
import { importSummary } from '../service/sources/import-summary.ts';

const USAGE = `usage: npm run import-data -- --website ID --source ${dataSourceIds.join('|')} FILE... [--start YYYY-MM-DD --end YYYY-MM-DD] [--replace] [--data-dir DIR]`;

const say = (stream: NodeJS.WriteStream, line: string): void => void stream.write(`import-data: ${line}\n`);

const formatList = (): string =>
  dataSourceIds
    .map(
      (source) =>
        `  ${source}: ${importers
          .filter((i) => i.source === source)
          .map((i) => i.format)
          .join('; ')}`,
    )
    .join('\n');

function usageError(problem: string): never {
  say(process.stderr, `${problem} (${USAGE})`);
  process.exit(2);
}

function parseCommandLine(argv: string[]): ImportOptions {
  const parsed = readCommandLine(
    argv,
    {
      website: { type: 'string' },
      source: { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      replace: { type: 'boolean' },
    },
    usageError,
  );
  if (parsed.isHelp) {
    process.stdout.write(
      `${USAGE}\n\nFormats, told from each file's content (docs/data-sources.md):\n${formatList()}\n`,
    );
    process.exit(0);
  }
  const { website, source, start, end } = parsed.values;
  if (!website) return usageError('missing --website');
  if (!source) return usageError('missing --source');
  if (!isDataSourceId(source)) return usageError(`unknown source "${source}"`);
  if (parsed.positionals.length === 0) return usageError('missing FILE');
  if ((start === undefined) !== (end === undefined)) return usageError('--start and --end go together');
  const range =
    start !== undefined && end !== undefined ? { start: dayOf('--start', start), end: dayOf('--end', end) } : undefined;
  return {
    dataDir: parsed.dataDir,
    websiteId: website,
    source,
    files: parsed.positionals,
    range,
    replace: parsed.values.replace === true,
    databaseUrl: process.env.DATABASE_URL || undefined,
    by: 'cli',
  };
}

function dayOf(option: string, text: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? dateText(text) : undefined;
  return day ?? usageError(`${option} "${text}" is not a date (YYYY-MM-DD)`);
}

/** The import's steps as a bar on a terminal: reading, writing, then each crawl refreshed. Off a terminal, none. */
function progressBar(): { report: (step: ImportStep) => void; stop: () => void } {
  if (!process.stdout.isTTY) return { report: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: 'import-data [{bar}] {value}/{total} {label}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let isStarted = false;
  const show = (value: number, total: number, label: string): void => {
    if (!isStarted) bar.start(total, value, { label });
    else bar.update(value, { label });
    bar.setTotal(total);
    isStarted = true;
  };
  return {
    report: (step) => {
      if (step.phase === 'refreshing') show(2 + step.done, 2 + step.total, `refreshing crawl ${step.crawlId}`);
      else if (step.phase === 'writing') show(1, 2, 'writing the new version');
      else show(0, 2, 'reading and checking the files');
    },
    stop: () => {
      if (isStarted) bar.stop();
    },
  };
}

async function main(): Promise<void> {
  const options = parseCommandLine(process.argv.slice(2));
  const progress = progressBar();
  try {
    const result = await importData({ ...options, onProgress: progress.report });
    progress.stop();
    say(process.stdout, importSummary(result));
    process.exit(result.refreshFailure ? 1 : 0);
  } catch (error) {
    progress.stop();
    if (error instanceof ImportError) {
      say(process.stderr, error.message);
      process.exit(1);
    }
    say(process.stderr, `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.exit(1);
  }
}

await main();
