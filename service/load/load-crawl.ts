/**
 * Loads one crawl export into the store (service/store/layout.ts): everything is validated before the store is
 * touched, then write-crawl.ts builds and publishes the new load. The loader only ever writes its own new files:
 * crawls the service has attached READ_ONLY are never opened for writing. Loading a crawl older than a live one
 * precomputes that newer crawl again, whose Added/Removed now compare against it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { exportTables, type Manifest } from '../../catalog/export-contract.ts';
import { registerWebsite, type WebsiteRegistration } from '../app-db/register-website.ts';
import { quoteLiteral } from '../db/duckdb.ts';
import { firstLine } from '../error-text.ts';
import {
  CURRENT_FILE,
  crawlDir,
  listLiveCrawls,
  listWebsites,
  readCrawlMeta,
  readCurrentLoad,
  websiteDir,
  writeFileAtomic,
  type LiveCrawl,
} from '../store/layout.ts';
import { Interrupter } from './interrupter.ts';
import { afterCommit } from './load-build.ts';
import { openLoadDatabase } from './load-database.ts';
import { LoadError } from './load-error.ts';
import { acquireLoadLock } from './load-lock.ts';
import type { LoadOptions, LoadResult, RefreshOptions } from './load-options.ts';
import { Progress } from './load-progress.ts';
import { removeIfEmpty } from './store-files.ts';
import { fsyncDir } from '../store/fsync.ts';
import { readManifest, validateExport, type ExportPlan } from './validate-export.ts';
import { refuseIfLoaded, writeCrawl, type Published, type Written } from './write-crawl.ts';

export { LoadError, type LoadErrorKind } from './load-error.ts';
export { abandonActiveLoadsSync } from './load-build.ts';
export { DEFAULT_MEMORY_LIMIT } from './load-database.ts';
export type { LoadOptions, LoadResult, RefreshOptions } from './load-options.ts';
export type { LoadPhase, LoadProgress } from './load-progress.ts';
export { createTableSql, createUrlsSql } from './load-tables.ts';
export { friendlyDate } from './new-crawl-meta.ts';

export async function loadCrawl(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const dataDir = path.resolve(options.dataDir);
  const exportDir = path.resolve(options.exportDir);
  const progress = new Progress(options.onProgress, exportTables.length * 2 + 2);
  const interrupter = new Interrupter(options.signal);
  try {
    interrupter.check();
    const manifest = readManifest(exportDir);
    if (!options.replace) refuseIfLoaded(dataDir, manifest);
    const plan = await validate(exportDir, manifest, options, progress, interrupter);
    const { replaced, ...result } = await writeCrawl(dataDir, { kind: 'export', plan }, options, progress, interrupter);
    let refreshedCrawlId: number | null;
    try {
      refreshedCrawlId = await refreshNewer(dataDir, result, replaced, options, interrupter);
    } catch (error) {
      withdrawLoad(dataDir, result, replaced, error);
      throw error;
    }
    if (replaced) afterCommit(() => fs.rmSync(replaced.dir, { recursive: true, force: true }));
    const websiteRegistration = await registerLoadedWebsite(dataDir, manifest.websiteId, options.databaseUrl);
    progress.step('done', `loaded crawl ${manifest.crawlId} of ${manifest.websiteId}`);
    return { ...result, refreshedCrawlId, websiteRegistration, seconds: (performance.now() - started) / 1000 };
  } finally {
    interrupter.dispose();
  }
}

/**
 * A website's first crawl registers it (opening the embedded app database takes a second or two, so later loads,
 * whose website is known, skip it). The crawl is published whatever happens here: a website the app database cannot
 * take now is registered by the service when it next starts or scans the store.
 */
async function registerLoadedWebsite(
  dataDir: string,
  websiteId: string,
  databaseUrl: string | undefined,
): Promise<WebsiteRegistration | undefined> {
  if (listLiveCrawls(dataDir).filter((crawl) => crawl.websiteId === websiteId).length > 1) return undefined;
  const website = listWebsites(dataDir).find((w) => w.id === websiteId);
  if (!website) return 'left to the service';
  try {
    return await registerWebsite(dataDir, website, databaseUrl);
  } catch {
    return 'left to the service';
  }
}

/**
 * The next newer crawl's Added/Removed were diffed against other data (or none): precompute it again against the
 * crawl just loaded. A failure here fails the load, which the caller then withdraws.
 */
