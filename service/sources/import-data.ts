/**
 * Imports vendor export files into a website's source (source-store.ts), then refreshes the joined columns and
 * precomputed counts of the website's crawls whose data window the imported dates touch. Everything is read and
 * checked before the store is touched; one import per website at a time (`.import.lock`); the new version is
 * published under the website's load lock, so no crawl load reads a source while its version changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportStep } from '../../catalog/data-source-calls.ts';
import { dataSourceIds, type DataSourceId } from '../../catalog/data-sources.ts';
import { websiteIdSchema } from '../../catalog/export-contract.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { firstLine } from '../error-text.ts';
import { afterCommit } from '../load/load-build.ts';
import { LoadError } from '../load/load-error.ts';
import { acquireLoadLock, acquireSharedLoadLock } from '../load/load-lock.ts';
import { refreshStaleCrawls } from '../load/refresh.ts';
import { newLoadId } from '../load/store-files.ts';
import { acquirePidLock } from '../pid-lock.ts';
import { acquireSharedLock } from '../shared-lock.ts';
import { WEBSITE_FILE, listLiveCrawls, websiteDir, type LiveCrawl } from '../store/layout.ts';
import { importerOf, openSourceFile } from './detect-format.ts';
import { expandZips } from './zip-files.ts';
import { sha256Of } from './file-hash.ts';
import { ImportError } from './import-error.ts';
import type { Coverage, Importer, SourceFile, Staged } from './importer.ts';
import { matchCrawledUrls, type UrlMatch } from './match-urls.ts';
import { mergeVersion, type ReplacedPeriod } from './merge-version.ts';
import { normaliseStaged } from './normalise-staged.ts';
import {
  cleanupSourceLeftovers,
  publishVersion,
  readSourceVersion,
  sourceDir,
  startPartialVersion,
  type SourceMeta,
} from '../source-data/source-store.ts';

export const IMPORT_LOCK_FILE = '.import.lock';
/** DuckDB's share of an import's memory: with Node's the peak stays under 1.5 GB (650 MB at 30M rows). */
export const IMPORT_MEMORY = '1GB';
/**
 * DuckDB's share of the refresh of the crawls an import feeds (a crawl load's own is 2 GB), spilling the rest to
 * disk. Under 1 GB the refresh of a 1M-URL crawl peaked at 1,456 MB: the precompute holds more than DuckDB counts.
 */
export const REFRESH_MEMORY = '768MB';

export interface ImportOptions {
  dataDir: string;
  websiteId: string;
  source: DataSourceId;
  /** The files as given; relative paths resolve against the working directory. */
  files: string[];
  /** What messages call each file (default: as given), e.g. an upload's own name for its temporary file. */
  names?: string[];
  /** The dates of files that carry none of their own. */
  range?: { start: string; end: string } | undefined;
  /** Replace the source's rows on the dates the files cover instead of refusing rows that differ. */
  replace?: boolean;
  databaseUrl?: string | undefined;
  /** Who imports: a user's email, or "cli". */
  by?: string;
  onProgress?: (step: ImportStep) => void;
  /** Leave the crawls' refresh to the caller (refreshJoins), which imports several files before one refresh. */
  isRefreshDeferred?: boolean;
}

export interface ImportResult {
  websiteId: string;
  source: DataSourceId;
  format: string;
  /** Rows read from the files: summed per contract key, or (raw rows, raw-rows.ts) as the files hold them. */
  rows: number;
  coverage: Coverage;
  /** Nothing changed: the same rows were imported before. */
  isUnchanged: boolean;
  versionId: string | null;
  /** Rows per table of the source's live version. */
  tables: Record<string, number>;
  urls: UrlMatch;
  skippedRows: number;
  skippedExamples: string[];
  notes: string[];
  /** Crawls whose joined columns and counts were computed again. */
  refreshedCrawlIds: number[];
  /** A refresh that failed after the import was published; `load-crawl -- --refresh` retries it. */
  refreshFailure: string | null;
}

export async function importData(options: ImportOptions): Promise<ImportResult> {
  const dataDir = path.resolve(options.dataDir);
  if (!websiteIdSchema.safeParse(options.websiteId).success)
    throw new ImportError(`website id "${options.websiteId}": lowercase letters, digits and dashes`);
  const websitePath = websiteDir(dataDir, options.websiteId);
  if (!fs.existsSync(path.join(websitePath, WEBSITE_FILE)))
    throw new ImportError(
      `${websitePath}: website "${options.websiteId}" has no crawl loaded; load one first`,
      'unknown-website',
    );
  checkRange(options.range);
  const given = options.files.map((file, i) => openSourceFile(options.names?.[i] ?? file, path.resolve(file)));
  if (given.length === 0) throw new ImportError('no FILE given');
  const unpackDir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-data-unpack-'));
  let result: ImportResult;
  try {
    const files = await expandZips(given, unpackDir);
    const importer = oneImporter(files, options.source);
    result = await underImportLock(
      dataDir,
      options.websiteId,
      () => importLocked(dataDir, options, importer, files),
      options.databaseUrl,
    );
  } finally {
    fs.rmSync(unpackDir, { recursive: true, force: true });
  }
  if (options.isRefreshDeferred) return result;
  // Even an import that changes nothing finishes the refresh an interrupted one left undone.
  return { ...result, ...(await refreshJoins(dataDir, options)) };
}

