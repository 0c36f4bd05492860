import { describe, expect, it } from 'vitest';
import { comparabilityOf, differencesText, settingText } from './comparability.ts';
import type { RecordedSettings } from './export-contract.ts';

const settings: RecordedSettings = {
  startUrl: 'https://shop.example/',
  includeSubdomains: false,
  include: [],
  exclude: [],
  sitemaps: [],
  checkExternal: true,
  maxUrls: 100_000,
  maxDepth: 100,
  timeLimitHours: 6,
  respectRobots: true,
  render: 0,
  userAgent: '',
};

describe('comparabilityOf', () => {
  it('is undefined for full crawls with the same or unknown settings', () => {
    expect(comparabilityOf({ settings }, { settings: { ...settings } })).toBeUndefined();
    expect(comparabilityOf({ settings: { ...settings, render: 5 } }, {})).toBeUndefined();
  });

  it('lists differing settings in order, as text', () => {
    const current = { settings: { ...settings, include: ['/docs/'], render: 20, includeSubdomains: true } };
    const c = comparabilityOf(current, { settings, stoppedEarly: true });
    expect(c?.differences.map((d) => [d.setting, d.current, d.comparison])).toEqual([
      ['includeSubdomains', 'yes', 'no'],
      ['include', '/docs/', 'none'],
      ['render', '20', '0'],
    ]);
    // An export from before partialReason that stopped early was stopped.
    expect(c?.partial).toEqual({ current: null, comparison: 'stopped' });
    expect(differencesText(c!.differences)).toBe(
      'Subdomains yes (compared: no); Include patterns /docs/ (compared: none); Pages rendered 20 (compared: 0)',
    );
  });

  it('words robots.txt, the time limit and an empty user agent', () => {
    expect(settingText('respectRobots', false)).toBe('ignored');
    expect(settingText('timeLimitHours', 12)).toBe('12 h');
    expect(settingText('userAgent', '')).toBe('(default)');
  });

  it('tells a rendered crawl from a raw one, and an export that did not record its render mode is unknown', () => {
    const rendered = { settings: { ...settings, renderMode: 'all' as const } };
    const raw = { settings: { ...settings, renderMode: 'none' as const } };
    expect(comparabilityOf(rendered, raw)?.differences.map((d) => [d.setting, d.current, d.comparison])).toEqual([
      ['renderMode', 'every page rendered (JavaScript)', 'raw HTML'],
    ]);
    expect(comparabilityOf(rendered, { settings })).toBeUndefined();
    expect(comparabilityOf({ settings }, raw)).toBeUndefined();
  });
});
