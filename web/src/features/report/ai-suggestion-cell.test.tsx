// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { columnById } from '../../../../catalog/index.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { AiSuggestionCell } from './ai-suggestion-cell.tsx';
import { plainRow } from '../../api/report-rows.ts';

afterEach(cleanup);

const dashboard = {
  website: { id: 'shop', name: 'Shop', domain: 'shop.example', segments: [], modules: [] },
} as unknown as DashboardState;

function renderCell(row: Record<string, unknown>) {
  return renderWithTheme(
    <DashboardContext.Provider value={dashboard}>
      <AiSuggestionCell column={columnById('ai_title')!} row={plainRow(row)} />
    </DashboardContext.Provider>,
  );
}

describe('AI suggestion cell', () => {
  it("offers 'Suggest' on a row with status 200", () => {
    renderCell({ url: 'https://shop.example/a', http_status_code: 200 });
    expect(screen.getByRole('button', { name: /Suggest a page title/ }).textContent).toBe('Suggest');
  });

  it.each([301, 404, 500, null, undefined])('offers nothing on a row with status %s', (status) => {
    renderCell({ url: 'https://shop.example/a', http_status_code: status });
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('–')).toBeTruthy();
  });
});
