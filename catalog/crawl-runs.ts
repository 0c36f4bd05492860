/**
 * Crawls run by the service, as both sides see them: a website's crawl settings (what the crawler is asked to do and
 * when), one run of the crawler with its progress and outcome, and the calls that read and change them.
 *
 * POST /api/crawl-runs/get-settings  {websiteId}                    → CrawlSettingsAnswer
 * POST /api/crawl-runs/save-settings {websiteId, settings}          → CrawlSettingsAnswer  (400 CrawlSettingsProblem)
 * POST /api/crawl-runs/list          {websiteId}                    → CrawlRunsAnswer
 * POST /api/crawl-runs/start         {websiteId}                    → {run: CrawlRun}       (409 when one is queued or running)
 * POST /api/crawl-runs/cancel        {websiteId, runId, keepCrawled} → {run: CrawlRun}      (409 when it has ended, or
 *                                                                     a cancel is under way and this one would not drop
 *                                                                     what it keeps)
 *
 * Internal users only (ADMIN, and STAFF bound to the website): anyone else gets 404 as for a website they may not see.
 * DOM-free and service-free, so the dashboard validates a form with the same rules and messages the service applies.
 */
import { SCHEDULE_TIME_ZONE } from './constants.ts';
import { RENDER_MODES, type RenderMode } from './render-contract.ts';
import { DATA_WINDOW_DAYS } from './data-sources.ts';
import { compileUrlPattern, UrlPatternError } from './url-pattern.ts';
import type { PartialReason } from './export-contract.ts';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Schedules are kept in the agency's time (constants.ts). */
export { SCHEDULE_TIME_ZONE };

export interface CrawlSchedule {
  day: Weekday;
  /** 24-hour HH:MM, Europe/London. */
  time: string;
}

