/**
 * Comparable or not (issue 30 §4): Added and Removed between two crawls mean "what changed on the website" only when
 * both crawls were asked the same (scope, limits, robots.txt, rendering, user agent; the settings each export records)
 * and neither is partial. Settings a crawl did not record (exports from before, or from other tools) are unknown,
 * never a difference.
 */
import { partialReasonOf, type CrawlEnding } from './crawl-label.ts';
import type { PartialReason, RecordedSettings } from './export-contract.ts';
import type { RenderMode } from './render-contract.ts';
import { formatNumber } from './format.ts';

export const COMPARED_SETTINGS = [
  'startUrl',
  'includeSubdomains',
  'include',
  'exclude',
  'sitemaps',
  'checkExternal',
  'maxUrls',
  'maxDepth',
  'timeLimitHours',
  'respectRobots',
  'render',
  'renderMode',
  'userAgent',
] as const satisfies readonly (keyof RecordedSettings)[];
export type ComparedSetting = (typeof COMPARED_SETTINGS)[number];

export const SETTING_TITLES: Record<ComparedSetting, string> = {
  startUrl: 'Start URL',
  includeSubdomains: 'Subdomains',
  include: 'Include patterns',
  exclude: 'Exclude patterns',
  sitemaps: 'Extra sitemaps',
  checkExternal: 'External links checked',
  maxUrls: 'Max URLs',
  maxDepth: 'Max depth',
  timeLimitHours: 'Time limit',
  respectRobots: 'robots.txt',
  render: 'Pages rendered',
  renderMode: 'Render mode',
  userAgent: 'User agent',
};

export interface SettingDifference {
  setting: ComparedSetting;
  title: string;
  /** The current crawl's value, as text. */
  current: string;
  /** The comparison crawl's value, as text. */
  comparison: string;
}

/** Why a comparison's Added/Removed may not mean what changed; absent from answers when the crawls are comparable. */
export interface Comparability {
  /** The settings that differ between the crawls, in COMPARED_SETTINGS order; empty when they agree or are unknown. */
  differences: SettingDifference[];
  /** The partial reason of each crawl that is partial. */
  partial: { current: PartialReason | null; comparison: PartialReason | null };
}

/** A crawl as comparability needs it: its manifest's ending and recorded settings. */
export interface ComparedCrawl extends CrawlEnding {
  settings?: RecordedSettings | undefined;
}

/** How each render mode reads in a comparison warning. */
const RENDER_MODE_TEXT: Record<RenderMode, string> = {
  none: 'raw HTML',
  sample: 'raw HTML, a timing sample rendered',
  all: 'every page rendered (JavaScript)',
};

export function settingText(setting: ComparedSetting, value: RecordedSettings[ComparedSetting]): string {
  if (setting === 'renderMode') return RENDER_MODE_TEXT[value as RenderMode];
  if (setting === 'respectRobots') return value ? 'respected' : 'ignored';
  if (setting === 'timeLimitHours') return `${formatNumber(value as number)} h`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return formatNumber(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return value === '' ? '(default)' : (value ?? 'unknown');
}

/** A setting one crawl did not record (an older export) is unknown, never a difference. */
const sameValue = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined || JSON.stringify(a) === JSON.stringify(b);

/** What makes two crawls not comparable; undefined when nothing does. */
export function comparabilityOf(current: ComparedCrawl, comparison: ComparedCrawl): Comparability | undefined {
  const [a, b] = [current.settings, comparison.settings];
  const differences =
    a && b
      ? COMPARED_SETTINGS.filter((s) => !sameValue(a[s], b[s])).map((setting) => ({
          setting,
          title: SETTING_TITLES[setting],
          current: settingText(setting, a[setting]),
          comparison: settingText(setting, b[setting]),
        }))
      : [];
  const partial = { current: partialReasonOf(current), comparison: partialReasonOf(comparison) };
  if (differences.length === 0 && partial.current === null && partial.comparison === null) return undefined;
  return { differences, partial };
}

/** "Max URLs 500 (compared: 100,000); robots.txt ignored (compared: respected)". */
export const differencesText = (differences: readonly SettingDifference[]): string =>
  differences.map((d) => `${d.title} ${d.current} (compared: ${d.comparison})`).join('; ');

export const SETTINGS_DIFFER_WARNING =
  'The two crawls were run with different settings: Added/Removed may count pages a setting let in or kept out, not changes to the website.';
