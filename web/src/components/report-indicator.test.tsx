// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithTheme } from '../test/render.tsx';
import { ReportIndicator } from './report-indicator.tsx';
import { ChangeIndicator } from './change-indicator.tsx';

afterEach(cleanup);

describe('ReportIndicator', () => {
  it('shows a labelled spinner while loading', () => {
    const { container } = renderWithTheme(<ReportIndicator kind="loading" />);
    expect(container.querySelector('[data-indicator=loading]')).not.toBeNull();
  });

  it('shows a lock for NONE reports', () => {
    renderWithTheme(<ReportIndicator kind="locked" />);
    expect(screen.getByRole('img', { name: 'Reference listing, no severity' })).toBeTruthy();
  });

  it('shows a green tick when there are no issues', () => {
    renderWithTheme(<ReportIndicator kind="clean" />);
    expect(screen.getByRole('img', { name: 'No issues' }).getAttribute('data-indicator')).toBe('clean');
  });

  it('shows a ring coloured by the rank band', () => {
    renderWithTheme(<ReportIndicator kind="rank" rank={62} rows={40} />);
    const ring = screen.getByRole('img', { name: 'Rank 62 of 100, high' });
    expect(ring.getAttribute('data-band')).toBe('orange');
  });
});

describe('ChangeIndicator', () => {
  it('reads a rise in issues as bad and a fall as good', () => {
    const { rerender } = renderWithTheme(<ChangeIndicator value={12} />);
    expect(screen.getByRole('img', { name: 'Up 12' }).textContent).toBe('+12');
    rerender(<ChangeIndicator value={-1234} context="since 3 Mar 2025" />);
    expect(screen.getByRole('img', { name: 'Down 1,234 since 3 Mar 2025' }).textContent).toBe('-1,234');
  });

  it('says when nothing changed or there is no comparison', () => {
    const { rerender } = renderWithTheme(<ChangeIndicator value={0} />);
    expect(screen.getByText('No change')).toBeTruthy();
    rerender(<ChangeIndicator value={undefined} />);
    expect(screen.getByLabelText('No comparison')).toBeTruthy();
  });
});