/**
 * Runs `work` holding the website's import lock; another import or removal running is refused as `locked`. With a
 * shared app database (`databaseUrl`) the hosts sharing the store are kept out too, by its advisory lock.
 */
export async function underImportLock<T>(
  dataDir: string,
  websiteId: string,
  work: () => Promise<T>,
  databaseUrl?: string,
): Promise<T> {
  const file = path.join(websiteDir(dataDir, websiteId), IMPORT_LOCK_FILE);
  const busy = (holder: string) =>
    new ImportError(`${file}: another import (${holder}) is running for website "${websiteId}"`, 'locked');
  const lock = acquirePidLock(file, (pid) => busy(pid === undefined ? 'pid unknown' : `pid ${pid}`));
  try {
    const shared = databaseUrl
      ? await acquireSharedLock(databaseUrl, `thc-import:${websiteId}`, () => busy('on another host'))
      : undefined;
    try {
      return await work();
    } finally {
      await shared?.release();
    }
  } finally {
    lock.release();
  }
}

function checkRange(range: ImportOptions['range']): void {
  if (range && range.start > range.end) throw new ImportError(`--start ${range.start} is after --end ${range.end}`);
}

function oneImporter(files: SourceFile[], source: DataSourceId): Importer {
  const found = files.map((f) => importerOf(f, source));
  const other = found.findIndex((i) => i !== found[0]);
  if (other >= 0)
    throw new ImportError(
      `${files[other]!.name}: a ${found[other]!.format}, while ${files[0]!.name} is a ${found[0]!.format}; import each format on its own`,
    );
  return found[0]!;
}

/** The origin paths are resolved on: the newest crawl's start URL. */
const originOf = (crawls: LiveCrawl[]): string => new URL(crawls[0]!.meta.manifest.startUrl).origin;

