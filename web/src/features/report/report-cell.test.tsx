// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { columnById, reportById } from '../../../../catalog/index.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { ReportCell } from './report-cell.tsx';
import { AI_ERROR } from './ai-suggestion-cell.tsx';
import { plainRow } from '../../api/report-rows.ts';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';

afterEach(cleanup);

describe('URL cell', () => {
  it('links the whole URL and shows it on one line, cut only at its end', () => {
    const url = 'https://www.example.co.uk/products/ghyll-merino-softshell';
    renderWithTheme(
      <ReportCell
        report={reportById('internal/all')!}
        column={columnById('url')!}
        value={url}
        row={plainRow({ url })}
      />,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe(url);
    expect(link.getAttribute('title')).toBe(url);
    expect(link.textContent).toBe(url);
    expect(link.querySelectorAll('span')).toHaveLength(0);
  });
});

describe('image list cell', () => {
  it("shows the website's own image URLs as paths through the URL formatter, the full list on hover", () => {
    const value = [
      { imgSrc: 'https://www.shop.example/img/hero.jpg', imgSize: 320 },
      { imgSrc: 'https://cdn.example.net/a.png', imgSize: 12 },
    ];
    const dashboard = { website: { domain: 'shop.example' } } as unknown as DashboardState;
    renderWithTheme(
      <DashboardContext.Provider value={dashboard}>
        <ReportCell
          report={reportById('internal/all')!}
          column={{ ...columnById('url')!, format: 'image-list' }}
          value={value}
          row={plainRow({ url: 'https://www.shop.example/' })}
        />
      </DashboardContext.Provider>,
    );
    const cell = screen.getByTitle(/hero\.jpg/);
    expect(cell.textContent).toBe('2×/img/hero.jpg (320 kB) · https://cdn.example.net/a.png (12 kB)');
    expect(cell.getAttribute('title')).toBe(
      'https://www.shop.example/img/hero.jpg (320 kB)\nhttps://cdn.example.net/a.png (12 kB)',
    );
  });
});

describe('cells with state of their own', () => {
  it('start afresh when the table puts another row in the same place, and keep their state for the same row', async () => {
    const dashboard = {
      website: { id: 'shop', name: 'Shop', domain: 'shop.example', segments: [], modules: [] },
    } as unknown as DashboardState;
    const report = reportById('internal/all')!;
    const column = columnById('ai_title')!;
    const cell = (row: ReturnType<typeof plainRow>) => (
      <DashboardContext.Provider value={dashboard}>
        <ReportCell report={report} column={column} value={null} row={row} />
      </DashboardContext.Provider>
    );
    const first = plainRow({ url: 'https://shop.example/a', http_status_code: 200 });
    const { rerender } = renderWithTheme(cell(first));
    // No service and no address to send the suggestion request to: it fails at once, and the cell says so.
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL('about:blank');
    fireEvent.click(screen.getByRole('button', { name: /Suggest a page title/ }));
    await screen.findByText(AI_ERROR);
    rerender(cell(first));
    expect(screen.getByText(AI_ERROR)).toBeTruthy();
    rerender(cell(plainRow({ url: 'https://shop.example/b', http_status_code: 200 })));
    expect(screen.queryByText(AI_ERROR)).toBeNull();
    expect(screen.getByRole('button', { name: /Suggest a page title/ }).textContent).toBe('Suggest');
  });
});
