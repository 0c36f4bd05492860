/**
 * The crawl registry in the app database: one row per crawl the service has seen, holding its moduleState.
 * The loader registers a crawl's initial state in crawl.json; from the first sync on, the app database decides.
 * `CrawlStates` mirrors the rows in memory so access checks stay synchronous; this process's writes update it, and
 * over a shared PostgreSQL server every other replica's write reloads it (AppState.open).
 */
import type { CrawlRegistry } from '../store/registry.ts';
import type { ModuleState } from '../store/crawl-meta.ts';
import type { AppDb, Sql } from './db.ts';
import { ensureWebsite } from './websites.ts';

export interface CrawlState {
  moduleState: ModuleState;
  approvedAt: Date | null;
  approvedBy: string | null;
}

interface CrawlStateRow {
  website_id: string;
  crawl_id: number;
  module_state: ModuleState;
  approved_at: Date | null;
  approved_by: string | null;
}

const keyOf = (websiteId: string, crawlId: number): string => `${websiteId}\u0000${crawlId}`;

export class CrawlStates {
  #states = new Map<string, CrawlState>();

  async reload(sql: Sql): Promise<void> {
    const rows = await sql.all<CrawlStateRow>(
      'SELECT website_id, crawl_id, module_state, approved_at, approved_by FROM crawl_registry',
    );
    this.#states = new Map(
      rows.map((r) => [
        keyOf(r.website_id, r.crawl_id),
        { moduleState: r.module_state, approvedAt: r.approved_at, approvedBy: r.approved_by },
      ]),
    );
  }

  get(websiteId: string, crawlId: number): CrawlState | undefined {
    return this.#states.get(keyOf(websiteId, crawlId));
  }

  /** The crawl's moduleState; a crawl not synced yet counts as PENDING, so nobody outside sees it early. */
  moduleStateOf(websiteId: string, crawlId: number): ModuleState {
    return this.get(websiteId, crawlId)?.moduleState ?? 'PENDING';
  }

  set(websiteId: string, crawlId: number, state: CrawlState): void {
    this.#states.set(keyOf(websiteId, crawlId), state);
  }
}

export interface CrawlArrival {
  websiteId: string;
  crawlId: number;
  moduleState: ModuleState;
  crawledAt: Date;
  crawledFriendly: string;
  loadedAt: Date;
}

/** Records crawls not seen before, in the state the loader registered; known crawls keep theirs. */
export async function registerCrawls(tx: Sql, crawls: readonly CrawlArrival[], now: Date): Promise<number> {
  let added = 0;
  for (const c of crawls) {
    const known = await tx.all('SELECT 1 FROM crawl_registry WHERE website_id = ? AND crawl_id = ?', [
      c.websiteId,
      c.crawlId,
    ]);
    if (known.length > 0) continue;
    const isApproved = c.moduleState === 'APPROVED';
    const inserted = await tx.all(
      'INSERT INTO crawl_registry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1',
      [
        c.websiteId,
        c.crawlId,
        c.moduleState,
        c.crawledAt,
        c.crawledFriendly,
        c.loadedAt,
        now,
        isApproved ? c.loadedAt : null,
        isApproved ? 'loader' : null,
      ],
    );
    added += inserted.length;
  }
  if (added > 0) await tx.changed('crawl-registry');
  return added;
}

/**
 * Brings the app database up to the crawl store: websites first seen get their defaults, crawls first seen are
 * registered. Run at start and on every registry change.
 */
export async function syncRegistry(
  appDb: AppDb,
  registry: CrawlRegistry,
  states: CrawlStates,
  now: Date,
): Promise<{ websites: string[]; crawls: number }> {
  const result = await appDb.transaction(async (tx) => {
    const websites: string[] = [];
    for (const website of registry.websites()) if (await ensureWebsite(tx, website, now)) websites.push(website.id);
    const arrivals = registry.websites().flatMap((w) =>
      registry.crawls(w.id).map((c): CrawlArrival => ({
        websiteId: c.websiteId,
        crawlId: c.crawlId,
        moduleState: c.meta.moduleState,
        crawledAt: new Date(c.meta.manifest.crawledAt),
        crawledFriendly: c.meta.crawledFriendly,
        loadedAt: new Date(c.meta.loadedAt),
      })),
    );
    return { websites, crawls: await registerCrawls(tx, arrivals, now) };
  });
  await states.reload(appDb);
  return result;
}
