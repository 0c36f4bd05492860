/**
 * Writes one new load of a crawl and publishes it: under the website's lock, the crawl database is built in
 * `<crawlId>/<loadId>.partial/`, renamed to `<loadId>/` and published by rewriting CURRENT, so a crash at any
 * point leaves either the old state or the new one, and the next load removes the leftovers.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Manifest } from '../../catalog/export-contract.ts';
import { precomputeCrawl } from '../engine/precompute.ts';
import { ENGINE_SOURCE_TABLES, reportSourcesOf } from '../engine/report-shape.ts';
import { REPORT_COUNTS_TABLE } from '../engine/stored-precompute.ts';
import { joinSources, joinedFromTables, sourceIdsOf, type JoinedSources } from '../source-data/join-sources.ts';
import type { CrawlMeta } from '../store/crawl-meta.ts';
import {
  CRAWL_DB_FILE,
  CRAWL_META_FILE,
  CURRENT_FILE,
  crawlDir,
  readCurrentLoad,
  writeFileAtomic,
  type LiveCrawl,
} from '../store/layout.ts';
import type { Interrupter } from './interrupter.ts';
import { LoadBuild, afterCommit } from './load-build.ts';
import { closeQuietly, openLoadDatabase, PRECOMPUTE_MEMORY_LIMIT } from './load-database.ts';
import { LoadError } from './load-error.ts';
import type { LoadOptions, LoadResult } from './load-options.ts';
import type { Progress } from './load-progress.ts';
import { addMissingTables, loadTables, type TableCounts } from './load-tables.ts';
import { exportCrawlMeta, refreshedCrawlMeta } from './new-crawl-meta.ts';
import { cleanupLeftovers, findPreviousCrawl, newLoadId } from './store-files.ts';
import { fsyncDir, fsyncFile } from '../store/fsync.ts';
import type { ExportPlan } from './validate-export.ts';

/** What a new load is built from: a validated export, or a live load whose data is copied as it is. */
export type LoadSource =
  { kind: 'export'; plan: ExportPlan } | { kind: 'refresh'; live: LiveCrawl; meta: CrawlMeta; keep: readonly string[] };

/**
 * What writeCrawl reports of the load it published; a load of an export keeps the load it replaced (`replaced`)
 * on disk for withdrawLoad, a refresh removes it.
 */
export type Written = Published & { replaced: LiveCrawl | undefined };
export type Published = Omit<LoadResult, 'seconds' | 'refreshedCrawlId'>;

const manifestOf = (source: LoadSource): Manifest =>
  source.kind === 'export' ? source.plan.manifest : source.meta.manifest;

export async function writeCrawl(
  dataDir: string,
  source: LoadSource,
  options: LoadOptions,
  progress: Progress,
  interrupter: Interrupter,
): Promise<Written> {
  const manifest = manifestOf(source);
  const { websiteId, crawlId } = manifest;
  const build = new LoadBuild(dataDir, websiteId, crawlId);
  try {
    await build.lockWebsite(options.databaseUrl ?? process.env.DATABASE_URL);
    const existing = readLoadToReplace(dataDir, source, manifest, options.replace === true);
    cleanupLeftovers(build.websitePath, source.kind === 'refresh' ? source.keep : []);
    const previous = findPreviousCrawl(dataDir, build.websitePath, websiteId, crawlId);

    const loadId = newLoadId();
    const partialDir = build.startPartialDir(loadId);
    const built = await buildDatabase(dataDir, partialDir, source, previous, options, progress, interrupter);
    const { tables, addedUrls, sources } = built;
    const previousCrawlId = previous?.crawlId ?? null;
    writeCrawlMeta(
      partialDir,
      source.kind === 'export'
        ? exportCrawlMeta(manifest, { loadId, tables, previousCrawlId, sources })
        : refreshedCrawlMeta(source.meta, {
            loadId,
            tables,
            previousCrawlId,
            sources,
            isDataChanged: built.isDataChanged,
          }),
    );

    interrupter.check();
    const loadDir = build.moveIntoPlace(partialDir, loadId);
    build.writeWebsiteFileIfMissing(manifest.startUrl);
    interrupter.check();
    build.publish(loadId);
    if (existing && source.kind === 'refresh')
      afterCommit(() => fs.rmSync(existing.dir, { recursive: true, force: true }));
    return {
      websiteId,
      crawlId,
      loadId,
      dir: loadDir,
      dbFile: path.join(loadDir, CRAWL_DB_FILE),
      tables,
      addedUrls,
      previousCrawlId,
      replacedLoadId: existing?.loadId ?? null,
      replaced: existing,
    };
  } catch (error) {
    build.undo();
    throw interrupter.translate(error);
  } finally {
    await build.finish();
  }
}

export function refuseIfLoaded(dataDir: string, manifest: Manifest): void {
  const live = readCurrentLoad(dataDir, manifest.websiteId, manifest.crawlId);
  if (!live) return;
  const current = path.join(crawlDir(dataDir, manifest.websiteId, manifest.crawlId), CURRENT_FILE);
  throw new LoadError(
    `${current}: crawl ${manifest.crawlId} of website "${manifest.websiteId}" is already loaded (load ${live.loadId}); use --replace to load it again`,
    'already-loaded',
  );
}

