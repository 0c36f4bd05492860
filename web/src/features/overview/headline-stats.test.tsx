// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { Crawl } from '../../api/types.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { HeadlineStats } from './headline-stats.tsx';
import { TRAFFIC_HEALTH_SCORE_FORMULA } from '../../../../catalog/stakes.ts';
import { HEALTH_SCORE_FORMULA, healthScoreHint, type Headline } from './overview-model.ts';

afterEach(cleanup);

const totals: Headline = {
  issues: 6745,
  issuesChange: 130,
  critical: 208,
  criticalChange: 13,
  reportsWithIssues: 40,
  reportsWithIssuesChange: 0,
  issueReports: 48,
  healthScore: 20.9,
  healthScoreChange: -0.6,
  trafficHealthScore: undefined,
  trafficHealthScoreChange: undefined,
};
const comparison = { label: '9 Nov 2026 (crawl 2)' } as Crawl;

describe('HeadlineStats', () => {
  it('shows the score to one decimal, its fall to one decimal, and the formula on its label', () => {
    renderWithTheme(<HeadlineStats totals={totals} comparison={comparison} isComparing={false} />);
    const card = screen.getByTestId('stat-health');
    expect(card.querySelector('[data-value]')!.textContent).toBe('20.9/100');
    const change = within(card).getByRole('img', { name: 'Down 0.6 since 9 Nov 2026 (crawl 2)' });
    expect(change.textContent).toBe('-0.6');
    expect(change.getAttribute('data-change')).toBe('-0.6');
    expect(within(card).getByLabelText(`Health score: ${healthScoreHint([])}`)).toBeTruthy();
    expect(HEALTH_SCORE_FORMULA).toContain('8 × critical + 4 × high + 2 × medium + 1 × low');
    // Without search console or analytics there is no traffic-weighted score, not a score of 100.
    expect(within(card).queryByTestId('stat-traffic-health')).toBeNull();
  });

  it('shows the traffic-weighted companion and both formulas when a traffic source is connected', () => {
    renderWithTheme(
      <HeadlineStats
        totals={{ ...totals, trafficHealthScore: 71.4, trafficHealthScoreChange: 2.5 }}
        comparison={comparison}
        isComparing={false}
      />,
    );
    const card = screen.getByTestId('stat-health');
    const companion = within(card).getByTestId('stat-traffic-health');
    expect(companion.querySelector('[data-value]')!.textContent).toBe('71.4/100');
    expect(within(companion).getByRole('img', { name: 'Up 2.5 since 9 Nov 2026 (crawl 2)' })).toBeTruthy();
    const hint = healthScoreHint([], true);
    expect(hint).toContain(HEALTH_SCORE_FORMULA);
    expect(hint).toContain(TRAFFIC_HEALTH_SCORE_FORMULA);
    expect(within(card).getByLabelText(`Health score: ${hint}`)).toBeTruthy();
  });

  it('reads "No change" only when the rounded scores agree', () => {
    renderWithTheme(
      <HeadlineStats totals={{ ...totals, healthScoreChange: 0.2 }} comparison={comparison} isComparing={false} />,
    );
    const card = screen.getByTestId('stat-health');
    expect(within(card).getByRole('img', { name: 'Up 0.2 since 9 Nov 2026 (crawl 2)' }).textContent).toBe('+0.2');
    cleanup();
    renderWithTheme(
      <HeadlineStats totals={{ ...totals, healthScoreChange: 0 }} comparison={comparison} isComparing={false} />,
    );
    expect(within(screen.getByTestId('stat-health')).getByText('No change')).toBeTruthy();
  });
});