export interface CrawlSettings {
  startUrl: string;
  includeSubdomains: boolean;
  /**
   * Regular expressions (JavaScript syntax, run in linear time: no backreferences or lookaround) a URL must match one
   * of to be crawled; none means every URL in scope.
   */
  include: string[];
  /** Regular expressions that keep a URL out of the crawl. */
  exclude: string[];
  maxUrls: number;
  maxDepth: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Pause between requests, milliseconds (raised to robots.txt's crawl-delay when robots.txt is respected). */
  delayMs: number;
  /** Empty: the crawler's own user agent. */
  userAgent: string;
  respectRobots: boolean;
  /** Indexable pages rendered in Chromium for the performance columns; 0 renders none. */
  render: number;
  /**
   * none; sample (the `render` pages timed); all: every in-scope HTML page rendered, its rendered DOM what the crawl
   * reads. Settings saved before it existed read as sample when they render pages, else none.
   */
  renderMode: RenderMode;
  /** Rendered pages download their images, media and fonts (blocked by default). */
  renderAssets: boolean;
  /** Pages rendered at once, each in a tab of its own (mode all). */
  renderTabs: number;
  /** A page is rendered once no request has been in flight for this long, ms (and its main thread then idle). */
  renderQuietMs: number;
  /** Sitemaps to read besides robots.txt's and /sitemap.xml. */
  sitemaps: string[];
  /** Check the status of links to other websites (the CLI's --skip-external turns it off). */
  checkExternal: boolean;
  /** Wall-clock limit of a run, hours: the crawl then stops and loads what it has, as a kept partial crawl. */
  timeLimitHours: number;
  /** Weekly, or null for manual runs only. */
  schedule: CrawlSchedule | null;
  /** The data window of its crawls: imported data of this many days before the crawl date is joined to each. */
  dataWindowDays: number;
}

/** How long a page may take to count as rendered before it is recorded as timed out (render-settings.ts). */
export const RENDER_CAP_MS = 5000;
/**
 * The longest network quiet a render cap allows, below half of it: a quiet window the cap leaves no time to reach
 * would end most pages at the cap. The Crawls page and the command line both hold it.
 */
export const maxRenderQuietMs = (capMs: number): number => Math.ceil(capMs / 2) - 1;

export const CRAWL_LIMITS = {
  maxUrls: { min: 1, max: 1_000_000 },
  maxDepth: { min: 0, max: 1000 },
  concurrency: { min: 1, max: 64 },
  delayMs: { min: 0, max: 60_000 },
  render: { min: 0, max: 1000 },
  renderTabs: { min: 1, max: 32 },
  renderQuietMs: { min: 0, max: maxRenderQuietMs(RENDER_CAP_MS) },
  timeLimitHours: { min: 1, max: 48 },
  // Search Console keeps 16 months.
  dataWindowDays: { min: 1, max: 480 },
  patterns: 50,
  sitemaps: 50,
  patternLength: 500,
  urlLength: 2048,
  userAgentLength: 300,
} as const;

export const DEFAULT_TIME_LIMIT_HOURS = 6;
/** The rendered crawl's tabs and quiet window by default (service/crawl/render-settings.ts: what they mean). */
export const DEFAULT_RENDER_TABS = 16;
export const DEFAULT_RENDER_QUIET_MS = 500;

/** Settings of a website nobody has configured yet: its domain's home page, weekly before the Tuesday approval. */
export function defaultCrawlSettings(domain: string): CrawlSettings {
  return {
    startUrl: `https://${domain}/`,
    includeSubdomains: false,
    include: [],
    exclude: [],
    maxUrls: 100_000,
    maxDepth: 100,
    concurrency: 4,
    delayMs: 0,
    userAgent: '',
    respectRobots: true,
    render: 0,
    renderMode: 'none',
    renderAssets: false,
    renderTabs: DEFAULT_RENDER_TABS,
    renderQuietMs: DEFAULT_RENDER_QUIET_MS,
    sitemaps: [],
    checkExternal: true,
    timeLimitHours: DEFAULT_TIME_LIMIT_HOURS,
    schedule: { day: 'monday', time: '06:00' },
    dataWindowDays: DATA_WINDOW_DAYS,
  };
}

export type CrawlSettingsField = keyof CrawlSettings;

/** A 400 answer of save-settings: the first problem found, and the field it is in. */
export interface CrawlSettingsProblem {
  error: string;
  field: CrawlSettingsField;
}

export type CrawlRunTrigger = 'manual' | 'schedule';
/** queued → running → loading → loaded; or cancelled / failed from any of the first three. */
export type CrawlRunStatus = 'queued' | 'running' | 'loading' | 'loaded' | 'cancelled' | 'failed';
export const ACTIVE_RUN_STATUSES: readonly CrawlRunStatus[] = ['queued', 'running', 'loading'];

/** What a running crawl is doing: fetching, waiting on robots.txt's crawl-delay, writing its export, or loading. */
export type CrawlRunPhase = 'fetching' | 'waiting' | 'exporting' | 'loading';

export interface CrawlRunProgress {
  pagesDone: number;
  queued: number;
  errors: number;
  /** Pages whose HTML could not be parsed (recorded with the reason, without what their HTML says). */
  parseFailures?: number;
  pagesPerSecond: number;
  elapsedMs: number;
  phase?: CrawlRunPhase;
  /** The last response or load step, epoch ms by the service's clock. */
  lastActivityAt?: number;
  /** When pagesDone or lastActivityAt last changed, epoch ms by the service's clock. */
  progressAt?: number;
}

/** A running run whose progress has not changed for this long is stalled. */
export const STALLED_AFTER_MS = 60_000;

export interface CrawlRun {
  id: number;
  websiteId: string;
  trigger: CrawlRunTrigger;
  /** The email of who started it; for a scheduled run, null. */
  startedBy: string | null;
  /** ISO date-times. */
  queuedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  status: CrawlRunStatus;
  progress: CrawlRunProgress;
  /** The crawl the run was loaded as (status loaded). */
  crawlId: number | null;
  /** Why the loaded crawl holds less than the website (catalog/crawl-label.ts); null when full or not loaded. */
  partial: PartialReason | null;
  /** Why it failed, in one line (status failed); what was kept, for a cancelled run whose pages were kept. */
  reason: string | null;
  isCancelRequested: boolean;
  /** The cancel asked to keep what was crawled (a later cancel without keeping may still drop it). */
  isKeepRequested: boolean;
}

export interface CrawlSettingsAnswer {
  settings: CrawlSettings;
  /** True until the settings are first saved: `settings` are then the defaults. */
  isDefault: boolean;
  /** The next scheduled run, ISO; null without a schedule. */
  nextRunAt: string | null;
}

export interface CrawlRunsAnswer {
  /** Newest first: the queued or running one (if any) and the history. */
  runs: CrawlRun[];
  nextRunAt: string | null;
  /** The service's clock when it answered (ISO): the page times its look at nextRunAt by it, not by its own. */
  now: string;
}

const LABELS: Record<CrawlSettingsField, string> = {
  startUrl: 'Start URL',
  includeSubdomains: 'Include subdomains',
  include: 'Include pattern',
  exclude: 'Exclude pattern',
  maxUrls: 'Max URLs',
  maxDepth: 'Max depth',
  concurrency: 'Concurrency',
  delayMs: 'Delay',
  userAgent: 'User agent',
  respectRobots: 'Respect robots.txt',
  render: 'Rendered pages',
  renderMode: 'Render mode',
  renderAssets: 'Download images, media and fonts',
  renderTabs: 'Render tabs',
  renderQuietMs: 'Network quiet',
  sitemaps: 'Sitemap URL',
  checkExternal: 'Check external links',
  timeLimitHours: 'Time limit',
  schedule: 'Schedule',
  dataWindowDays: 'Data window',
};

type Check = { settings: CrawlSettings } | CrawlSettingsProblem;

class Problem extends Error {
  constructor(
    readonly field: CrawlSettingsField,
    message: string,
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function httpUrl(field: CrawlSettingsField, value: unknown): string {
  const label = LABELS[field];
  if (typeof value !== 'string' || value.trim() === '') throw new Problem(field, `${label} is required`);
  const text = value.trim();
  if (text.length > CRAWL_LIMITS.urlLength)
    throw new Problem(field, `${label} must be at most ${CRAWL_LIMITS.urlLength} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Problem(field, `${label} "${text}" is not a URL (it must start with http:// or https://)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Problem(field, `${label} "${text}" must start with http:// or https://`);
  if (url.username !== '' || url.password !== '')
    throw new Problem(field, `${label} must not contain a user name or password`);
  return url.href;
}

function wholeNumber(field: keyof typeof CRAWL_LIMITS & CrawlSettingsField, value: unknown): number {
  const { min, max } = CRAWL_LIMITS[field] as { min: number; max: number };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Problem(
      field,
      `${LABELS[field]} must be a whole number from ${min.toLocaleString('en-GB')} to ${max.toLocaleString('en-GB')}`,
    );
  return value;
}

function renderModeOf(value: unknown, render: unknown): RenderMode {
  if (value === undefined) return typeof render === 'number' && render > 0 ? 'sample' : 'none';
  if (typeof value !== 'string' || !(RENDER_MODES as readonly string[]).includes(value))
    throw new Problem('renderMode', `Render mode must be one of ${RENDER_MODES.join(', ')}`);
  return value as RenderMode;
}

function flag(field: CrawlSettingsField, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Problem(field, `${LABELS[field]} must be true or false`);
  return value;
}

function list(field: CrawlSettingsField, value: unknown, max: number): unknown[] {
  if (!Array.isArray(value)) throw new Problem(field, `${LABELS[field]}s must be a list`);
  if (value.length > max) throw new Problem(field, `At most ${max} ${LABELS[field].toLowerCase()}s`);
  return value;
}

function patterns(field: 'include' | 'exclude', value: unknown): string[] {
  return list(field, value, CRAWL_LIMITS.patterns).map((pattern) => {
    if (typeof pattern !== 'string' || pattern.trim() === '')
      throw new Problem(field, `${LABELS[field]} must not be empty`);
    if (pattern.length > CRAWL_LIMITS.patternLength)
      throw new Problem(field, `${LABELS[field]} must be at most ${CRAWL_LIMITS.patternLength} characters`);
    try {
      compileUrlPattern(pattern);
    } catch (error) {
      if (error instanceof UrlPatternError) throw new Problem(field, `${LABELS[field]} "${pattern}" ${error.message}`);
      throw error;
    }
    return pattern;
  });
}

function userAgent(value: unknown): string {
  if (typeof value !== 'string') throw new Problem('userAgent', 'User agent must be text');
  const text = value.trim();
  if (/[\r\n]/.test(text)) throw new Problem('userAgent', 'User agent must be one line');
  if (text.length > CRAWL_LIMITS.userAgentLength)
    throw new Problem('userAgent', `User agent must be at most ${CRAWL_LIMITS.userAgentLength} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text))
    throw new Problem('userAgent', 'User agent must not contain control characters');
  return text;
}

function schedule(value: unknown): CrawlSchedule | null {
  if (value === null) return null;
  if (!isRecord(value)) throw new Problem('schedule', 'Schedule must be a day and a time, or none');
  if (typeof value.day !== 'string' || !(WEEKDAYS as readonly string[]).includes(value.day))
    throw new Problem('schedule', `Schedule day must be one of ${WEEKDAYS.join(', ')}`);
  if (typeof value.time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(value.time))
    throw new Problem('schedule', 'Schedule time must be HH:MM on a 24-hour clock, e.g. 06:00');
  return { day: value.day as Weekday, time: value.time };
}

/** Checks settings sent by a user; answers them cleaned (URLs normalised, text trimmed) or the first problem. */
export function checkCrawlSettings(input: unknown): Check {
  try {
    if (!isRecord(input)) throw new Problem('startUrl', 'Settings must be an object');
    const settings: CrawlSettings = {
      startUrl: httpUrl('startUrl', input.startUrl),
      includeSubdomains: flag('includeSubdomains', input.includeSubdomains),
      include: patterns('include', input.include),
      exclude: patterns('exclude', input.exclude),
      maxUrls: wholeNumber('maxUrls', input.maxUrls),
      maxDepth: wholeNumber('maxDepth', input.maxDepth),
      concurrency: wholeNumber('concurrency', input.concurrency),
      delayMs: wholeNumber('delayMs', input.delayMs),
      userAgent: userAgent(input.userAgent),
      respectRobots: flag('respectRobots', input.respectRobots),
      render: wholeNumber('render', input.render),
      renderMode: renderModeOf(input.renderMode, input.render),
      renderAssets: input.renderAssets === undefined ? false : flag('renderAssets', input.renderAssets),
      renderTabs: input.renderTabs === undefined ? DEFAULT_RENDER_TABS : wholeNumber('renderTabs', input.renderTabs),
      renderQuietMs:
        input.renderQuietMs === undefined ? DEFAULT_RENDER_QUIET_MS : wholeNumber('renderQuietMs', input.renderQuietMs),
      sitemaps: list('sitemaps', input.sitemaps, CRAWL_LIMITS.sitemaps).map((url) => httpUrl('sitemaps', url)),
      // Settings saved before these two existed, and older callers, leave them out: the defaults apply.
      checkExternal: input.checkExternal === undefined ? true : flag('checkExternal', input.checkExternal),
      timeLimitHours:
        input.timeLimitHours === undefined
          ? DEFAULT_TIME_LIMIT_HOURS
          : wholeNumber('timeLimitHours', input.timeLimitHours),
      schedule: schedule(input.schedule),
      dataWindowDays:
        input.dataWindowDays === undefined ? DATA_WINDOW_DAYS : wholeNumber('dataWindowDays', input.dataWindowDays),
    };
    if (settings.render > settings.maxUrls)
      throw new Problem('render', 'Rendered pages must not be more than Max URLs');
    if (settings.renderMode === 'none' && settings.render > 0)
      throw new Problem('renderMode', 'Render mode none renders no pages: choose sample or all, or 0 rendered pages');
    if (settings.renderMode === 'sample' && settings.render === 0)
      throw new Problem('render', 'Render mode sample needs at least 1 rendered page');
    return { settings };
  } catch (error) {
    if (error instanceof Problem) return { error: error.message, field: error.field };
    throw error;
  }
}
