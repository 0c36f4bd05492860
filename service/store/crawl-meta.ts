import { z } from 'zod';
import { manifestSchema } from '../../catalog/export-contract.ts';

export const moduleStates = ['PENDING', 'APPROVED'] as const;
export const moduleStateSchema = z.enum(moduleStates);
export type ModuleState = z.infer<typeof moduleStateSchema>;

/** The store layout this build writes and reads; a crawl.json with a higher `layout` is skipped, not misread. */
export const STORE_LAYOUT = 1;

/** crawl.json, written by the loader beside crawl.duckdb. */
export const crawlMetaSchema = z.object({
  /** Absent in crawls written before it was introduced: layout 1. */
  layout: z.number().int().positive().optional(),
  manifest: manifestSchema,
  loadId: z.string().min(1),
  loadedAt: z.iso.datetime({ offset: true }),
  /** 'd MMM yyyy' of crawledAt, as the Current Crawl dropdown shows it. */
  crawledFriendly: z.string().min(1),
  /** The state the crawl was registered in; approvals later live in the app database. */
  moduleState: moduleStateSchema,
  /** Row count per loaded table id. */
  tables: z.record(z.string(), z.number().int().nonnegative()),
  /** The crawl its precomputed Added/Removed were diffed against, if any. */
  previousCrawlId: z.number().int().positive().nullable(),
  /**
   * The load that brought this crawl's data in. A refresh of the precomputed reports writes a new load with the
   * same data, so the next newer crawl's Added/Removed, diffed against this data, stay valid.
   */
  dataId: z.string().min(1).optional(),
  /**
   * The data sources joined into this load: source id → the store's version id, or 'export' for the export's own
   * tables. Absent in crawls loaded before imports: their sources are those whose tables have rows.
   */
  sources: z.record(z.string(), z.string()).optional(),
});
export type CrawlMeta = z.infer<typeof crawlMetaSchema>;

/** The identity of a crawl's data: the same across refreshes of its precomputed reports. */
export const dataIdOf = (meta: Pick<CrawlMeta, 'loadId' | 'dataId'>): string => meta.dataId ?? meta.loadId;
