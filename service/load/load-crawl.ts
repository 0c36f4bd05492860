/**
 * Loads one crawl export into the store (service/store/layout.ts). Everything is validated before the store is
 * touched; the new load is then built in `<crawlId>/<loadId>.partial/` under the website's load lock, renamed to
 * `<loadId>/` and published by rewriting CURRENT, so a crash at any point leaves either the old state or the
 * new one, and the next load removes the leftovers. The loader only ever writes its own new files: crawls the
 * service has attached READ_ONLY are never opened for writing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { format } from 'date-fns';
import { exportTables, type Manifest } from '../../catalog/export-contract.ts';
import { registerWebsite, type WebsiteRegistration } from '../app-db/register-website.ts';
import { openDatabase, quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { precomputeCrawl } from '../engine/precompute.ts';
import { STORE_LAYOUT, crawlMetaSchema, dataIdOf, type CrawlMeta } from '../store/crawl-meta.ts';
import {
  CRAWL_DB_FILE,
  CRAWL_META_FILE,
  CURRENT_FILE,
  PARTIAL_SUFFIX,
  WEBSITE_FILE,
  crawlDir,
  listLiveCrawls,
  listWebsites,
  readCurrentLoad,
  storeDir,
  websiteDir,
  writeFileAtomic,
  type LiveCrawl,
  readCrawlMeta,
} from '../store/layout.ts';
import { firstLine } from '../error-text.ts';
import { LoadError } from './load-error.ts';
import { acquireLoadLock, acquireSharedLoadLock, type LoadLock, type SharedLoadLock } from './load-lock.ts';
import {
  cleanupLeftovers,
  findPreviousCrawl,
  fsyncDir,
  fsyncFile,
  newLoadId,
  websiteFromStartUrl,
} from './store-files.ts';
import { readManifest, validateExport, type ExportPlan, type TablePlan } from './validate-export.ts';

export { LoadError, type LoadErrorKind } from './load-error.ts';

/** Enough for a 1M-URL / 20M-link export on 2 cores: DuckDB spills sorts and aggregates beyond it to disk. */
export const DEFAULT_MEMORY_LIMIT = '2GB';
const INTERRUPT_REPEAT_MS = 50;

export interface LoadOptions {
  dataDir: string;
  exportDir: string;
  /** Replace the crawl's live load instead of refusing when the crawl is already loaded. */
  replace?: boolean;
  onProgress?: (progress: LoadProgress) => void;
  /** Aborting interrupts the running query, removes the partial load and rejects with a LoadError. */
  signal?: AbortSignal;
  /** DuckDB memory_limit while validating and loading. */
  memoryLimit?: string;
  /** The app database's PostgreSQL server, whose advisory lock keeps loads on other hosts out (DATABASE_URL). */
  databaseUrl?: string;
}

export type LoadPhase = 'validate' | 'load' | 'precompute' | 'commit' | 'done';

export interface LoadProgress {
  phase: LoadPhase;
  label: string;
  /** Steps finished so far, of `total`. */
  completed: number;
  total: number;
}

export interface LoadResult {
  websiteId: string;
  crawlId: number;
  loadId: string;
  /** The live load directory. */
  dir: string;
  dbFile: string;
  /** Row count per table, as in crawl.json. */
  tables: Record<string, number>;
  /** URLs added to `urls` because only search console or analytics knew them. */
  addedUrls: number;
  previousCrawlId: number | null;
  /** The load that --replace superseded (its directory is gone). */
  replacedLoadId: string | null;
  /** The next newer crawl, precomputed again because its previous crawl is now this one. */
  refreshedCrawlId: number | null;
  /** What became of the website in the app database (absent for a refresh, which adds no website). */
  websiteRegistration?: WebsiteRegistration;
  seconds: number;
}

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

export interface RefreshOptions extends Omit<LoadOptions, 'exportDir' | 'replace'> {
  websiteId: string;
  crawlId: number;
}

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

interface ActiveLoad {
  lock: LoadLock | undefined;
  sharedLock?: SharedLoadLock;
  /** The load directory being built: `<loadId>.partial`, or `<loadId>` between the rename and CURRENT. */
  buildDir: string | undefined;
  isCommitted: boolean;
}

const activeLoads = new Set<ActiveLoad>();

/**
 * For a process that must exit now (a second Ctrl-C, a stuck query): removes every unfinished load's directory
 * and lock synchronously. Anything it misses is removed by the next load of that website.
 */