/** Under the lock: the crawl's live load, which this one may replace; a refresh must still find the load it copies. */
function readLoadToReplace(
  dataDir: string,
  source: LoadSource,
  manifest: Manifest,
  isReplace: boolean,
): LiveCrawl | undefined {
  const { websiteId, crawlId } = manifest;
  const existing = readCurrentLoad(dataDir, websiteId, crawlId);
  if (existing && !isReplace) refuseIfLoaded(dataDir, manifest);
  if (source.kind === 'refresh' && existing?.loadId !== source.live.loadId)
    throw new LoadError(
      `${crawlDir(dataDir, websiteId, crawlId)}: crawl ${crawlId} of website "${websiteId}" changed while waiting for the load lock; run the refresh again`,
      'not-loaded',
    );
  return existing;
}

interface BuiltDatabase extends TableCounts {
  sources: JoinedSources;
  /** Joined source rows changed, so this is new data (see refreshedCrawlMeta). */
  isDataChanged: boolean;
}

/**
 * The crawl database of the partial load: the export's tables (or a copy of the live load's), the website's
 * imported sources joined over its data window, reports precomputed (all of them again when the joined rows changed).
 */
async function buildDatabase(
  dataDir: string,
  partialDir: string,
  source: LoadSource,
  previous: LiveCrawl | undefined,
  options: LoadOptions,
  progress: Progress,
  interrupter: Interrupter,
): Promise<BuiltDatabase> {
  const dbFile = path.join(partialDir, CRAWL_DB_FILE);
  if (source.kind === 'refresh') fs.copyFileSync(source.live.dbFile, dbFile);
  let db: DuckDBInstance | undefined = await openLoadDatabase(dbFile, options.memoryLimit);
  let conn: DuckDBConnection | undefined;
  try {
    conn = await db.connect();
    interrupter.watch(conn);
    // ORDER BY in CREATE TABLE ... AS becomes the stored row order only while insertion order is preserved.
    await conn.run('SET preserve_insertion_order = true');
    if (source.kind === 'refresh') await addMissingTables(conn);
    const counts =
      source.kind === 'export'
        ? await loadTables(conn, source.plan, progress, interrupter)
        : { tables: source.meta.tables, addedUrls: 0 };
    const before = source.kind === 'export' ? joinedFromTables(counts.tables) : joinedOf(source.meta);
    const join = await joinSources(conn, dataDir, manifestOf(source), before);
    // Only rows the reports read make new data; Keyword Planner, Trends and the property's totals feed the query
    // report alone, which reads them live. A source connected or removed with no rows in the window changes no row,
    // but its boolean metrics (not found or empty): the reports are computed again either way.
    const isReportDataChanged = join.changedTables.some((t) => ENGINE_SOURCE_TABLES.has(t));
    const reportSources = (joined: JoinedSources): string => reportSourcesOf(sourceIdsOf(joined)).join();
    const isConnectionChanged = reportSources(before) !== reportSources(join.joined);
    if ((isReportDataChanged || isConnectionChanged) && source.kind === 'refresh')
      await conn.run(`DROP TABLE IF EXISTS ${REPORT_COUNTS_TABLE}`);
    if (join.changedTables.length > 0) {
      const urls = await conn.runAndReadAll('SELECT count(*) FROM "urls"');
      join.tables.urls = Number(urls.getRowsJS()[0]?.[0] ?? 0);
    }

    interrupter.check();
    progress.step('precompute', 'precomputing reports');
    if (options.memoryLimit === undefined) await conn.run(`SET memory_limit = '${PRECOMPUTE_MEMORY_LIMIT}'`);
    await precomputeCrawl(conn, {
      manifest: manifestOf(source),
      previous: previous ? { crawlId: previous.crawlId, dbFile: previous.dbFile } : undefined,
      sources: join.joined,
    });
    interrupter.check();
    progress.step('commit', 'publishing');
    await conn.run('CHECKPOINT');
    interrupter.unwatch(conn);
    conn.closeSync();
    conn = undefined;
    db.closeSync();
    db = undefined;
    fs.rmSync(path.join(partialDir, `${CRAWL_DB_FILE}.tmp`), { recursive: true, force: true });
    return {
      tables: { ...counts.tables, ...join.tables },
      addedUrls: counts.addedUrls,
      sources: join.joined,
      isDataChanged: isReportDataChanged || isConnectionChanged,
    };
  } finally {
    if (conn) interrupter.unwatch(conn);
    closeQuietly(conn, db);
  }
}

const joinedOf = (meta: CrawlMeta): JoinedSources => meta.sources ?? joinedFromTables(meta.tables);

/** crawl.json beside the database, both synced to disk before the load is renamed into place. */
function writeCrawlMeta(partialDir: string, meta: CrawlMeta): void {
  writeFileAtomic(path.join(partialDir, CRAWL_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
  fsyncFile(path.join(partialDir, CRAWL_DB_FILE));
  fsyncDir(partialDir);
}
