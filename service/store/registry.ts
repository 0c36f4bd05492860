/**
 * The service's view of the crawl store: every live crawl's database ATTACHed read-only into one in-memory
 * DuckDB instance under a stable alias. `refresh()` picks up loads, replacements and removals made by the
 * loader in another process, so a new crawl is served without a restart.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral, withConnection } from '../db/duckdb.ts';
import type { CrawlMeta } from './crawl-meta.ts';
import { listLiveCrawls, listWebsites, readCrawlMeta, type StoredWebsite } from './layout.ts';

export interface CrawlRecord {
  websiteId: string;
  crawlId: number;
  loadId: string;
  /** The catalog alias the crawl's tables live under: `"<alias>".urls`. */
  alias: string;
  meta: CrawlMeta;
}

type ChangeListener = () => void;

export class CrawlRegistry {
  #websites: StoredWebsite[] = [];
  #crawls = new Map<string, CrawlRecord[]>();
  #attached = new Map<string, string>();
  #metas = new Map<string, CrawlMeta>();
  #listeners = new Set<ChangeListener>();
  #refreshing: Promise<boolean> | undefined;

  constructor(
    readonly dataDir: string,
    readonly db: DuckDBInstance,
  ) {}

  static async open(dataDir: string, db: DuckDBInstance): Promise<CrawlRegistry> {
    const registry = new CrawlRegistry(dataDir, db);
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

  /** The next older live crawl, the default comparison. */
  previous(websiteId: string, crawlId: number): CrawlRecord | undefined {
    return this.crawls(websiteId).find((c) => c.crawlId < crawlId);
  }

  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Re-reads the store; concurrent callers share one pass. Resolves true when anything changed. */
  refresh(): Promise<boolean> {
    this.#refreshing ??= this.#scan().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  async #scan(): Promise<boolean> {
    const live = listLiveCrawls(this.dataDir);
    const wanted = new Map(live.map((c) => [aliasOf(c.websiteId, c.crawlId, c.loadId), c]));
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
          await conn.run(`ATTACH ${quoteLiteral(crawl.dbFile)} AS ${quoteIdent(alias)} (READ_ONLY)`);
          this.#attached.set(alias, crawl.dbFile);
          changed = true;
        }
      });
    const crawls = new Map<string, CrawlRecord[]>();
    const metas = new Map<string, CrawlMeta>();
    for (const [alias, c] of wanted) {
      // A load directory never changes once published, so its crawl.json is read once.
      const meta = this.#metas.get(alias) ?? readCrawlMeta(c.dir);
      metas.set(alias, meta);
      const list = crawls.get(c.websiteId) ?? [];
      list.push({ websiteId: c.websiteId, crawlId: c.crawlId, loadId: c.loadId, alias, meta });
      crawls.set(c.websiteId, list);
    }
    for (const list of crawls.values()) list.sort((a, b) => b.crawlId - a.crawlId);
    this.#crawls = crawls;
    this.#metas = metas;
    const websites = listWebsites(this.dataDir);
    if (JSON.stringify(websites) !== JSON.stringify(this.#websites)) changed = true;
    this.#websites = websites;
    if (changed) for (const listener of this.#listeners) listener();
    return changed;
  }
}

const aliasOf = (websiteId: string, crawlId: number, loadId: string): string =>
  `crawl_${websiteId.replaceAll('-', '_')}_${crawlId}_${loadId.replaceAll('-', '_')}`;
