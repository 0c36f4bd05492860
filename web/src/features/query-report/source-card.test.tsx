// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { QueryReport } from '../../api/query-report.ts';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { AdsOneSection } from './ads-one-section.tsx';
import { SearchConsoleSection } from './search-console-section.tsx';
import { NO_SOURCE_DATA } from './source-card.tsx';
import { TrendsSection } from './trends-section.tsx';

afterEach(cleanup);

/** A query the connected sources know nothing of; the website lacks Google Ads and Trends. */
const report: QueryReport = {
  query: 'hiking boots',
  dataDateRange: { start: '2026-10-01', end: '2026-10-28' },
  searchConsole: { figures: 'pages', overTime: [], byUrl: [] },
  adsOne: { totals: null, searchTerms: [] },
  adsTwo: { totals: null },
  trends: [],
  keywordPlanner: null,
  notConnected: ['google-ads', 'trends'],
};

function renderSections(isInternal: boolean) {
  const dashboard = { website: { id: 'shop', domain: 'shop.example' }, isInternal } as unknown as DashboardState;
  renderWithTheme(
    <DashboardContext.Provider value={dashboard}>
      <SearchConsoleSection report={report} />
      <AdsOneSection report={report} />
      <TrendsSection report={report} />
    </DashboardContext.Provider>,
  );
  return (id: string) => screen.getByTestId(`query-source-${id}`);
}

describe('the query report’s sources', () => {
  it('names a source the website lacks as not connected, with the way to Data sources for staff', () => {
    const source = renderSections(true);
    const ads = source('ads-one');
    expect(ads.getAttribute('data-not-connected')).toBe('google-ads');
    expect(ads.getAttribute('data-empty')).toBe('false');
    expect(within(ads).queryByText(NO_SOURCE_DATA)).toBeNull();
    const panel = within(ads).getByTestId('not-connected');
    expect(panel.getAttribute('data-source')).toBe('google-ads');
    expect(within(panel).getByText('Google Ads is not connected')).toBeTruthy();
    expect(within(panel).getByTestId('data-sources-link').getAttribute('href')).toBe('/data-sources?website=shop');
    expect(within(source('trends')).getByText('Google Trends is not connected')).toBeTruthy();
  });

  it('tells a client the source is not available, without a link', () => {
    const source = renderSections(false);
    const ads = source('ads-one');
    expect(within(ads).getByText('This section is not available for this website.')).toBeTruthy();
    expect(within(ads).queryByTestId('data-sources-link')).toBeNull();
    expect(within(ads).queryByText(NO_SOURCE_DATA)).toBeNull();
  });

  it('keeps "no data" for a connected source that knows nothing of the query', () => {
    const source = renderSections(true);
    const searchConsole = source('search-console');
    expect(searchConsole.getAttribute('data-empty')).toBe('true');
    expect(searchConsole.hasAttribute('data-not-connected')).toBe(false);
    expect(within(searchConsole).getByText(NO_SOURCE_DATA)).toBeTruthy();
    expect(within(searchConsole).queryByTestId('not-connected')).toBeNull();
  });
});
