/**
 * The removal reason of each row of a Removed tab (catalog/removal-reasons.ts), as SQL over the newer crawl: the
 * row's page is looked up in that crawl's `urls` (its `sitemaps` for reports of sitemaps) and its status decides.
 * Precompute stores the reason in the removed rows' table (`_reason`); a live Removed tab computes it the same way.
 */
import {
  GONE_STATUSES,
  REMOVAL_REASONS,
  noRemovals,
  type RemovalCounts,
  type RemovalReason,
} from '../../catalog/removal-reasons.ts';
import type { ReportShape } from './report-shape.ts';
import { ident, raw, sql, tableRef, type SqlFragment } from './sql.ts';

export const REASON_COLUMN = '_reason';

/**
 * The column naming a row's page: the linking page on reports of links (a link leaves when its page changes), the
 * first linking page on unique links, else the row's URL.
 */
export function pageColumnOf(shape: ReportShape): string {
  if (shape.table.id === 'links') return 'url_from';
  if (shape.table.id === 'unique_links' && shape.storedColumns.some((c) => c.id === 'primary_url_from'))
    return 'primary_url_from';
  return shape.urlColumn;
}

const pageTableOf = (shape: ReportShape): string => (shape.table.id === 'sitemaps' ? 'sitemaps' : 'urls');

/**
 * `removed` (a relation aliased nowhere, with the report's key and page columns) with `_reason` added, decided over
 * the crawl `alias`. `isReportChanged`, a condition on "p", marks rows the report's new definition explains.
 */
export function withRemovalReasons(
  removed: SqlFragment,
  shape: ReportShape,
  alias: string,
  tables: ReadonlySet<string>,
  isReportChanged: SqlFragment = raw('FALSE'),
): SqlFragment {
  const pageTable = pageTableOf(shape);
  const page = ident(pageColumnOf(shape));
  const statuses = tables.has(pageTable)
    ? sql`SELECT "url" AS "_s_url", "http_status_code" AS "_s_code" FROM ${tableRef(alias, pageTable)} WHERE "http_status_code" IS NOT NULL`
    : raw('SELECT NULL::VARCHAR AS "_s_url", NULL::INTEGER AS "_s_code" WHERE FALSE');
  const gone = raw(GONE_STATUSES.join(', '));
  const reason: Record<RemovalReason, string> = {
    fixed: "'fixed'",
    gone: "'gone'",
    'not crawled': "'not crawled'",
    'report changed': "'report changed'",
  };
  return sql`SELECT "p".*, CASE
      WHEN ${isReportChanged} THEN ${raw(reason['report changed'])}
      WHEN "s"."_s_code" IN (${gone}) OR "s"."_s_code" BETWEEN 300 AND 399 THEN ${raw(reason.gone)}
      WHEN "s"."_s_code" IS NULL THEN ${raw(reason['not crawled'])}
      ELSE ${raw(reason.fixed)} END AS ${ident(REASON_COLUMN)}
    FROM (${removed}) "p" LEFT JOIN (${statuses}) "s" ON "s"."_s_url" = "p".${page}`;
}

/** Rows of a removed rows' table per reason. */
export const reasonCountsSql = (table: SqlFragment): SqlFragment =>
  sql`SELECT ${ident(REASON_COLUMN)}, count(*) FROM ${table} GROUP BY ALL`;

export function reasonCountsOf(rows: readonly (readonly unknown[])[]): RemovalCounts {
  const counts = noRemovals();
  for (const [reason, n] of rows)
    if ((REMOVAL_REASONS as readonly unknown[]).includes(reason)) counts[reason as RemovalReason] = Number(n);
  return counts;
}
