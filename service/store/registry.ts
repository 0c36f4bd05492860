/**
 * The service's view of the crawl store: every live crawl's database ATTACHed read-only into one in-memory
 * DuckDB instance under a stable alias. `refresh()` picks up loads, replacements and removals made by the
 * loader in another process, so a new crawl is served without a restart. A folder this build cannot read is
 * skipped with one warning; every other crawl keeps being served.
 */
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { exportTables } from '../../catalog/export-contract.ts';
import { defaultComparison, partialReasonOf } from '../../catalog/crawl-label.ts';
import { openDatabase, quoteIdent, quoteLiteral, withConnection } from '../db/duckdb.ts';
import { firstLine } from '../error-text.ts';
import type { CrawlMeta } from './crawl-meta.ts';
import { missingTables } from './missing-tables.ts';
import { scanStore, type LiveCrawl, type MetaCache, type StoredWebsite, type UnreadableFolder } from './layout.ts';

export interface CrawlRecord {
  websiteId: string;
  crawlId: number;
  loadId: string;
  /** The catalog alias the crawl's tables live under: `"<alias>".urls`. */
  alias: string;
  meta: CrawlMeta;
  /** The contract's source tables its database lacks: loaded before the contract had them, until refreshed. */
  missingTables: readonly string[];
}

type ChangeListener = () => void;

/** Whether a website's scanned loads are part way through a refresh, to be served from the loads served before. */
export type MidRefreshTest = (dataDir: string, websiteId: string, crawls: readonly LiveCrawl[]) => boolean;

export interface RegistryOptions {
  /**
   * Required, so that no registry serves a mix of old and new loads by leaving it out. It reads the sources' versions,
   * a floor above the store (service/source-data/mid-refresh.ts isMidRefresh).
   */
  isMidRefresh: MidRefreshTest;
  /** Told once about each folder this build cannot read (default: console.warn). */
  warn?: (line: string) => void;
}

export class CrawlRegistry {
  #websites: StoredWebsite[] = [];
  #crawls = new Map<string, CrawlRecord[]>();
  /** Attached databases by alias, with the source tables each lacks. */
  #attached = new Map<string, { dbFile: string; missingTables: readonly string[] }>();
  /** The loads served since the last scan, by alias: kept for a website while its refresh is part way through. */
  #served = new Map<string, LiveCrawl>();
  /** Loads whose database would not attach, by alias: a load never changes, so it is not tried again. */
  #broken = new Map<string, UnreadableFolder>();
  #unreadable: UnreadableFolder[] = [];
  readonly #metas: MetaCache = new Map();
  #warned = new Set<string>();
  #listeners = new Set<ChangeListener>();
  #refreshing: Promise<boolean> | undefined;
  #refreshingAgain: Promise<boolean> | undefined;
  readonly #warn: (line: string) => void;
  readonly #isMidRefresh: MidRefreshTest;

  constructor(
    readonly dataDir: string,
    readonly db: DuckDBInstance,
    options: RegistryOptions,
  ) {
    this.#warn = options.warn ?? ((line) => console.warn(line));
    this.#isMidRefresh = options.isMidRefresh;
  }

  static async open(dataDir: string, db: DuckDBInstance, options: RegistryOptions): Promise<CrawlRegistry> {
    const registry = new CrawlRegistry(dataDir, db, options);
    await registry.refresh();
    return registry;
  }

  websites(): StoredWebsite[] {
    return this.#websites;
  }

  website(websiteId: string): StoredWebsite | undefined {
    return this.#websites.find((w) => w.id === websiteId);
  }

  /** Live crawls of a website, newest first. */
  crawls(websiteId: string): CrawlRecord[] {
    return this.#crawls.get(websiteId) ?? [];
  }

  crawl(websiteId: string, crawlId: number): CrawlRecord | undefined {
    return this.crawls(websiteId).find((c) => c.crawlId === crawlId);
  }

  /** The default comparison: the next older live crawl that is not partial (catalog/crawl-label.ts). */
  previous(websiteId: string, crawlId: number): CrawlRecord | undefined {
    return defaultComparison(this.crawls(websiteId), crawlId, (c) => partialReasonOf(c.meta.manifest) !== null);
  }

