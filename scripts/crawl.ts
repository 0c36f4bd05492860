/**
 * npm run crawl -- START_URL --out EXPORT_DIR [--website ID] [--crawl N] [--max-urls N] [--max-depth N]
 *                  [--concurrency N] [--delay MS] [--user-agent UA] [--ignore-robots] [--include-subdomains]
 *                  [--include REGEX]... [--exclude REGEX]... [--sitemap URL]... [--allow CIDR|HOST]...
 *                  [--render N] [--time-limit HOURS] [--load] [--data-dir DIR]
 *
 * Crawls a website into a crawl export (service/crawl/crawl.ts); --load loads it into DATA_DIR. Exit codes: 0 done
 * (also after a first Ctrl-C, which stops fetching and still writes the export), 1 failed (one line on stderr),
 * 2 bad usage, 130 aborted by a second Ctrl-C (nothing written).
 */
import fs from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { CrawlProgress, CrawlResult } from '../service/crawl/crawl-options.ts';
import { abandonCrawlsSync, crawlWebsite, CrawlError } from '../service/crawl/crawl.ts';
import { HELP, parseCrawlCommand, UsageError, USAGE, type CrawlCommand } from '../service/crawl/crawl-command.ts';

const EXIT_INTERRUPTED = 130;

/** The loader, imported only for --load (it is slow to import). */
let loader: typeof import('../service/load/load-crawl.ts') | undefined;

const say = (stream: NodeJS.WriteStream, line: string): void => void stream.write(`crawl: ${line}\n`);

function fail(line: string, code: number): never {
  say(process.stderr, line);
  process.exit(code);
}

function progressReporter(): { report: (p: CrawlProgress) => void; stop: () => void } {
  if (!process.stdout.isTTY) return { report: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      format: 'crawl [{bar}] {value} done | {queued} queued | {rate} pages/s | {errors} errors',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let isStarted = false;
  return {
    report: (p) => {
      const payload = { queued: p.queued, rate: p.pagesPerSecond.toFixed(0), errors: p.errors };
      if (!isStarted) bar.start(p.pagesDone + p.queued, p.pagesDone, payload);
      else bar.setTotal(p.pagesDone + p.queued);
      bar.update(p.pagesDone, payload);
      isStarted = true;
    },
    stop: () => {
      if (isStarted) bar.stop();
    },
  };
}

function summary(command: CrawlCommand, result: CrawlResult): string {
  const n = (value: number | undefined): string => (value ?? 0).toLocaleString('en-GB');
  const seconds = result.elapsedMs / 1000;
  const rate = seconds > 0 ? result.fetched / seconds : 0;
  const early = result.stoppedEarly ? '; stopped early, the unvisited URLs are listed as crawl_limit' : '';
  const parseFailures = result.parseFailures === 0 ? '' : `, ${n(result.parseFailures)} pages not parsed`;
  return (
    `crawled ${n(result.fetched)} URLs of ${result.manifest.startUrl} in ${seconds.toFixed(1)} s ` +
    `(${rate.toFixed(0)} URLs/s): ${n(result.tables.urls)} urls, ${n(result.tables.links)} links, ` +
    `${n(result.tables.uncrawled_urls)} uncrawled${parseFailures}; website "${result.manifest.websiteId}" crawl ` +
    `${result.manifest.crawlId} written to ${command.options.outDir}${early}`
  );
}

async function main(): Promise<void> {
  let command: CrawlCommand;
  try {
    command = parseCrawlCommand(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message} (${USAGE})`, 2);
    throw error;
  }
  if (command.isHelp) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const { scratchDir } = command.options;
  if (scratchDir !== undefined) {
    fs.rmSync(scratchDir, { recursive: true, force: true });
    fs.mkdirSync(scratchDir, { recursive: true, mode: 0o700 });
  }
  const removeScratch = (): void => {
    if (scratchDir !== undefined) fs.rmSync(scratchDir, { recursive: true, force: true });
  };
  process.on('exit', removeScratch);
  const controller = new AbortController();
  const progress = progressReporter();
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      progress.stop();
      abandonCrawlsSync();
      loader?.abandonActiveLoadsSync();
      fail('aborted; nothing written', EXIT_INTERRUPTED);
    }
    controller.abort();
    progress.stop();
    say(process.stderr, 'stopping: writing what was crawled (Ctrl-C again to abort without writing)');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let result: CrawlResult;
  try {
    result = await crawlWebsite({ ...command.options, signal: controller.signal, onProgress: progress.report });
  } catch (error) {
    progress.stop();
    if (error instanceof CrawlError) fail(error.message, 1);
    fail(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), 1);
  }
  progress.stop();
  if (result.notice !== undefined) say(process.stderr, result.notice);
  say(process.stdout, summary(command, result));
  if (!command.isLoad) return;
  loader = await import('../service/load/load-crawl.ts');
  try {
    const loaded = await loader.loadCrawl({
      dataDir: command.dataDir,
      exportDir: path.resolve(command.options.outDir),
    });
    say(
      process.stdout,
      `loaded crawl ${loaded.crawlId} of website "${loaded.websiteId}" into ${command.dataDir} as load ${loaded.loadId}`,
    );
  } catch (error) {
    if (error instanceof loader.LoadError) fail(`load: ${error.message}`, 1);
    throw error;
  }
}

await main();
