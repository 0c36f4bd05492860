/**
 * Which live crawls need their reports precomputed again, and why: precomputed by another engine version, from
 * report definitions that changed since, or diffed against data that is no longer their next older crawl (an
 * older crawl loaded later, or a --replace). The engine serves such crawls with live queries until refreshed.
 */
import { catalog } from '../../catalog/index.ts';
import { openDatabase, quoteLiteral, withConnection } from '../db/duckdb.ts';
import { PRECOMPUTE_VERSION, readPrecomputed, type StoredPrecompute } from '../engine/stored-precompute.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { lackingSortedCopies } from '../engine/sorted-copies.ts';
import { lackingUrlMatchCopies } from '../engine/url-match.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import { listLiveCrawls, readCrawlMeta } from '../store/layout.ts';
import { missingTables } from '../store/missing-tables.ts';
import type { CrawlMeta } from '../store/crawl-meta.ts';
import { dataSourceIds } from '../../catalog/data-sources.ts';
import { hasNewsFor, markRefreshing } from '../source-data/mid-refresh.ts';
import { readSourceVersion } from '../source-data/source-store.ts';
import { refreshCrawl, type LoadResult, type RefreshOptions } from './load-crawl.ts';

/** Each crawl database is attached under this name while it is checked. */
const ALIAS = 'crawl';

export interface StaleCrawl {
  websiteId: string;
  crawlId: number;
  reason: string;
}

/** "2 things (a, b)": how many, and the first three. */
const counted = (items: readonly string[], noun: string): string =>
  `${items.length} ${noun}${items.length === 1 ? '' : 's'} (${items.slice(0, 3).join(', ')}${items.length > 3 ? ', …' : ''})`;

/** Why a crawl's precomputed reports are out of date; undefined when they are what this build would compute. */
function staleReason(
  stored: StoredPrecompute,
  previous: { crawlId: number; dataId: string } | undefined,
): string | undefined {
  if (stored.version !== PRECOMPUTE_VERSION)
    return `precomputed by engine version ${stored.version || 'before 2'}, this build uses ${PRECOMPUTE_VERSION}`;
  const changed = catalog.reports
    .filter((r) => stored.reports.get(r.id)?.fingerprint !== shapeOf(r).fingerprint)
    .map((r) => r.id);
  if (changed.length > 0) return `${counted(changed, 'report definition')} changed`;
  const [any] = stored.reports.values();
  const storedPrevious = any?.previousCrawlId ?? null;
  if (storedPrevious === (previous?.crawlId ?? null) && (any?.previousDataId ?? null) === (previous?.dataId ?? null)) {
    const unsorted = lackingSortedCopies(stored);
    const unmatched = lackingUrlMatchCopies(stored);
    const lacking = [
      ...(unsorted.length > 0 ? [`${counted(unsorted, 'large row table')} without sorted copies`] : []),
      ...(unmatched.length > 0 ? [`${counted(unmatched, 'large row table')} without URL-match copies`] : []),
    ];
    return lacking.length > 0 ? lacking.join('; ') : undefined;
  }
  return previous
    ? `Added/Removed were diffed against ${storedPrevious === null ? 'no crawl' : `other data of crawl ${storedPrevious}`}, the previous crawl is now crawl ${previous.crawlId}`
    : `Added/Removed were diffed against crawl ${storedPrevious}, which is no longer loaded`;
}

/** A source imported (or an import removed) since the crawl joined it: a refresh that did not finish. */
function unjoinedSources(dataDir: string, meta: CrawlMeta): string | undefined {
  const joined = meta.sources ?? {};
  const newer = dataSourceIds.filter((id) => {
    const version = readSourceVersion(dataDir, meta.manifest.websiteId, id);
    return version !== undefined && hasNewsFor(joined, id, version);
  });
  return newer.length > 0 ? `data imported since it was joined (${newer.join(', ')})` : undefined;
}

/** Live crawls whose precomputed reports are out of date, oldest first within each website. */
export async function findStaleCrawls(dataDir: string, websiteId?: string): Promise<StaleCrawl[]> {
  const live = listLiveCrawls(dataDir).filter((c) => websiteId === undefined || c.websiteId === websiteId);
  const stale: StaleCrawl[] = [];
  const db = await openDatabase();
  try {
    await withConnection(db, async (conn) => {
      for (const [i, crawl] of live.entries()) {
        const older = live[i + 1]?.websiteId === crawl.websiteId ? live[i + 1] : undefined;
        const previous = older && { crawlId: older.crawlId, dataId: dataIdOf(readCrawlMeta(older.dir)) };
        await conn.run(`ATTACH ${quoteLiteral(crawl.dbFile)} AS ${ALIAS} (READ_ONLY)`);
        try {
          const missing = await missingTables(conn, ALIAS);
          const reason =
            (missing.length > 0 ? `loaded before the contract had ${missing.join(', ')}` : undefined) ??
            unjoinedSources(dataDir, crawl.meta) ??
            staleReason(await readPrecomputed(conn, ALIAS), previous);
          if (reason) stale.push({ websiteId: crawl.websiteId, crawlId: crawl.crawlId, reason });
        } finally {
          await conn.run(`DETACH ${ALIAS}`);
        }
      }
    });
  } finally {
    db.closeSync();
  }
  return stale.sort((a, b) => a.websiteId.localeCompare(b.websiteId) || a.crawlId - b.crawlId);
}

/** Refreshes every stale crawl, oldest first so that each diff reads its previous crawl's fresh rows. */
export async function refreshStaleCrawls(
  options: Omit<RefreshOptions, 'websiteId' | 'crawlId'> & {
    websiteId?: string;
    /** Before each crawl is refreshed: which, its place and how many are stale. */
    onCrawl?: (crawl: StaleCrawl, index: number, total: number) => void;
  },
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  const stale = await findStaleCrawls(options.dataDir, options.websiteId);
  let marked: { websiteId: string; stop: () => void } | undefined;
  try {
    for (const [index, crawl] of stale.entries()) {
      if (marked?.websiteId !== crawl.websiteId) {
        marked?.stop();
        marked = { websiteId: crawl.websiteId, ...markRefreshing(options.dataDir, crawl.websiteId) };
      }
      options.onCrawl?.(crawl, index, stale.length);
      results.push(await refreshCrawl({ ...options, websiteId: crawl.websiteId, crawlId: crawl.crawlId }));
    }
  } finally {
    marked?.stop();
  }
  return results;
}
