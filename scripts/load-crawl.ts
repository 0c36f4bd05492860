/**
 * npm run load-crawl -- EXPORT_DIR [--replace] [--data-dir DIR]
 *
 * Loads one crawl export into DATA_DIR's store (default ./data). Exit codes: 0 loaded, 1 refused or failed
 * (one line on stderr), 2 bad usage, 130 interrupted by SIGINT/SIGTERM (the partial load and lock are removed).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import {
  LoadError,
  abandonActiveLoadsSync,
  loadCrawl,
  type LoadProgress,
  type LoadResult,
} from '../service/load/load-crawl.ts';

const USAGE = 'usage: npm run load-crawl -- EXPORT_DIR [--replace] [--data-dir DIR]';
/** How long an interrupted load gets to stop its query and clean up before the process removes it by force. */
const FORCED_EXIT_MS = 10_000;
const EXIT_INTERRUPTED = 130;

const say = (stream: NodeJS.WriteStream, line: string): void => void stream.write(`load-crawl: ${line}\n`);

function parseCommandLine(argv: string[]): { exportDir: string; dataDir: string; replace: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { replace: { type: 'boolean' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [exportDir, ...rest] = parsed.positionals;
  if (!exportDir) return usageError('missing EXPORT_DIR');
  if (rest.length > 0) return usageError(`unexpected argument ${rest[0]}`);
  return {
    exportDir: path.resolve(exportDir),
    dataDir: path.resolve(parsed.values['data-dir'] ?? process.env.DATA_DIR ?? './data'),
    replace: parsed.values.replace === true,
  };
}

function usageError(problem: string): never {
  say(process.stderr, `${problem} (${USAGE})`);
  process.exit(2);
}

function progressReporter(): { report: (p: LoadProgress) => void; stop: () => void } {
  if (!process.stdout.isTTY) {
    return {
      report: (p) => say(process.stdout, `[${p.completed}/${p.total}] ${p.label}`),
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: 'load-crawl [{bar}] {value}/{total} {label}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let isStarted = false;
  return {
    report: (p) => {
      if (!isStarted) bar.start(p.total, p.completed, { label: p.label });
      else bar.update(p.completed, { label: p.label });
      isStarted = true;
    },
    stop: () => {
      if (isStarted) bar.stop();
    },
  };
}

function summary(result: LoadResult): string {
  const n = (value: number | undefined): string => (value ?? 0).toLocaleString('en-GB');
  const parts = [
    `${n(result.tables.urls)} urls`,
    `${n(result.tables.links)} links`,
    `${n(result.tables.unique_links)} unique links`,
  ];
  if (result.addedUrls > 0) parts.push(`${n(result.addedUrls)} urls added from search console/analytics`);
  const previous = result.previousCrawlId === null ? 'no previous crawl' : `previous crawl ${result.previousCrawlId}`;
  const replaced = result.replacedLoadId ? `, replaced load ${result.replacedLoadId}` : '';
  return (
    `loaded crawl ${result.crawlId} of website "${result.websiteId}" as load ${result.loadId}${replaced}: ` +
    `${parts.join(', ')}; ${previous}; ${result.seconds.toFixed(1)} s`
  );
}

async function main(): Promise<void> {
  const { exportDir, dataDir, replace } = parseCommandLine(process.argv.slice(2));
  const controller = new AbortController();
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      abandonActiveLoadsSync();
      process.exit(EXIT_INTERRUPTED);
    }
    controller.abort();
    setTimeout(() => {
      abandonActiveLoadsSync();
      say(process.stderr, 'load interrupted');
      process.exit(EXIT_INTERRUPTED);
    }, FORCED_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const progress = progressReporter();
  try {
    const result = await loadCrawl({
      dataDir,
      exportDir,
      replace,
      onProgress: progress.report,
      signal: controller.signal,
    });
    progress.stop();
    say(process.stdout, summary(result));
  } catch (error) {
    progress.stop();
    if (error instanceof LoadError) {
      say(process.stderr, error.message);
      process.exit(error.kind === 'interrupted' ? EXIT_INTERRUPTED : 1);
    }
    say(process.stderr, error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  }
}

await main();
