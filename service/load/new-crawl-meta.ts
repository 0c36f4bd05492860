/** crawl.json of a new load: from a validated export, or the refreshed load's with its new load id. */
import { format } from 'date-fns';
import type { Manifest } from '../../catalog/export-contract.ts';
import { STORE_LAYOUT, crawlMetaSchema, dataIdOf, type CrawlMeta } from '../store/crawl-meta.ts';

interface NewLoad {
  loadId: string;
  tables: Record<string, number>;
  previousCrawlId: number | null;
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
  } satisfies CrawlMeta);
}

/** The same data (and so the same dataId) under a new load id, diffed against today's previous crawl. */
export function refreshedCrawlMeta(meta: CrawlMeta, load: Omit<NewLoad, 'tables'>): CrawlMeta {
  return crawlMetaSchema.parse({
    ...meta,
    layout: STORE_LAYOUT,
    loadId: load.loadId,
    previousCrawlId: load.previousCrawlId,
    dataId: dataIdOf(meta),
  } satisfies CrawlMeta);
}

/** 'd MMM yyyy' of the crawl's UTC date, whatever the process time zone. */
export function friendlyDate(isoDateTime: string): string {
  const at = new Date(isoDateTime);
  return format(new Date(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()), 'd MMM yyyy');
}
