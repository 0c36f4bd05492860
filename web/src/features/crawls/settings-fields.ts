import type { ChangeEvent } from 'react';
import { CRAWL_LIMITS, type CrawlSettingsField } from '../../../../catalog/crawl-runs.ts';
import type { SettingsDraft } from './settings-draft.ts';

/** A switch in the two-column grid beside a labelled input: down by the label's height, so the two line up. */
export const BESIDE_INPUT = { base: 0, sm: 26 } as const;

export type NumberField =
  | 'maxUrls'
  | 'maxDepth'
  | 'concurrency'
  | 'delayMs'
  | 'render'
  | 'renderTabs'
  | 'renderQuietMs'
  | 'timeLimitHours'
  | 'dataWindowDays';

export type SetDraftField = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => void;
export type FieldErrorOf = (field: CrawlSettingsField) => string | undefined;

export const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

export const range = (field: NumberField) =>
  `${CRAWL_LIMITS[field].min.toLocaleString('en-GB')}–${CRAWL_LIMITS[field].max.toLocaleString('en-GB')}`;

/** The props that bind each kind of input to its draft field and to the problem found at that field. */
export function settingsFields(draft: SettingsDraft, set: SetDraftField, errorOf: FieldErrorOf) {
  return {
    text: (key: 'startUrl' | 'userAgent') => ({
      value: draft[key],
      onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value),
      error: errorOf(key),
    }),
    lines: (key: 'include' | 'exclude' | 'sitemaps') => ({
      value: draft[key],
      onChange: (e: ChangeEvent<HTMLTextAreaElement>) => set(key, e.currentTarget.value),
      error: errorOf(key),
      rows: 3,
      resize: 'vertical' as const,
    }),
    // Minus signs and fractions stay in the box, so the shared check names the field instead of the box dropping them.
    count: (key: NumberField) => ({
      value: draft[key],
      onChange: (value: number | string) => set(key, value),
      error: errorOf(key),
    }),
    toggle: (key: 'includeSubdomains' | 'respectRobots' | 'checkExternal' | 'renderAssets') => ({
      checked: draft[key],
      onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.checked),
      error: errorOf(key),
    }),
  };
}

export type SettingsFields = ReturnType<typeof settingsFields>;
