// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { reportById } from '../../../../catalog/index.ts';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { ChecklistSaveDialog } from './checklist-save-dialog.tsx';

afterEach(cleanup);

const u = (p: string): string => `https://shop.example${p}`;
const dashboard = { website: { domain: 'shop.example' } } as unknown as DashboardState;

function renderDialog(reportId: string, item: { url: string; subKeys: string[] }) {
  renderWithTheme(
    <DashboardContext.Provider value={dashboard}>
      <ChecklistSaveDialog
        report={reportById(reportId)!}
        isOpen
        isSaving={false}
        edits={[{ item, checked: true }]}
        onCancel={() => {}}
        onConfirm={() => {}}
      />
    </DashboardContext.Provider>,
  );
  return screen.getByTestId('checklist-item');
}

describe('ChecklistSaveDialog', () => {
  it("shows a link's target and linking page as the table does: paths of the site's pages, titled by column", () => {
    const item = renderDialog('links/internal-broken', { url: u('/a'), subKeys: [u('/blog/post')] });
    const urls = within(item).getAllByTitle(/^https:/);
    expect(urls.map((el) => [el.textContent, el.getAttribute('title')])).toEqual([
      ['/a', u('/a')],
      ['/blog/post', u('/blog/post')],
    ]);
    expect(within(item).getByText('Target URL')).toBeTruthy();
    expect(within(item).getByText('Linking URL')).toBeTruthy();
  });

  it('shows another site in full, a plain-http page behind its badge, and text sub-keys as text', () => {
    const item = renderDialog('links/internal-http', { url: 'http://shop.example/c', subKeys: ['Read more'] });
    expect(within(item).getByTitle('Plain http://, not https://')).toBeTruthy();
    expect(within(item).getByTitle('http://shop.example/c').textContent).toBe('/c');
    expect(within(item).getByText('Read more')).toBeTruthy();
    cleanup();
    const other = renderDialog('links/external-broken', { url: 'https://other.example/x', subKeys: [u('/')] });
    expect(within(other).getByTitle('https://other.example/x').textContent).toBe('https://other.example/x');
  });
});
