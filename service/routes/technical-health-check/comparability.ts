/**
 * The `comparability` of an overview or summary answer (catalog/comparability.ts): said only when the compared crawls'
 * recorded settings differ or one of them is partial. Both crawls are ones the caller may see (the call resolved them
 * from its visible crawls), so nothing of a crawl hidden from a client shows through.
 */
import { comparabilityOf, type Comparability } from '../../../catalog/comparability.ts';
import type { CrawlRecord } from '../../store/registry.ts';

export function comparabilityField(
  current: CrawlRecord,
  comparison: CrawlRecord | null | undefined,
): { comparability?: Comparability } {
  if (!comparison) return {};
  const comparability = comparabilityOf(current.meta.manifest, comparison.meta.manifest);
  return comparability ? { comparability } : {};
}
