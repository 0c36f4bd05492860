/**
 * A website whose crawls are part way through the refresh that follows an import (issue 26 §1): some of its live
 * loads joined a source's live version and others not yet. Serving those loads together would answer from a mix of
 * the old state and the new (Added/Removed diffing a refreshed crawl against one not yet refreshed), so the registry
 * keeps serving the loads it served before until every crawl of the website has caught up.
 */
import { dataSourceIds } from '../../catalog/data-sources.ts';
import { FROM_EXPORT } from './join-sources.ts';
import { isConnectedVersion, readSourceVersion } from './source-store.ts';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { LiveCrawl } from '../store/layout.ts';
import { CrawlRegistry, type RegistryOptions } from '../store/registry.ts';

/** True when, for some source, one of the website's crawls joined its live version and another has yet to. */
export function isMidRefresh(dataDir: string, websiteId: string, crawls: readonly LiveCrawl[]): boolean {
  if (crawls.length < 2) return false;
  return dataSourceIds.some((id) => {
    const version = readSourceVersion(dataDir, websiteId, id);
    if (!version) return false;
    const isBehind = (crawl: LiveCrawl): boolean => {
      const joined = crawl.meta.sources ?? {};
      if (joined[id] === version.meta.versionId) return false;
      // As the refresh decides (load/refresh.ts): a removal is news only to crawls that joined the store's rows.
      return isConnectedVersion(version) || (id in joined && joined[id] !== FROM_EXPORT);
    };
    const behind = crawls.filter(isBehind).length;
    return behind > 0 && behind < crawls.length;
  });
}

/** The crawl store as the service serves it: a website part way through a refresh is held at its loads before it. */
export const openCrawlRegistry = (
  dataDir: string,
  db: DuckDBInstance,
  options: Omit<RegistryOptions, 'isMidRefresh'> = {},
): Promise<CrawlRegistry> => CrawlRegistry.open(dataDir, db, { ...options, isMidRefresh });
