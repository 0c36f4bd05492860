// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { columnById, reportById } from '../../../../catalog/index.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { ReportCell } from './report-cell.tsx';
import { plainRow } from '../../api/report-rows.ts';

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
