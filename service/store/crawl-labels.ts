/** The labels and partial marks of a website's crawls as the service answers them (catalog/crawl-label.ts). */
import { crawlLabels, partialReasonOf, type LabelledCrawl } from '../../catalog/crawl-label.ts';
import type { PartialReason } from '../../catalog/export-contract.ts';
import type { CrawlRecord } from './registry.ts';

export const partialOf = (record: CrawlRecord): PartialReason | null => partialReasonOf(record.meta.manifest);

export const isPartialCrawl = (record: CrawlRecord): boolean => partialOf(record) !== null;

const labelled = (c: CrawlRecord): LabelledCrawl => ({
  crawlId: c.crawlId,
  crawledAt: c.meta.manifest.crawledAt,
  partial: partialOf(c),
});

// The registry hands out the same list until the store changes, so each list is labelled once.
const cache = new WeakMap<readonly CrawlRecord[], Map<number, string>>();

/**
 * "25 Nov 2026, 14:05 (crawl 3, partial)": the label of `record` among `websiteCrawls`, every live crawl of its website
 * as the registry lists them, so a crawl reads the same for every user, whichever of its day's crawls they may see.
 */
export function crawlLabelOf(websiteCrawls: readonly CrawlRecord[], record: CrawlRecord): string {
  let labels = cache.get(websiteCrawls);
  if (!labels) {
    labels = crawlLabels(websiteCrawls.map(labelled));
    cache.set(websiteCrawls, labels);
  }
  return labels.get(record.crawlId) ?? crawlLabels([labelled(record)]).get(record.crawlId)!;
}
