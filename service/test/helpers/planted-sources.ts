/**
 * The planted site's marketing data, as the vendors write it: a Search Console bulk export table
 * (searchdata_url_impression.csv) and a GA4 "Landing page" report CSV, written for the site's origin (its loopback
 * port is chosen at run time, and Search Console names full URLs) and the crawl's data window. Each report the
 * crawl alone leaves unfed (analytics/*, search-console/*) gets a row that fires and a near miss just outside: a
 * row dated a day before or after the window, a URL differing by a trailing slash or by case, a row without sessions.
 *
 * The pages they describe are crawled, indexable pages of the planted site (PLANTED_SOURCE_PAGES); the URLs only the
 * sources know are under the same folder, so the reports' rows are read back with the "URLs containing" filter.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PlantedCase } from './planted-site.ts';

export const SOURCE_FOLDER = '/data-sources/';
/** Crawled pages the sources describe; planted-site.ts serves them, linked from the home page. */
export const PLANTED_SOURCE_PAGES = ['in-both', 'stale', 'slash', 'case', 'no-sessions'].map(
  (name) => `${SOURCE_FOLDER}${name}`,
);
const [inBoth, stale, slash, upper, noSessions] = PLANTED_SOURCE_PAGES as [string, string, string, string, string];
const gscOnly = `${SOURCE_FOLDER}gsc-only`;
const gscOnlyStale = `${SOURCE_FOLDER}gsc-only-stale`;
const gaOnly = `${SOURCE_FOLDER}ga-only`;
const gaOnlyStale = `${SOURCE_FOLDER}ga-only-stale`;
const slashVariant = `${slash}/`;
const upperVariant = upper.toUpperCase();

const DAY_MS = 86_400_000;
const shift = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const compact = (day: string): string => day.replaceAll('-', '');

export interface DataWindow {
  dataStart: string;
  dataEnd: string;
}

/** Each fed report's URLs (paths on the site's origin) that must be in its rows, and those that must not. */
export function plantedSourceCases(origin: string): Record<string, PlantedCase> {
  const abs = (paths: string[]): string[] => paths.map((p) => origin + p);
  const plant = (fires: string[], nearMiss: string[]): PlantedCase => ({ fires: abs(fires), nearMiss: abs(nearMiss) });
  return {
    'search-console/all': plant([inBoth, slashVariant, gscOnly], [stale, slash, gscOnlyStale]),
    'search-console/missing': plant([stale, slash], [inBoth]),
    'search-console/orphaned': plant([gscOnly, slashVariant], [inBoth, gscOnlyStale]),
    'analytics/all': plant([inBoth, upperVariant, gaOnly], [stale, upper, noSessions, gaOnlyStale]),
    'analytics/missing': plant([stale, upper, noSessions], [inBoth]),
    'analytics/orphaned': plant([gaOnly, upperVariant], [inBoth, gaOnlyStale]),
  };
}

const BULK_HEADER =
  'data_date,site_url,url,query,is_anonymized_query,is_anonymized_discover,country,search_type,device,is_amp_top_stories,is_amp_blue_link,is_job_listing,is_job_details,is_tpf_qa,is_tpf_faq,is_tpf_howto,is_weblite,is_action,is_events_listing,is_events_details,is_search_appearance_android_app,is_amp_story,is_amp_image_result,is_video,is_organic_shopping,is_review_snippet,is_special_announcement,is_recipe_feature,is_recipe_rich_snippet,is_subscribed_content,is_page_experience,is_practice_problems,is_math_solvers,is_translated_result,is_edu_q_and_a,impressions,clicks,sum_position';
const APPEARANCE_FLAGS = Array<string>(26).fill('false').join(',');

function bulkExport(origin: string, window: DataWindow): string {
  const siteUrl = `${origin}/`;
  const row = (day: string, urlPath: string, query: string, impressions: number, clicks: number): string =>
    [
      day,
      siteUrl,
      origin + urlPath,
      query,
      query === '' ? 'true' : 'false',
      'false',
      'gbr',
      'WEB',
      'DESKTOP',
      APPEARANCE_FLAGS,
      impressions,
      clicks,
      impressions * 4,
    ].join(',');
  return [
    BULK_HEADER,
    row(window.dataEnd, inBoth, 'planted page', 40, 3),
    row(window.dataStart, inBoth, '', 5, 0),
    row(shift(window.dataStart, -1), stale, 'stale page', 30, 2),
    row(window.dataStart, slashVariant, 'slash page', 20, 1),
    row(window.dataEnd, gscOnly, 'orphan page', 12, 1),
    row(shift(window.dataEnd, 1), gscOnlyStale, 'stale orphan page', 9, 0),
    '',
  ].join('\n');
}

function ga4Report(window: DataWindow): string {
  const from = shift(window.dataStart, -1);
  const to = shift(window.dataEnd, 1);
  const row = (day: string, urlPath: string, sessions: number): string =>
    [urlPath, compact(day), 'Organic Search', sessions, sessions, sessions, 0, 0, 0].join(',');
  return [
    '\uFEFF# ----------------------------------------',
    '# Landing page',
    '# Account: Planted',
    '# Property: planted - GA4',
    '# ----------------------------------------',
    '#',
    '# All Users',
    `# Start date: ${compact(from)}`,
    `# End date: ${compact(to)}`,
    'Landing page + query string,Date,Session default channel group,Sessions,Total users,New users,Key events,Total revenue,Transactions',
    row(window.dataStart, inBoth, 14),
    row(shift(window.dataEnd, 1), stale, 11),
    row(window.dataEnd, upperVariant, 7),
    row(window.dataEnd, noSessions, 0),
    row(window.dataStart, gaOnly, 3),
    row(shift(window.dataStart, -1), gaOnlyStale, 5),
    '(not set),20261103,Direct,4,4,4,0,0,0'.replace('20261103', compact(window.dataEnd)),
    '',
  ].join('\n');
}

/** Writes the two files into `dir`; returns them by source. */
export function writePlantedSources(
  dir: string,
  origin: string,
  window: DataWindow,
): { 'search-console': string; analytics: string } {
  fs.mkdirSync(dir, { recursive: true });
  const searchConsole = path.join(dir, 'searchdata_url_impression.csv');
  const analytics = path.join(dir, 'landing-page.csv');
  fs.writeFileSync(searchConsole, bulkExport(origin, window));
  fs.writeFileSync(analytics, ga4Report(window));
  return { 'search-console': searchConsole, analytics };
}
