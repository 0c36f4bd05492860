/**
 * Business constants and limits (spec §9), each declared once. Report filters name thresholds as `{NAME}`
 * placeholders resolved through `filterConstants`; the service and the dashboard import the rest directly.
 */
import type { Severity } from './schema.ts';

// Crawls, trends and paging
/** Crawls used for the trend chart: the current one and older ones. */
export const MAX_TREND_CRAWLS = 5;
/** The spec does not give the crawl list's maximum; 52 keeps a year of weekly crawls. */
export const MAX_CRAWL_LIST = 52;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const;

// CSV export
export const CSV_CHUNK_SIZE = 1000;
export const CSV_SEPARATOR = ',';
export const CSV_BOM = '\uFEFF';

// Locale
export const NUMBER_LOCALE = 'en-GB';
export const CURRENCY = 'GBP';
/** date-fns pattern. */
export const DATE_FORMAT = 'd MMM yyyy';
/** The agency's time: crawl schedules, the Tuesday 11:00 auto-approval, and the times crawl labels show. */
export const SCHEDULE_TIME_ZONE = 'Europe/London';

// Report thresholds. Lengths in characters, sizes in bytes, times in seconds except TTFB (milliseconds).
export const TITLE_LENGTH_MIN = 20;
export const TITLE_LENGTH_MAX = 65;
export const DESCRIPTION_LENGTH_MIN = 70;
export const DESCRIPTION_LENGTH_MAX = 200;
export const MULTIPLE_CANONICALS = 5;
export const CONTENT_MAX = 51200;
export const THIN_CONTENT = 3072;
export const EMPTY_CONTENT = 512;
/**
 * Each metric has two thresholds: `_AVERAGE` is where the "average" band starts and `_MAX` where the poor band
 * starts; the poor/slow reports select values strictly above `_MAX` (guide §0).
 */
export const FETCH_TIME_AVERAGE = 1;
export const FETCH_TIME_MAX = 3;
export const CLS_AVERAGE = 0.11;
export const CLS_MAX = 0.25;
export const LCP_AVERAGE = 2.6;
export const LCP_MAX = 4;
export const TTI_AVERAGE = 3.81;
export const TTI_MAX = 7.3;
export const FCP_AVERAGE = 1.8;
export const FCP_MAX = 3;
export const DCL_AVERAGE = 1.51;
export const DCL_MAX = 3.5;
export const TTFB_AVERAGE = 800;
export const TTFB_MAX = 1800;
export const REDIRECT_CHAIN_MIN = 2;
/** The crawler's hop limit: a chain of this many redirects may have stopped before its final response. */
export const REDIRECT_MAX = 4;

// Status codes
/** Excluded from the broken-link rule (bot blocking and rate limiting, not broken pages). */
export const EXCLUDED_BROKEN_STATUSES = [403, 429] as const;
export const TEMPORARY_REDIRECT_STATUSES = [302, 307] as const;
/**
 * Content only after rendering: the rendered page has at least this many words more than the raw HTML, and at least
 * this many times its words (a page whose script adds a footer to a full article is not it).
 */
export const RENDERED_WORDS_ADDED_MIN = 50;
export const RENDERED_WORDS_RATIO = 2;
/**
 * Hash routes (`#/…`) a page links to before its navigation counts as built on them: one such link alone is as often
 * a single view's "back to the start" as a router's.
 */
export const HASH_NAVIGATION_ROUTES = 2;

/** Names usable as `{NAME}` placeholders in report filters. */
export const filterConstants = {
  TITLE_LENGTH_MIN,
  TITLE_LENGTH_MAX,
  DESCRIPTION_LENGTH_MIN,
  DESCRIPTION_LENGTH_MAX,
  MULTIPLE_CANONICALS,
  CONTENT_MAX,
  THIN_CONTENT,
  EMPTY_CONTENT,
  FETCH_TIME_AVERAGE,
  FETCH_TIME_MAX,
  CLS_AVERAGE,
  CLS_MAX,
  LCP_AVERAGE,
  LCP_MAX,
  TTI_AVERAGE,
  TTI_MAX,
  FCP_AVERAGE,
  FCP_MAX,
  DCL_AVERAGE,
  DCL_MAX,
  TTFB_AVERAGE,
  TTFB_MAX,
  REDIRECT_CHAIN_MIN,
  REDIRECT_MAX,
  EXCLUDED_BROKEN_STATUSES,
  TEMPORARY_REDIRECT_STATUSES,
  RENDERED_WORDS_ADDED_MIN,
  RENDERED_WORDS_RATIO,
  HASH_NAVIGATION_ROUTES,
} as const satisfies Record<string, number | readonly number[]>;
export type FilterConstantName = keyof typeof filterConstants;

// Colours (Mantine palette names)
export type BandColour = 'green' | 'yellow' | 'orange' | 'red' | 'gray';

/** An inclusive range of values painted one colour. */
export interface ColourRange {
  min: number;
  max: number;
  colour: BandColour;
}
/** ems_rank colour bands, inclusive; higher is worse. */
export const RANK_BANDS: readonly ColourRange[] = [
  { min: 0, max: 24, colour: 'green' },
  { min: 25, max: 49, colour: 'yellow' },
  { min: 50, max: 74, colour: 'orange' },
  { min: 75, max: 100, colour: 'red' },
];

/**
 * Status badge: the first rule whose inclusive range holds the code wins, else `fallback`. The spec names green
 * only at 200, so 201-299 take the fallback, as do codes below 200, 500 and above, and a missing status.
 */
export const STATUS_COLOURS: { rules: readonly ColourRange[]; fallback: BandColour } = {
  rules: [
    { min: 200, max: 200, colour: 'green' },
    { min: 300, max: 399, colour: 'orange' },
    { min: 400, max: 499, colour: 'red' },
  ],
  fallback: 'gray',
};

/**
 * Per-report rank (guide §3): 0 when there are no rows or the severity is NONE, else
 * `round(lo + (hi - lo) * sqrt(min(1, rows / base)))`.
 */
export const RANK_SCALE: Readonly<Record<Exclude<Severity, 'NONE'>, { lo: number; hi: number }>> = {
  CRITICAL: { lo: 50, hi: 100 },
  HIGH: { lo: 25, hi: 90 },
  MEDIUM: { lo: 10, hi: 74 },
  LOW: { lo: 1, hi: 49 },
};

// Layout and UI timing
/** Minimum widths in px. */
export const BREAKPOINTS = { sm: 575, md: 768, lg: 992, xl: 1200, xxl: 1400 } as const;
export const SIDEBAR_WIDTH = 250;
export const CHART_HEIGHT = 250;
export const TOAST_AUTO_CLOSE_MS = 5000;
