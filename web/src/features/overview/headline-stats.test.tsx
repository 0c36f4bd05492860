// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { Crawl } from '../../api/types.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { HeadlineStats } from './headline-stats.tsx';
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
