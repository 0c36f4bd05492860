/** The labels and partial marks of a website's crawls as the service answers them (catalog/crawl-label.ts). */
import {
  crawlLabelParts,
  formatCrawlFileLabel,
  formatCrawlLabel,
  partialReasonOf,
  type CrawlLabelParts,
  type LabelledCrawl,
  type PartialReason,
} from '../../catalog/crawl-label.ts';
import type { CrawlRecord } from './registry.ts';

export const partialOf = (record: CrawlRecord): PartialReason | null => partialReasonOf(record.meta.manifest);

export const isPartialCrawl = (record: CrawlRecord): boolean => partialOf(record) !== null;

const labelled = (c: CrawlRecord): LabelledCrawl => ({
  crawlId: c.crawlId,
  crawledAt: c.meta.manifest.crawledAt,
  partial: partialOf(c),
});

// The registry hands out the same list until the store changes, so each list is labelled once.
const cache = new WeakMap<readonly CrawlRecord[], Map<number, CrawlLabelParts>>();

/**
 * The label parts of `record` among `websiteCrawls`, every live crawl of its website as the registry lists them: a
 * crawl reads the same for every user, whichever of its day's crawls they may see.
 */
function partsOf(websiteCrawls: readonly CrawlRecord[], record: CrawlRecord): CrawlLabelParts {
  let parts = cache.get(websiteCrawls);
  if (!parts) {
    parts = crawlLabelParts(websiteCrawls.map(labelled));
    cache.set(websiteCrawls, parts);
  }
  return parts.get(record.crawlId) ?? crawlLabelParts([labelled(record)]).get(record.crawlId)!;
}

/** "25 Nov 2026, 14:05 (crawl 3, partial)". */
export const crawlLabelOf = (websiteCrawls: readonly CrawlRecord[], record: CrawlRecord): string =>
  formatCrawlLabel(partsOf(websiteCrawls, record));

/** "25 Nov 2026 1405 crawl 3 partial", for a file name. */
export const crawlFileLabelOf = (websiteCrawls: readonly CrawlRecord[], record: CrawlRecord): string =>
  formatCrawlFileLabel(partsOf(websiteCrawls, record));
