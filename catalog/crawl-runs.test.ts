import { describe, expect, it } from 'vitest';
import { checkCrawlSettings, defaultCrawlSettings } from './crawl-runs.ts';
import { dataWindowBefore } from './data-sources.ts';

describe('the data window setting', () => {
  const base = defaultCrawlSettings('shop.example');

  it('is 28 days by default, also for settings saved before it existed', () => {
    expect(base.dataWindowDays).toBe(28);
    const { dataWindowDays: _, ...older } = base;
    expect(checkCrawlSettings(older)).toEqual({ settings: base });
  });

  it('keeps a whole number from 1 to 480 and refuses anything else at its field', () => {
    for (const days of [1, 90, 480])
      expect(checkCrawlSettings({ ...base, dataWindowDays: days })).toEqual({
        settings: { ...base, dataWindowDays: days },
      });
    for (const days of [0, 481, 7.5, '28', null])
      expect(checkCrawlSettings({ ...base, dataWindowDays: days })).toEqual({
        error: 'Data window must be a whole number from 1 to 480',
        field: 'dataWindowDays',
      });
  });

  it('sets how many whole days before the crawl date a crawl joins', () => {
    expect(dataWindowBefore(new Date('2026-11-16T09:00:00Z'), 90)).toEqual({
      dataStart: '2026-08-18',
      dataEnd: '2026-11-15',
    });
  });
});

describe('the render mode setting', () => {
  const base = defaultCrawlSettings('shop.example');

  it('reads settings saved before it existed as sample when they render pages, else none', () => {
    const { renderMode: _, renderAssets: __, renderTabs: ___, renderQuietMs: ____, ...older } = base;
    expect(checkCrawlSettings(older)).toEqual({ settings: base });
    expect(checkCrawlSettings({ ...older, render: 3 })).toEqual({
      settings: { ...base, render: 3, renderMode: 'sample' },
    });
  });

  it('keeps all with or without a timing sample, and refuses what contradicts itself at its field', () => {
    expect(checkCrawlSettings({ ...base, renderMode: 'all', renderAssets: true })).toEqual({
      settings: { ...base, renderMode: 'all', renderAssets: true },
    });
    expect(checkCrawlSettings({ ...base, renderMode: 'some' })).toEqual({
      error: 'Render mode must be one of none, sample, all',
      field: 'renderMode',
    });
    expect(checkCrawlSettings({ ...base, render: 2, renderMode: 'none' })).toMatchObject({ field: 'renderMode' });
    expect(checkCrawlSettings({ ...base, render: 0, renderMode: 'sample' })).toEqual({
      error: 'Render mode sample needs at least 1 rendered page',
      field: 'render',
    });
  });

  it('keeps the tabs and the quiet window within their limits, and refuses others at their field', () => {
    expect(checkCrawlSettings({ ...base, renderMode: 'all', renderTabs: 12, renderQuietMs: 250 })).toEqual({
      settings: { ...base, renderMode: 'all', renderTabs: 12, renderQuietMs: 250 },
    });
    expect(checkCrawlSettings({ ...base, renderTabs: 0 })).toEqual({
      error: 'Render tabs must be a whole number from 1 to 32',
      field: 'renderTabs',
    });
    expect(checkCrawlSettings({ ...base, renderQuietMs: 2_499 })).toEqual({
      settings: { ...base, renderQuietMs: 2_499 },
    });
    expect(checkCrawlSettings({ ...base, renderQuietMs: 2_500 })).toEqual({
      error: 'Network quiet must be a whole number from 0 to 2,499',
      field: 'renderQuietMs',
    });
  });
});