async function refreshNewer(
  dataDir: string,
  loaded: Published,
  replaced: LiveCrawl | undefined,
  options: LoadOptions,
  interrupter: Interrupter,
): Promise<number | null> {
  const newer = listLiveCrawls(dataDir)
    .filter((c) => c.websiteId === loaded.websiteId && c.crawlId > loaded.crawlId)
    .at(-1);
  if (!newer) return null;
  try {
    // The replaced load stays until this succeeds: withdrawLoad brings it back otherwise.
    await rewriteLoad(dataDir, newer, options, new Progress(undefined, 0), interrupter, replaced && [replaced.dir]);
  } catch (error) {
    const translated = interrupter.translate(error);
    const isInterrupted = translated instanceof LoadError && translated.kind === 'interrupted';
    throw new LoadError(
      `crawl ${loaded.crawlId} of website "${loaded.websiteId}" was not loaded: refreshing the Added/Removed of crawl ${newer.crawlId} against it ${isInterrupted ? 'was interrupted' : `failed (${firstLine(translated)})`}`,
      isInterrupted ? 'interrupted' : 'failed',
      { cause: error },
    );
  }
  return newer.crawlId;
}

/** A new load of a live crawl's data, precomputed again (see refreshCrawl). */
const rewriteLoad = (
  dataDir: string,
  live: LiveCrawl,
  options: Omit<LoadOptions, 'exportDir'>,
  progress: Progress,
  interrupter: Interrupter,
  keep: readonly string[] = [],
): Promise<Written> =>
  writeCrawl(
    dataDir,
    { kind: 'refresh', live, meta: readCrawlMeta(live.dir), keep },
    { ...options, exportDir: '', replace: true },
    progress,
    interrupter,
  );

/**
 * Precomputes a loaded crawl again (after an engine change, or when its next older crawl changed) as a new load
 * of the same data: a copy of its database, published like any load, so the live crawl is never written to.
 */
export async function refreshCrawl(options: RefreshOptions): Promise<LoadResult> {
  const started = performance.now();
  const dataDir = path.resolve(options.dataDir);
  const live = readCurrentLoad(dataDir, options.websiteId, options.crawlId);
  if (!live)
    throw new LoadError(
      `${crawlDir(dataDir, options.websiteId, options.crawlId)}: crawl ${options.crawlId} of website "${options.websiteId}" is not loaded`,
      'not-loaded',
    );
  const progress = new Progress(options.onProgress, 3);
  const interrupter = new Interrupter(options.signal);
  try {
    const { replaced: _replaced, ...result } = await rewriteLoad(dataDir, live, options, progress, interrupter);
    progress.step('done', `refreshed crawl ${options.crawlId} of ${options.websiteId}`);
    return { ...result, refreshedCrawlId: null, seconds: (performance.now() - started) / 1000 };
  } finally {
    interrupter.dispose();
  }
}

/**
 * Takes back a load published moments ago whose load as a whole failed: CURRENT names the load it replaced again
 * (kept until now), or goes with the crawl's directory. Under the website's lock, and only while CURRENT still
 * names this load; a crash before this leaves the new load published, as if it had succeeded.
 */
function withdrawLoad(dataDir: string, written: Published, replaced: LiveCrawl | undefined, failure: unknown): void {
  const { websiteId, crawlId, loadId } = written;
  const crawlPath = crawlDir(dataDir, websiteId, crawlId);
  try {
    const lock = acquireLoadLock(websiteDir(dataDir, websiteId), websiteId);
    try {
      if (readCurrentLoad(dataDir, websiteId, crawlId)?.loadId !== loadId) return;
      if (replaced) writeFileAtomic(path.join(crawlPath, CURRENT_FILE), replaced.loadId);
      else fs.rmSync(path.join(crawlPath, CURRENT_FILE), { force: true });
      fsyncDir(crawlPath);
      fs.rmSync(written.dir, { recursive: true, force: true });
      removeIfEmpty(crawlPath);
    } finally {
      lock.release();
    }
  } catch (error) {
    throw new LoadError(
      `${firstLine(failure)}; taking load ${loadId} back failed too (${firstLine(error)}), so crawl ${crawlId} of website "${websiteId}" stays loaded`,
      'failed',
      { cause: error },
    );
  }
}

/** Validates the export in a scratch in-memory database whose spill files go to a temp folder. */
async function validate(
  exportDir: string,
  manifest: Manifest,
  options: LoadOptions,
  progress: Progress,
  interrupter: Interrupter,
): Promise<ExportPlan> {
  const spillDir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-crawl-'));
  let db: DuckDBInstance | undefined;
  let conn: DuckDBConnection | undefined;
  try {
    db = await openLoadDatabase(':memory:', options.memoryLimit);
    conn = await db.connect();
    interrupter.watch(conn);
    await conn.run(`SET temp_directory = ${quoteLiteral(spillDir)}`);
    await conn.run('SET preserve_insertion_order = false');
    return await validateExport(conn, exportDir, manifest, {
      onTable: (table) => {
        interrupter.check();
        progress.step('validate', `checking ${table.id}`);
      },
    });
  } catch (error) {
    throw interrupter.translate(error);
  } finally {
    if (conn) interrupter.unwatch(conn);
    conn?.closeSync();
    db?.closeSync();
    fs.rmSync(spillDir, { recursive: true, force: true });
  }
}