  /** The folders the last scan skipped, and why. */
  unreadable(): readonly UnreadableFolder[] {
    return this.#unreadable;
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Re-reads the store; concurrent callers share one pass. A call during a pass may be about a change that pass
   * has read past, so it waits for the one pass after it (shared too). Resolves true when anything changed.
   */
  refresh(): Promise<boolean> {
    if (this.#refreshing)
      return (this.#refreshingAgain ??= this.#refreshing.then(
        () => ((this.#refreshingAgain = undefined), this.refresh()),
      ));
    this.#refreshing = this.#scan().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #scan(): Promise<boolean> {
    const scan = scanStore(this.dataDir, this.#metas);
    const wanted = new Map(
      this.#heldMidRefresh(scan.crawls)
        .map((c) => [aliasOf(c.websiteId, c.crawlId, c.loadId), c] as const)
        .filter(([alias]) => !this.#broken.has(alias)),
    );
    let changed = false;
    const isSame = this.#attached.size === wanted.size && [...wanted.keys()].every((a) => this.#attached.has(a));
    // A scan that finds nothing new must not take a connection: that waits for a libuv thread behind report queries.
    if (!isSame)
      await withConnection(this.db, async (conn) => {
        for (const [alias] of this.#attached) {
          if (wanted.has(alias)) continue;
          await conn.run(`DETACH DATABASE IF EXISTS ${quoteIdent(alias)}`);
          this.#attached.delete(alias);
          changed = true;
        }
        for (const [alias, crawl] of wanted) {
          if (this.#attached.has(alias)) continue;
          const attached = await attachCrawl(conn, crawl.dbFile, alias);
          if ('problem' in attached) {
            const reason = `${path.relative(path.dirname(crawl.dir), crawl.dbFile)} is not a readable crawl database (${attached.problem})`;
            this.#broken.set(alias, { dir: path.dirname(crawl.dir), reason });
            wanted.delete(alias);
            continue;
          }
          this.#attached.set(alias, { dbFile: crawl.dbFile, missingTables: attached.missingTables });
          changed = true;
        }
      });
    const crawls = new Map<string, CrawlRecord[]>();
    for (const [alias, c] of wanted) {
      const list = crawls.get(c.websiteId) ?? [];
      const missingTables = this.#attached.get(alias)?.missingTables ?? [];
      list.push({ websiteId: c.websiteId, crawlId: c.crawlId, loadId: c.loadId, alias, meta: c.meta, missingTables });
      crawls.set(c.websiteId, list);
    }
    for (const list of crawls.values()) list.sort((a, b) => b.crawlId - a.crawlId);
    this.#crawls = crawls;
    this.#served = new Map(wanted);
    const live = new Set(scan.crawls.map((c) => aliasOf(c.websiteId, c.crawlId, c.loadId)));
    for (const alias of this.#broken.keys()) if (!live.has(alias)) this.#broken.delete(alias);
    this.#report([...scan.unreadable, ...this.#broken.values()]);
    if (JSON.stringify(scan.websites) !== JSON.stringify(this.#websites)) changed = true;
    this.#websites = scan.websites;
    if (changed) for (const listener of this.#listeners) listener();
    return changed;
  }

  /** The scanned loads, with a website part way through a refresh served from the loads served before it began. */
  #heldMidRefresh(scanned: LiveCrawl[]): LiveCrawl[] {
    const byWebsite = new Map<string, LiveCrawl[]>();
    for (const crawl of scanned) byWebsite.set(crawl.websiteId, [...(byWebsite.get(crawl.websiteId) ?? []), crawl]);
    return [...byWebsite].flatMap(([websiteId, crawls]) => {
      const before = [...this.#served.values()].filter((c) => c.websiteId === websiteId);
      const isSame = before.length === crawls.length && crawls.every((c) => before.some((b) => b.dir === c.dir));
      return before.length > 0 && !isSame && this.#isMidRefresh(this.dataDir, websiteId, crawls) ? before : crawls;
    });
  }

  /** Warns once per folder and reason; a folder that is fixed and breaks again is named again. */
  #report(unreadable: UnreadableFolder[]): void {
    this.#unreadable = unreadable.sort((a, b) => a.dir.localeCompare(b.dir));
    const lines = new Set(unreadable.map((u) => `${u.dir}: ${u.reason}; skipped`));
    for (const line of lines) if (!this.#warned.has(line)) this.#warn(line);
    this.#warned = lines;
  }
}

/**
 * Attaches a crawl database READ_ONLY; a file DuckDB cannot open, or one without the contract's crawl tables, is not.
 * A crawl loaded before the contract gained a source table is served without it (read as not imported, the query
 * report checks) until `load-crawl --refresh` adds it.
 */
async function attachCrawl(
  conn: DuckDBConnection,
  dbFile: string,
  alias: string,
): Promise<{ problem: string } | { missingTables: string[] }> {
  try {
    await conn.run(`ATTACH ${quoteLiteral(dbFile)} AS ${quoteIdent(alias)} (READ_ONLY)`);
  } catch (error) {
    return { problem: firstLine(error) };
  }
  const missing = await missingTables(conn, alias);
  const crawlTables = missing.filter((id) => exportTableKinds.get(id) !== 'source');
  if (crawlTables.length === 0) return { missingTables: missing };
  await conn.run(`DETACH DATABASE IF EXISTS ${quoteIdent(alias)}`);
  return { problem: `no table ${crawlTables.join(', ')}` };
}

const exportTableKinds = new Map(exportTables.map((t) => [t.id as string, t.kind]));

/** What the service would serve of the store and what it would skip, read the way the service reads it. */
export async function checkStore(
  dataDir: string,
): Promise<{ crawls: number; unreadable: readonly UnreadableFolder[] }> {
  const db = await openDatabase();
  try {
    // One scan has served nothing before it, so there is nothing to hold.
    const registry = await CrawlRegistry.open(dataDir, db, { warn: () => undefined, isMidRefresh: () => false });
    const crawls = registry.websites().reduce((n, w) => n + registry.crawls(w.id).length, 0);
    return { crawls, unreadable: registry.unreadable() };
  } finally {
    db.closeSync();
  }
}

const aliasOf = (websiteId: string, crawlId: number, loadId: string): string =>
  `crawl_${websiteId.replaceAll('-', '_')}_${crawlId}_${loadId.replaceAll('-', '_')}`;
