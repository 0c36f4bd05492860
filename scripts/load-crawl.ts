/**
 * npm run load-crawl -- EXPORT_DIR [--replace] [--data-dir DIR]
 * npm run load-crawl -- --refresh [--website ID] [--data-dir DIR]
 * npm run load-crawl -- --check [--data-dir DIR]
 *
 * Loads one crawl export into DATA_DIR's store (default ./data), or precomputes the reports of every stale crawl
 * again (see service/load/refresh.ts), or lists the store's folders this build cannot read (the service skips
 * them), exiting 1 when there are any. Exit codes: 0 done, 1 refused or failed (one line on stderr), 2 bad
 * usage, 130 interrupted by SIGINT/SIGTERM (the partial load and lock are removed).
 */
import path from 'node:path';
import cliProgress from 'cli-progress';
import {
  LoadError,
  abandonActiveLoadsSync,
  loadCrawl,
  type LoadProgress,
  type LoadResult,
} from '../service/load/load-crawl.ts';
import { readCommandLine } from '../service/command-line.ts';
import { makeDataDirPrivate, useDataDirUmask } from '../service/data-dir.ts';
import { refreshStaleCrawls } from '../service/load/refresh.ts';
import { cleanupJoinedBefore } from '../service/sources/import-data.ts';
import { checkStore } from '../service/store/registry.ts';

const USAGE =
  'usage: npm run load-crawl -- EXPORT_DIR [--replace] [--data-dir DIR] | --refresh [--website ID] [--data-dir DIR] | --check [--data-dir DIR]';
/** How long an interrupted load gets to stop its query and clean up before the process removes it by force. */
const FORCED_EXIT_MS = 10_000;
const EXIT_INTERRUPTED = 130;

const say = (stream: NodeJS.WriteStream, line: string): void => void stream.write(`load-crawl: ${line}\n`);

type Command =
  | { kind: 'load'; exportDir: string; dataDir: string; replace: boolean }
  | { kind: 'refresh'; dataDir: string; websiteId: string | undefined }
  | { kind: 'check'; dataDir: string };

function parseCommandLine(argv: string[]): Command {
  const parsed = readCommandLine(
    argv,
    {
      replace: { type: 'boolean' },
      refresh: { type: 'boolean' },
      check: { type: 'boolean' },
      website: { type: 'string' },
    },
    usageError,
  );
  if (parsed.isHelp) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const { dataDir } = parsed;
  const [exportDir, ...rest] = parsed.positionals;
  if (parsed.values.check) {
    const other = exportDir ?? (parsed.values.refresh || parsed.values.replace || parsed.values.website !== undefined);
    if (other) return usageError('--check takes only --data-dir');
    return { kind: 'check', dataDir };
  }
  if (parsed.values.refresh) {
    if (exportDir) return usageError(`--refresh takes no EXPORT_DIR (got ${exportDir})`);
    if (parsed.values.replace) return usageError('--refresh and --replace do not go together');
    return { kind: 'refresh', dataDir, websiteId: parsed.values.website };
  }
  if (parsed.values.website !== undefined) return usageError('--website goes with --refresh');
  if (!exportDir) return usageError('missing EXPORT_DIR');
  if (rest.length > 0) return usageError(`unexpected argument ${rest[0]}`);
  return { kind: 'load', exportDir: path.resolve(exportDir), dataDir, replace: parsed.values.replace === true };
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
  const refreshed = result.refreshedCrawlId
    ? `; crawl ${result.refreshedCrawlId} now compares with it and was precomputed again`
    : '';
  const registered = result.websiteRegistration === 'registered' ? `; registered website "${result.websiteId}"` : '';
  return (
    `loaded crawl ${result.crawlId} of website "${result.websiteId}" as load ${result.loadId}${replaced}: ` +
    `${parts.join(', ')}; ${previous}${refreshed}${registered}; ${result.seconds.toFixed(1)} s`
  );
}

async function main(): Promise<void> {
  const command = parseCommandLine(process.argv.slice(2));
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
    if (command.kind === 'check') useDataDirUmask();
    else makeDataDirPrivate(command.dataDir);
    if (command.kind === 'check') {
      const { crawls, unreadable } = await checkStore(command.dataDir);
      for (const folder of unreadable) say(process.stdout, `${folder.dir}: ${folder.reason}`);
      const verdict =
        unreadable.length === 0 ? 'every folder is readable' : `${unreadable.length} folders this build cannot read`;
      say(process.stdout, `${crawls} crawls readable; ${verdict}`);
      process.exit(unreadable.length === 0 ? 0 : 1);
    }
    if (command.kind === 'refresh') {
      const results = await refreshStaleCrawls({
        dataDir: command.dataDir,
        websiteId: command.websiteId,
        signal: controller.signal,
        onCrawl: (crawl) =>
          say(process.stdout, `refreshing crawl ${crawl.crawlId} of website "${crawl.websiteId}": ${crawl.reason}`),
      });
      for (const r of results)
        say(process.stdout, `refreshed crawl ${r.crawlId} of website "${r.websiteId}" as load ${r.loadId}`);
      for (const websiteId of new Set(results.map((r) => r.websiteId)))
        await cleanupJoinedBefore(command.dataDir, { websiteId, databaseUrl: process.env.DATABASE_URL || undefined });
      say(process.stdout, results.length === 0 ? 'every crawl is up to date' : `refreshed ${results.length} crawls`);
      return;
    }
    const result = await loadCrawl({
      dataDir: command.dataDir,
      exportDir: command.exportDir,
      replace: command.replace,
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
