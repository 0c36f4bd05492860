/** What npm run import-data prints when done, and what the Data sources page shows of a finished import. */
import type { ImportResult } from './import-data.ts';
import type { Coverage } from './importer.ts';

const n = (value: number): string => value.toLocaleString('en-GB');

const DATES: Record<Coverage['granularity'], (c: Coverage) => string> = {
  day: (c) => `days ${c.start} to ${c.end}`,
  week: (c) => `weeks ${c.start} to ${c.end} (each on its first day)`,
  month: (c) => `months ${c.start} to ${c.end} (each on its first day)`,
  period: (c) =>
    c.start === c.end ? `as of ${c.end}` : `totals for ${c.start} to ${c.end} (one period, placed on ${c.end})`,
};

function urlsPart({ urls }: ImportResult): string {
  if (urls.matched + urls.unmatched === 0) return 'no page URLs';
  const unmatched =
    urls.unmatched > 0 ? `, ${n(urls.unmatched)} not (e.g. ${urls.unmatchedExamples.join(' ')})` : ', none unmatched';
  return `URLs: ${n(urls.matched)} matched to crawl ${urls.crawlId}${unmatched}`;
}

/** The one line saying what an import did: rows, dates, URLs matched and not, the crawls refreshed. */
export function importSummary(result: ImportResult): string {
  const parts = [
    `${n(result.rows)} rows of ${result.format}`,
    DATES[result.coverage.granularity](result.coverage),
    urlsPart(result),
  ];
  if (result.skippedRows > 0)
    parts.push(`${n(result.skippedRows)} rows without a URL skipped (e.g. ${result.skippedExamples.join(' ')})`);
  parts.push(...result.notes);
  const refreshed =
    result.refreshedCrawlIds.length > 0 ? `; crawls refreshed: ${result.refreshedCrawlIds.join(', ')}` : '';
  const outcome = `${result.isUnchanged ? 'nothing changed (imported before)' : `version ${result.versionId}`}${refreshed}`;
  const failure = result.refreshFailure
    ? `; refreshing the crawls failed (${result.refreshFailure}): run npm run load-crawl -- --refresh`
    : '';
  return `${result.source} of website "${result.websiteId}": ${parts.join('; ')}; ${outcome}${failure}`;
}
