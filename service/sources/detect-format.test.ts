/** Formats are told by content: each fixture file, renamed to something meaningless, finds its importer. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importerOf, openSourceFile } from './detect-format.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sources');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-detect-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const renamed = (fixture: string): ReturnType<typeof openSourceFile> => {
  const file = path.join(work, `upload-${path.basename(fixture).length}.bin`);
  fs.copyFileSync(path.join(FIXTURES, fixture), file);
  return openSourceFile(file, file);
};

describe('importerOf', () => {
  it.each([
    ['search-console/performance/Pages.csv', 'search-console', 'Search Console Performance report CSV'],
    ['search-console/performance/Dates.csv', 'search-console', 'Search Console Performance report CSV'],
    ['search-console/performance/Filters.csv', 'search-console', 'Search Console Performance report CSV'],
    ['search-console/performance/Queries.csv', 'search-console', 'Search Console Performance report CSV'],
    [
      'search-console/bulk/searchdata_site_impression.csv',
      'search-console',
      'Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
    ],
    [
      'search-console/bulk/searchdata_site_impression.ndjson',
      'search-console',
      'Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
    ],
    [
      'search-console/bulk/searchdata_url_impression.csv',
      'search-console',
      'Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
    ],
    [
      'search-console/bulk/searchdata_url_impression.ndjson',
      'search-console',
      'Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
    ],
    ['analytics/ga4-pages-and-screens.csv', 'analytics', 'Google Analytics 4 report CSV'],
    ['analytics/ga4-landing-page-daily.csv', 'analytics', 'Google Analytics 4 report CSV'],
    ['google-ads/search-terms-report.csv', 'google-ads', 'Google Ads report CSV (search terms or landing pages)'],
    ['google-ads/landing-page-report.csv', 'google-ads', 'Google Ads report CSV (search terms or landing pages)'],
    ['microsoft-ads/destination-url-report.csv', 'microsoft-ads', 'Microsoft Advertising report CSV'],
    ['keyword-planner/keyword-stats.csv', 'keyword-planner', 'Keyword Planner "Keyword Stats" export'],
    ['trends/multiTimeline.csv', 'trends', 'Google Trends multiTimeline.csv'],
    [
      'search-console/api/searchanalytics-date-page-query.json',
      'search-console',
      'Search Console Search Analytics API response (JSON)',
    ],
    ['analytics/ga4-run-report.json', 'analytics', 'Google Analytics Data API runReport response (JSON)'],
  ] as const)('reads %s by its content', (fixture, source, format) => {
    expect(importerOf(renamed(fixture), source).format).toBe(format);
  });

  it('refuses a file given as another source, and one of no known shape', () => {
    expect(() => importerOf(renamed('analytics/ga4-pages-and-screens.csv'), 'search-console')).toThrow(
      'a Google Analytics 4 report CSV (Analytics), not a search-console file',
    );
    const odd = path.join(work, 'odd.csv');
    fs.writeFileSync(odd, 'Keyword\tCurrency\tSearches: Nov 2026\n');
    expect(() => importerOf(openSourceFile('odd.csv', odd), 'search-console')).toThrow(
      'odd.csv: not a format import-data reads for search-console',
    );
  });
});
