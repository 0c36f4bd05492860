// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { QueryReport, SearchConsolePoint } from '../../api/query-report.ts';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { SearchConsoleSection } from './search-console-section.tsx';

afterEach(cleanup);

const point = (date: string, period: SearchConsolePoint['period']): SearchConsolePoint => ({
  date,
  clicks: 40,
  impressions: 400,
  ctr: 0.1,
  position: 2.5,
  period,
});

const reportOf = (overTime: SearchConsolePoint[], figures: QueryReport['searchConsole']['figures']): QueryReport => ({
  query: 'alpine travel',
  dataDateRange: { start: '2026-11-01', end: '2026-11-14' },
  searchConsole: { figures, overTime, byUrl: [] },
  adsOne: { totals: null, searchTerms: [] },
  adsTwo: { totals: null },
  trends: [],
  keywordPlanner: null,
  notConnected: [],
});

const dashboard = { website: { id: 'shop', domain: 'shop.example' }, isInternal: true } as unknown as DashboardState;

function renderSection(overTime: SearchConsolePoint[], figures: QueryReport['searchConsole']['figures'] = 'pages') {
  renderWithTheme(
    <DashboardContext.Provider value={dashboard}>
      <SearchConsoleSection report={reportOf(overTime, figures)} />
    </DashboardContext.Provider>,
  );
}

const captions = () => screen.getAllByRole('figure').map((f) => f.querySelector('figcaption')?.textContent);

describe('SearchConsoleSection', () => {
  it('names period totals as totals of their period, never per day', () => {
    renderSection([point('2026-11-14', { start: '2026-11-01', end: '2026-11-14' })]);
    expect(captions()).toEqual([
      'Clicks, totals per period',
      'Impressions, totals per period',
      'CTR, totals per period',
      'Position, totals per period (lower is better)',
    ]);
    expect(screen.getByTestId('query-search-console-periods').textContent).toBe(
      'Totals for 1–14 Nov come from an export without daily rows: each is shown across its period, not as days.',
    );
  });

  it("says whether its totals are the property's or the pages' sums, and that the URL table is the pages'", () => {
    renderSection([point('2026-11-14', null)], 'property');
    const note = screen.getByTestId('query-search-console-figures');
    expect(note.textContent).toContain("Search Console's figures for the whole property, each search counted once");
    expect(note.getAttribute('data-figures')).toBe('property');
    cleanup();
    renderSection([point('2026-11-14', null)], 'pages');
    expect(screen.getByTestId('query-search-console-figures').textContent).toContain(
      "the sums of the landing pages' figures, so one search that showed several pages counts for each",
    );
  });

  it('keeps daily rows per day without a period note', () => {
    renderSection([point('2026-11-13', null), point('2026-11-14', null)]);
    expect(captions()[0]).toBe('Clicks per day');
    expect(screen.queryByTestId('query-search-console-periods')).toBeNull();
  });
});
