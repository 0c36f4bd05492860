// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { comparabilityOf } from '../../../../catalog/comparability.ts';
import type { RecordedSettings } from '../../../../catalog/export-contract.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { SettingDifferencesList } from './settings-differ-notice.tsx';

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

describe('SettingDifferencesList', () => {
  it('lists each differing setting with the value of both crawls', () => {
    const current = { settings: { ...settings, maxUrls: 500, userAgent: 'Other/2.0' } };
    const { differences } = comparabilityOf(current, { settings })!;
    renderWithTheme(<SettingDifferencesList differences={differences} />);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Max URLs: 500 in this crawl, 100,000 in the crawl compared with',
      'User agent: Other/2.0 in this crawl, (default) in the crawl compared with',
    ]);
  });
});
