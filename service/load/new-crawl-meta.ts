/** crawl.json of a new load: from a validated export, or the refreshed load's with its new load id. */
import { format } from 'date-fns';
import type { Manifest } from '../../catalog/export-contract.ts';
import { STORE_LAYOUT, crawlMetaSchema, dataIdOf, type CrawlMeta } from '../store/crawl-meta.ts';

interface NewLoad {
  loadId: string;
  tables: Record<string, number>;
  previousCrawlId: number | null;
  /** The data sources joined (service/source-data/join-sources.ts). */
  sources: Record<string, string>;
}

export function exportCrawlMeta(manifest: Manifest, load: NewLoad): CrawlMeta {
  return crawlMetaSchema.parse({
    layout: STORE_LAYOUT,
    manifest,
    loadId: load.loadId,
    loadedAt: new Date().toISOString(),
    crawledFriendly: friendlyDate(manifest.crawledAt),
    moduleState: 'PENDING',
    tables: load.tables,
    previousCrawlId: load.previousCrawlId,
    sources: load.sources,
  } satisfies CrawlMeta);
}

/**
 * A new load id, diffed against today's previous crawl: the same data keeps its dataId; newly joined source rows that
 * reports read, or a source they read connected or removed, make it new data (its own load id), so the next newer
 * crawl's Added/Removed are diffed again.
 */
export function refreshedCrawlMeta(meta: CrawlMeta, load: NewLoad & { isDataChanged: boolean }): CrawlMeta {
  return crawlMetaSchema.parse({
    ...meta,
    layout: STORE_LAYOUT,
    loadId: load.loadId,
    previousCrawlId: load.previousCrawlId,
    dataId: load.isDataChanged ? load.loadId : dataIdOf(meta),
    tables: load.tables,
    sources: load.sources,
  } satisfies CrawlMeta);
}

/** 'd MMM yyyy' of the crawl's UTC date, whatever the process time zone. */
export function friendlyDate(isoDateTime: string): string {
  const at = new Date(isoDateTime);
  return format(new Date(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()), 'd MMM yyyy');
}