async function importLocked(
  dataDir: string,
  options: ImportOptions,
  importer: Importer,
  files: SourceFile[],
): Promise<ImportResult> {
  const dir = sourceDir(dataDir, options.websiteId, options.source);
  cleanupSourceLeftovers(dataDir, options.websiteId, options.source);
  const crawls = listLiveCrawls(dataDir).filter((c) => c.websiteId === options.websiteId);
  if (crawls.length === 0)
    throw new ImportError(`website "${options.websiteId}" has no crawl loaded; load one first`, 'unknown-website');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-data-'));
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  let staged: Staged | undefined;
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(workDir)}`);
    await conn.run('SET preserve_insertion_order = true');
    // Within the import's peak memory (a large bulk export spills to workDir instead).
    await conn.run(`SET memory_limit = '${IMPORT_MEMORY}'`);
    options.onProgress?.({ phase: 'reading' });
    const versionId = newLoadId();
    staged = await importer.stage(files, { conn, workDir, range: options.range, importId: versionId });
    const normal = await normaliseStaged(conn, staged, originOf(crawls), workDir);
    const urls = await matchCrawledUrls(conn, crawls[0]!, normal.urls);
    const live = readSourceVersion(dataDir, options.websiteId, options.source);
    const partialDir = startPartialVersion(dir, versionId);
    const fileNames = files.map((f) => f.name).join(', ');
    options.onProgress?.({ phase: 'writing' });
    let merged;
    try {
      merged = await mergeVersion(conn, options.source, live, normal.tables, staged.coverage, {
        isReplace: options.replace === true,
        partialDir,
        fileNames,
        importId: versionId,
        files: normal.files,
        vendorFiles: normal.vendorFiles,
      });
    } catch (error) {
      fs.rmSync(partialDir, { recursive: true, force: true });
      throw error instanceof ImportError
        ? error
        : new ImportError(`${fileNames}: ${firstLine(error)}`, 'invalid-input');
    }
    const base = {
      websiteId: options.websiteId,
      source: options.source,
      format: importer.format,
      rows: normal.rows,
      coverage: staged.coverage,
      urls,
      skippedRows: normal.skippedRows,
      skippedExamples: normal.skippedExamples,
      notes: [...staged.notes, ...merged.replacedPeriods.map(replacedNote)],
      refreshedCrawlIds: [],
      refreshFailure: null,
    };
    if (merged.changedRows === 0) {
      fs.rmSync(partialDir, { recursive: true, force: true });
      return { ...base, isUnchanged: true, versionId: live?.meta.versionId ?? null, tables: live?.meta.tables ?? {} };
    }
    const hashes = await staged.hashes;
    const hashed = [];
    for (const f of files)
      hashed.push({ name: path.basename(f.name), sha256: hashes?.get(f.path) ?? (await sha256Of(f.path)) });
    const meta: SourceMeta = {
      layout: 1,
      source: options.source,
      versionId,
      importedAt: new Date().toISOString(),
      tables: merged.tables,
      ...(Object.keys(merged.vendorFiles).length > 0 && { vendorFiles: merged.vendorFiles }),
      imports: [
        ...(live?.meta.imports ?? []),
        {
          id: versionId,
          at: new Date().toISOString(),
          ...(options.by !== undefined && { by: options.by }),
          files: hashed,
          format: importer.format,
          rows: normal.rows,
          coverage: staged.coverage,
          isReplace: options.replace === true,
        },
      ],
    };
    await publishUnderLoadLock(dataDir, options.websiteId, dir, partialDir, meta, options.databaseUrl);
    return { ...base, isUnchanged: false, versionId, tables: merged.tables };
  } finally {
    staged?.stopHashing?.();
    conn.closeSync();
    db.closeSync();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

const replacedNote = (p: ReplacedPeriod): string =>
  `replaced the totals for ${p.start} to ${p.end} whole (one period: they stand for each of its days and cannot be split)`;

/**
 * Crawl loads read a source's live version under the load lock: publishing (and dropping the old) takes it too, and
 * with a shared app database (`databaseUrl`) the load lock of the hosts sharing the store.
 */
export async function publishUnderLoadLock(
  dataDir: string,
  websiteId: string,
  dir: string,
  partial: string,
  meta: SourceMeta,
  databaseUrl: string | undefined,
): Promise<void> {
  let lock;
  let shared;
  try {
    lock = acquireLoadLock(websiteDir(dataDir, websiteId), websiteId);
    if (databaseUrl) shared = await acquireSharedLoadLock(databaseUrl, websiteDir(dataDir, websiteId), websiteId);
  } catch (error) {
    lock?.release();
    fs.rmSync(partial, { recursive: true, force: true });
    if (error instanceof LoadError)
      throw new ImportError(`${error.message}; nothing imported, try again when it is done`, 'locked');
    throw error;
  }
  try {
    publishVersion(dir, partial, meta);
    afterCommit(() => cleanupSourceLeftovers(dataDir, websiteId, meta.source));
  } finally {
    await shared?.release();
    lock.release();
  }
}

/**
 * Precomputes again every crawl that has not joined the new version, oldest first (refresh.ts): those whose data
 * window meets the imported dates get new rows and counts, the others only note the version. A failure leaves the
 * import in place and is reported; `load-crawl -- --refresh` finishes it.
 */
export async function refreshJoins(
  dataDir: string,
  options: Pick<ImportOptions, 'websiteId' | 'databaseUrl' | 'onProgress'> & { memoryLimit?: string },
): Promise<Pick<ImportResult, 'refreshedCrawlIds' | 'refreshFailure'>> {
  const refreshedCrawlIds: number[] = [];
  try {
    await refreshStaleCrawls({
      dataDir,
      websiteId: options.websiteId,
      databaseUrl: options.databaseUrl,
      memoryLimit: options.memoryLimit ?? REFRESH_MEMORY,
      onCrawl: (crawl, done, total) => {
        refreshedCrawlIds.push(crawl.crawlId);
        options.onProgress?.({ phase: 'refreshing', crawlId: crawl.crawlId, done, total });
      },
    });
  } catch (error) {
    refreshedCrawlIds.pop();
    return { refreshedCrawlIds, refreshFailure: firstLine(error) };
  }
  await cleanupJoinedBefore(dataDir, options);
  return { refreshedCrawlIds, refreshFailure: null };
}

/**
 * The versions the refreshed crawls no longer join go; an import running meanwhile cleans up when it is done. After
 * an import's refresh, and after `load-crawl -- --refresh` finished one that had failed.
 */
export async function cleanupJoinedBefore(
  dataDir: string,
  options: Pick<ImportOptions, 'websiteId' | 'databaseUrl'>,
): Promise<void> {
  try {
    await underImportLock(
      dataDir,
      options.websiteId,
      () => {
        for (const source of dataSourceIds) cleanupSourceLeftovers(dataDir, options.websiteId, source);
        return Promise.resolve();
      },
      options.databaseUrl,
    );
  } catch (error) {
    if (!(error instanceof ImportError && error.kind === 'locked')) throw error;
  }
}