export function abandonActiveLoadsSync(): void {
  for (const load of activeLoads) {
    if (!load.isCommitted && load.buildDir) fs.rmSync(load.buildDir, { recursive: true, force: true });
    load.lock?.release();
  }
  activeLoads.clear();
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

function refuseIfLoaded(dataDir: string, manifest: Manifest): void {
  const live = readCurrentLoad(dataDir, manifest.websiteId, manifest.crawlId);
  if (!live) return;
  const current = path.join(crawlDir(dataDir, manifest.websiteId, manifest.crawlId), CURRENT_FILE);
  throw new LoadError(
    `${current}: crawl ${manifest.crawlId} of website "${manifest.websiteId}" is already loaded (load ${live.loadId}); use --replace to load it again`,
    'already-loaded',
  );
}

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
    db = await openDatabase(':memory:', {
      memoryLimit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      threads: os.availableParallelism(),
    });
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

/** What a new load is built from: a validated export, or a live load whose data is copied as it is. */
type LoadSource =
  { kind: 'export'; plan: ExportPlan } | { kind: 'refresh'; live: LiveCrawl; meta: CrawlMeta; keep: readonly string[] };

/**
 * What writeCrawl reports of the load it published; a load of an export keeps the load it replaced (`replaced`)
 * on disk for withdrawLoad, a refresh removes it.
 */
type Written = Published & { replaced: LiveCrawl | undefined };
type Published = Omit<LoadResult, 'seconds' | 'refreshedCrawlId'>;

async function writeCrawl(
  dataDir: string,
  source: LoadSource,
  options: LoadOptions,
  progress: Progress,
  interrupter: Interrupter,
): Promise<Written> {
  const manifest = source.kind === 'export' ? source.plan.manifest : source.meta.manifest;
  const { websiteId, crawlId } = manifest;
  const websitePath = websiteDir(dataDir, websiteId);
  const crawlPath = crawlDir(dataDir, websiteId, crawlId);
  const createdDirs: string[] = [];
  const makeDir = (dir: string): void => {
    if (fs.existsSync(dir)) return;
    fs.mkdirSync(dir);
    createdDirs.push(dir);
    fsyncDir(path.dirname(dir));
  };
  const active: ActiveLoad = { lock: undefined, buildDir: undefined, isCommitted: false };
  activeLoads.add(active);
  let db: DuckDBInstance | undefined;
  let conn: DuckDBConnection | undefined;
  let wroteWebsite = false;
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    makeDir(storeDir(dataDir));
    makeDir(websitePath);
    active.lock = acquireLoadLock(websitePath, websiteId);
    const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
    if (databaseUrl) active.sharedLock = await acquireSharedLoadLock(databaseUrl, websitePath, websiteId);

    const existing = readCurrentLoad(dataDir, websiteId, crawlId);
    if (existing && !options.replace) refuseIfLoaded(dataDir, manifest);
    if (source.kind === 'refresh' && existing?.loadId !== source.live.loadId)
      throw new LoadError(
        `${crawlPath}: crawl ${crawlId} of website "${websiteId}" changed while waiting for the load lock; run the refresh again`,
        'not-loaded',
      );
    cleanupLeftovers(websitePath, source.kind === 'refresh' ? source.keep : []);
    const previous = findPreviousCrawl(dataDir, websitePath, websiteId, crawlId);

    makeDir(crawlPath);
    const loadId = newLoadId();
    const partialDir = path.join(crawlPath, `${loadId}${PARTIAL_SUFFIX}`);
    fs.mkdirSync(partialDir);
    active.buildDir = partialDir;

    if (source.kind === 'refresh') fs.copyFileSync(source.live.dbFile, path.join(partialDir, CRAWL_DB_FILE));
    db = await openDatabase(path.join(partialDir, CRAWL_DB_FILE), {
      memoryLimit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      threads: os.availableParallelism(),
    });
    conn = await db.connect();
    interrupter.watch(conn);
    // ORDER BY in CREATE TABLE ... AS becomes the stored row order only while insertion order is preserved.
    await conn.run('SET preserve_insertion_order = true');
    const { tables, addedUrls } =
      source.kind === 'export'
        ? await loadTables(conn, source.plan, progress, interrupter)
        : { tables: source.meta.tables, addedUrls: 0 };

    interrupter.check();
    progress.step('precompute', 'precomputing reports');
    await precomputeCrawl(conn, {
      manifest,
      previous: previous ? { crawlId: previous.crawlId, dbFile: previous.dbFile } : undefined,
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

    const meta: CrawlMeta = crawlMetaSchema.parse(
      source.kind === 'export'
        ? ({
            layout: STORE_LAYOUT,
            manifest,
            loadId,
            loadedAt: new Date().toISOString(),
            crawledFriendly: friendlyDate(manifest.crawledAt),
            moduleState: 'PENDING',
            tables,
            previousCrawlId: previous?.crawlId ?? null,
          } satisfies CrawlMeta)
        : ({
            ...source.meta,
            layout: STORE_LAYOUT,
            loadId,
            previousCrawlId: previous?.crawlId ?? null,
            dataId: dataIdOf(source.meta),
          } satisfies CrawlMeta),
    );
    writeFileAtomic(path.join(partialDir, CRAWL_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
    fsyncFile(path.join(partialDir, CRAWL_DB_FILE));
    fsyncDir(partialDir);

    interrupter.check();
    const loadDir = path.join(crawlPath, loadId);
    fs.renameSync(partialDir, loadDir);
    active.buildDir = loadDir;
    fsyncDir(crawlPath);

    const websiteFile = path.join(websitePath, WEBSITE_FILE);
    if (!fs.existsSync(websiteFile)) {
      writeFileAtomic(websiteFile, `${JSON.stringify(websiteFromStartUrl(websiteId, manifest.startUrl), null, 2)}\n`);
      wroteWebsite = true;
      fsyncDir(websitePath);
    }
    interrupter.check();
    writeFileAtomic(path.join(crawlPath, CURRENT_FILE), loadId);
    active.isCommitted = true;
    // Published: from here a failure must not fail the load; whatever is left, the next load removes.
    afterCommit(() => fsyncDir(crawlPath));
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
      previousCrawlId: previous?.crawlId ?? null,
      replacedLoadId: existing?.loadId ?? null,
      replaced: existing,
    };
  } catch (error) {
    if (!active.isCommitted) {
      if (conn) interrupter.unwatch(conn);
      closeQuietly(conn, db);
      conn = undefined;
      db = undefined;
      if (active.buildDir) fs.rmSync(active.buildDir, { recursive: true, force: true });
      if (wroteWebsite) fs.rmSync(path.join(websitePath, WEBSITE_FILE), { force: true });
    }
    throw interrupter.translate(error);
  } finally {
    if (conn) interrupter.unwatch(conn);
    closeQuietly(conn, db);
    active.lock?.release();
    if (active.isCommitted) await active.sharedLock?.announce();
    await active.sharedLock?.release();
    activeLoads.delete(active);
    if (!active.isCommitted) {
      for (const dir of createdDirs.reverse()) removeIfEmpty(dir);
    }
  }
}

async function loadTables(
  conn: DuckDBConnection,
  plan: ExportPlan,
  progress: Progress,
  interrupter: Interrupter,
): Promise<{ tables: Record<string, number>; addedUrls: number }> {
  if (plan.tables.some((t) => t.needsUtc)) await conn.run(`SET TimeZone = 'UTC'`);
  const urlsPlan = plan.tables.find((t) => t.table.id === 'urls');
  for (const table of [...plan.tables.filter((t) => t !== urlsPlan), ...(urlsPlan ? [urlsPlan] : [])]) {
    interrupter.check();
    progress.step('load', `loading ${table.table.id}`);
    const sql = table === urlsPlan ? createUrlsSql(table, plan) : createTableSql(table);
    try {
      await conn.run(sql);
    } catch (error) {
      if (interrupter.isAborted) throw error;
      throw new LoadError(`${table.file}: could not be loaded (${firstLine(error)})`, 'invalid-export', {
        cause: error,
      });
    }
  }
  const tables: Record<string, number> = {};
  for (const table of plan.tables) {
    const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM ${quoteIdent(table.table.id)}`);
    tables[table.table.id] = Number(reader.getRowObjectsJS()[0]?.n ?? 0);
  }
  return { tables, addedUrls: (tables.urls ?? 0) - (urlsPlan?.rowCount ?? 0) };
}

/** The column list of a table: contract columns (widened by CAST, absent ones as typed NULLs), then extras. */
function projection(table: TablePlan): string {
  return table.columns
    .map((c) => {
      const name = quoteIdent(c.name);
      if (c.source === 'absent') return `CAST(NULL AS ${c.type}) AS ${name}`;
      if (c.source === 'widening') return `CAST(${name} AS ${c.type}) AS ${name}`;
      return name;
    })
    .join(', ');
}

const orderBy = (table: TablePlan): string => table.table.key.map(quoteIdent).join(', ');

export function createTableSql(table: TablePlan): string {
  const name = quoteIdent(table.table.id);
  if (!table.isPresent) {
    return `CREATE TABLE ${name} (${table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`;
  }
  return `CREATE TABLE ${name} AS SELECT ${projection(table)} FROM read_parquet(${quoteLiteral(table.file)}) ORDER BY ${orderBy(table)}`;
}

/**
 * `urls` plus every URL the search console or analytics source knows that the crawl does not (catalogue guide
 * §5.6): not found in the web crawl, internal when on the start URL's host, every crawl column NULL. When the
 * export carries found_in_sitemap it covers every sitemap URL, so those rows are also not in a sitemap.
 */
export function createUrlsSql(urls: TablePlan, plan: ExportPlan): string {
  const sources = plan.tables.filter(
    (t) => (t.table.id === 'search_console' || t.table.id === 'analytics') && t.isPresent,
  );
  if (sources.length === 0) return createTableSql(urls);
  const file = `read_parquet(${quoteLiteral(urls.file)})`;
  const host = new URL(plan.manifest.startUrl).hostname.toLowerCase();
  const hostOf = `lower(regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]*)', 1))`;
  const hasSitemapFlag = urls.columns.some((c) => c.name === 'found_in_sitemap' && c.source !== 'absent');
  const sourceUrls = sources.map((t) => `SELECT url FROM ${quoteIdent(t.table.id)}`).join(' UNION ');
  return `CREATE TABLE "urls" AS SELECT * FROM (
      SELECT ${projection(urls)} FROM ${file}
      UNION ALL BY NAME
      SELECT url, ${hostOf} = ${quoteLiteral(host)} AS internal, FALSE AS found_in_web_crawl
        ${hasSitemapFlag ? ', FALSE AS found_in_sitemap' : ''}
      FROM ((${sourceUrls}) EXCEPT SELECT url FROM ${file})
    ) ORDER BY ${orderBy(urls)}`;
}

/** 'd MMM yyyy' of the crawl's UTC date, whatever the process time zone. */
export function friendlyDate(isoDateTime: string): string {
  const at = new Date(isoDateTime);
  return format(new Date(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()), 'd MMM yyyy');
}

function afterCommit(step: () => void): void {
  try {
    step();
  } catch {
    /* see the caller */
  }
}

function closeQuietly(conn: DuckDBConnection | undefined, db: DuckDBInstance | undefined): void {
  try {
    conn?.closeSync();
  } catch {
    /* already closed */
  }
  try {
    db?.closeSync();
  } catch {
    /* already closed */
  }
}

function removeIfEmpty(dir: string): void {
  try {
    if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  } catch {
    /* gone or in use: the next load tidies up */
  }
}

class Progress {
  #completed = 0;

  constructor(
    readonly listener: ((progress: LoadProgress) => void) | undefined,
    readonly total: number,
  ) {}

  step(phase: LoadPhase, label: string): void {
    const completed = phase === 'done' ? this.total : this.#completed++;
    this.listener?.({ phase, label, completed: Math.min(completed, this.total), total: this.total });
  }
}

/**
 * Turns an AbortSignal into interrupts of the running DuckDB queries and a LoadError. DuckDB clears an
 * interrupt when the next query starts, so it is repeated until the load stops: precompute runs many queries.
 */
class Interrupter {
  readonly #conns = new Set<DuckDBConnection>();
  #timer: NodeJS.Timeout | undefined;
  readonly #interruptAll = (): void => {
    for (const conn of this.#conns) {
      try {
        conn.interrupt();
      } catch {
        this.#conns.delete(conn);
      }
    }
  };
  readonly #onAbort = (): void => {
    this.#interruptAll();
    this.#timer ??= setInterval(this.#interruptAll, INTERRUPT_REPEAT_MS);
    this.#timer.unref();
  };

  constructor(readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', this.#onAbort);
  }

  get isAborted(): boolean {
    return this.signal?.aborted === true;
  }

  watch(conn: DuckDBConnection): void {
    this.#conns.add(conn);
  }

  unwatch(conn: DuckDBConnection): void {
    this.#conns.delete(conn);
  }

  check(): void {
    if (this.isAborted) throw new LoadError('load interrupted', 'interrupted');
  }

  /** Once aborted, any failure (an interrupted query surfaces as a DuckDB error) reads as the interruption. */
  translate(error: unknown): unknown {
    if (!this.isAborted || (error instanceof LoadError && error.kind === 'interrupted')) return error;
    return new LoadError('load interrupted', 'interrupted', { cause: error });
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.#onAbort);
    clearInterval(this.#timer);
    this.#conns.clear();
  }
}
