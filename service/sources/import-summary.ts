/** What npm run import-data prints when done, and what the Data sources page shows of a finished import. */
import type { ImportResult } from './import-data.ts';

const n = (value: number): string => value.toLocaleString('en-GB');

/** The one line saying what an import did: rows, dates, URLs matched and not, the crawls refreshed. */
export function importSummary(result: ImportResult): string {
  const { coverage, urls } = result;
  const dates =
    coverage.granularity === 'day'
      ? `days ${coverage.start} to ${coverage.end}`
      : `totals for ${coverage.start} to ${coverage.end} (one period, placed on ${coverage.end})`;
  const unmatched =
    urls.unmatched > 0 ? `, ${n(urls.unmatched)} not (e.g. ${urls.unmatchedExamples.join(' ')})` : ', none unmatched';
  const parts = [
    `${n(result.rows)} rows of ${result.format}`,
    dates,
    `URLs: ${n(urls.matched)} matched to crawl ${urls.crawlId}${unmatched}`,
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
