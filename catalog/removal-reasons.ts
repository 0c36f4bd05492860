/**
 * Why a row left a report between two crawls (the Removed tab), decided per row when the crawl is precomputed:
 *
 * - **report changed**: the report's definition (its filter or a threshold) changed between the crawls, and the new
 *   definition would not have listed the row in the older crawl either;
 * - **gone**: the row's page now answers 404 or 410, or redirects;
 * - **not crawled**: the row's page was not fetched this time (blocked by robots, out of scope, beyond a limit, or
 *   the crawl was partial);
 * - **fixed**: the page was crawled again and no longer matches the report's filter.
 *
 * The first that holds wins, in that order. A row's page is its URL; on reports of links, the linking page.
 */
export const REMOVAL_REASONS = ['fixed', 'gone', 'not crawled', 'report changed'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/** Statuses that make a removed row's page "gone", besides every redirect (3xx). */
export const GONE_STATUSES = [404, 410] as const;

/** The Removed tab's row column carrying the reason. */
export const REMOVAL_REASON_COLUMN = 'removal_reason';

export const isRemovalReason = (value: unknown): value is RemovalReason =>
  typeof value === 'string' && (REMOVAL_REASONS as readonly string[]).includes(value);

/** Rows removed per reason. */
export type RemovalCounts = Record<RemovalReason, number>;

export const noRemovals = (): RemovalCounts => ({ fixed: 0, gone: 0, 'not crawled': 0, 'report changed': 0 });

/** "12 fixed, 3 for other reasons": the overview's split of a report's Removed count. */
export function removalSplitText(counts: RemovalCounts): string {
  const other = counts.gone + counts['not crawled'] + counts['report changed'];
  const fixed = `${counts.fixed.toLocaleString('en-GB')} fixed`;
  return other === 0 ? fixed : `${fixed}, ${other.toLocaleString('en-GB')} for other reasons`;
}
