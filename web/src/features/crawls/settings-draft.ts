/**
 * The settings form's own state: text where the user types lists (one per line) and numbers, which the shared
 * check of catalog/crawl-runs.ts then turns into settings or the first problem, with the service's own messages.
 */
import {
  checkCrawlSettings,
  type CrawlSettings,
  type CrawlSettingsProblem,
  type Weekday,
} from '../../../../catalog/crawl-runs.ts';

export interface SettingsDraft {
  startUrl: string;
  includeSubdomains: boolean;
  include: string;
  exclude: string;
  maxUrls: number | string;
  maxDepth: number | string;
  concurrency: number | string;
  delayMs: number | string;
  userAgent: string;
  respectRobots: boolean;
  render: number | string;
  renderMode: CrawlSettings['renderMode'];
  renderAssets: boolean;
  renderTabs: number | string;
  renderQuietMs: number | string;
  sitemaps: string;
  checkExternal: boolean;
  timeLimitHours: number | string;
  dataWindowDays: number | string;
  scheduleDay: Weekday | 'none';
  scheduleTime: string;
}

export const NO_SCHEDULE = 'none';

export function toDraft(settings: CrawlSettings): SettingsDraft {
  return {
    startUrl: settings.startUrl,
    includeSubdomains: settings.includeSubdomains,
    include: settings.include.join('\n'),
    exclude: settings.exclude.join('\n'),
    maxUrls: settings.maxUrls,
    maxDepth: settings.maxDepth,
    concurrency: settings.concurrency,
    delayMs: settings.delayMs,
    userAgent: settings.userAgent,
    respectRobots: settings.respectRobots,
    render: settings.render,
    renderMode: settings.renderMode,
    renderAssets: settings.renderAssets,
    renderTabs: settings.renderTabs,
    renderQuietMs: settings.renderQuietMs,
    sitemaps: settings.sitemaps.join('\n'),
    checkExternal: settings.checkExternal,
    timeLimitHours: settings.timeLimitHours,
    dataWindowDays: settings.dataWindowDays,
    scheduleDay: settings.schedule?.day ?? NO_SCHEDULE,
    scheduleTime: settings.schedule?.time ?? '06:00',
  };
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** An emptied number box is no number at all, so the check names the field rather than reading 0. */
const numberOf = (value: number | string): number | null =>
  typeof value === 'number' ? value : value.trim() === '' ? null : Number(value);

/** The draft as the call's settings, unchecked: the shared check decides what is wrong with it. */
export function fromDraft(draft: SettingsDraft): Record<keyof CrawlSettings, unknown> {
  return {
    startUrl: draft.startUrl,
    includeSubdomains: draft.includeSubdomains,
    include: lines(draft.include),
    exclude: lines(draft.exclude),
    maxUrls: numberOf(draft.maxUrls),
    maxDepth: numberOf(draft.maxDepth),
    concurrency: numberOf(draft.concurrency),
    delayMs: numberOf(draft.delayMs),
    userAgent: draft.userAgent,
    respectRobots: draft.respectRobots,
    render: numberOf(draft.render),
    renderMode: draft.renderMode,
    renderAssets: draft.renderAssets,
    renderTabs: numberOf(draft.renderTabs),
    renderQuietMs: numberOf(draft.renderQuietMs),
    sitemaps: lines(draft.sitemaps),
    checkExternal: draft.checkExternal,
    timeLimitHours: numberOf(draft.timeLimitHours),
    dataWindowDays: numberOf(draft.dataWindowDays),
    schedule: draft.scheduleDay === NO_SCHEDULE ? null : { day: draft.scheduleDay, time: draft.scheduleTime },
  };
}

export type DraftCheck =
  { settings: CrawlSettings; problem?: undefined } | { settings?: undefined; problem: CrawlSettingsProblem };

export function checkDraft(draft: SettingsDraft): DraftCheck {
  const check = checkCrawlSettings(fromDraft(draft));
  return 'settings' in check ? { settings: check.settings } : { problem: check };
}

/** Whether the checked draft would change the saved settings (lists and text compared once cleaned). */
export function isChanged(check: DraftCheck, saved: CrawlSettings): boolean {
  if (check.settings === undefined) return true;
  const savedCheck = checkCrawlSettings(saved);
  const canonical = 'settings' in savedCheck ? savedCheck.settings : saved;
  return JSON.stringify(check.settings) !== JSON.stringify(canonical);
}
