/** Which data sources a crawl joined: a source it lacks is "not connected", never the same as zero rows. */
import { dataSourceIds, requiredSourcesOf, type DataSourceId } from '../../catalog/data-sources.ts';
import type { CrawlMeta } from '../store/crawl-meta.ts';
import { joinedFromTables, type JoinedSources } from './join-sources.ts';

export const connectedOf = (joined: JoinedSources): Set<DataSourceId> =>
  new Set(dataSourceIds.filter((id) => id in joined));

export const connectedSourcesOf = (meta: CrawlMeta): Set<DataSourceId> =>
  connectedOf(meta.sources ?? joinedFromTables(meta.tables));

/** The source a report of this category needs and the crawl lacks (the first, when it needs one of several), if any. */
export function notConnectedFor(meta: CrawlMeta, category: string): DataSourceId | undefined {
  const required = requiredSourcesOf(category);
  const connected = connectedSourcesOf(meta);
  return required.some((id) => connected.has(id)) ? undefined : required[0];
}

/** The sources among `wanted` the crawl lacks, in declaration order. */
export const missingSources = (meta: CrawlMeta, wanted: readonly DataSourceId[]): DataSourceId[] => {
  const connected = connectedSourcesOf(meta);
  return wanted.filter((id) => !connected.has(id));
};
