// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithTheme } from '../../test/render.tsx';
import { useReportStore } from '../../stores/report-store.ts';
import { StoreTablePagination } from './store-table-pagination.tsx';
import { TablePagination } from './table-pagination.tsx';

afterEach(cleanup);

const props = { pageIndex: 1, pageSize: 10, total: 95, isError: false, isPending: false, onPageSize: () => {} };

describe('TablePagination', () => {
  it("reads 'Page X of Y' and the row range", () => {
    renderWithTheme(<TablePagination {...props} onPageIndex={() => {}} />);
    expect(screen.getByTestId('page-label').textContent).toBe('Page 2 of 10');
    expect(screen.getByTestId('row-range').textContent).toBe('11–20 of 95 rows');
  });

  it('moves first, previous, next and last', () => {
    const onPageIndex = vi.fn();
    renderWithTheme(<TablePagination {...props} onPageIndex={onPageIndex} />);
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onPageIndex.mock.calls.map((c) => c[0] as number)).toEqual([0, 0, 2, 9]);
  });

  it('goes to page 1 from an empty input, else to the number minus one', () => {
    const onPageIndex = vi.fn();
    renderWithTheme(<TablePagination {...props} onPageIndex={onPageIndex} />);
    const input = screen.getByRole('textbox', { name: 'Go to page' });
    fireEvent.submit(input.closest('form')!);
    fireEvent.change(input, { target: { value: '7' } });
    fireEvent.submit(input.closest('form')!);
    expect(onPageIndex.mock.calls.map((c) => c[0] as number)).toEqual([0, 6]);
  });

  it('shows the range at the field for a minus sign or a page past the last, and stays on the page', () => {
    const onPageIndex = vi.fn();
    renderWithTheme(<TablePagination {...props} onPageIndex={onPageIndex} />);
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Go to page' });
    fireEvent.change(input, { target: { value: '-3' } });
    expect(input.value).toBe('-3');
    fireEvent.submit(input.closest('form')!);
    expect(onPageIndex).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-errormessage')!)?.textContent).toBe(
      'Enter a page from 1 to 10',
    );
    fireEvent.change(input, { target: { value: '11' } });
    expect(screen.queryByTestId('page-input-error')).toBeNull();
    fireEvent.submit(input.closest('form')!);
    expect(screen.getByTestId('page-input-error').textContent).toBe('Enter a page from 1 to 10');
    expect(onPageIndex).not.toHaveBeenCalled();
  });

  it('says the note after the row range, and not on a failed load', () => {
    const note = "'/blog/' is in the linking page of 40 rows";
    renderWithTheme(<TablePagination {...props} note={note} onPageIndex={() => {}} />);
    expect(screen.getByTestId('filter-matches').textContent).toBe(note);
    cleanup();
    renderWithTheme(<TablePagination {...props} note={note} isError onPageIndex={() => {}} />);
    expect(screen.queryByTestId('filter-matches')).toBeNull();
  });

  it("shows 'Error!' instead of the page on a failed load", () => {
    renderWithTheme(<TablePagination {...props} total={0} isError onPageIndex={() => {}} />);
    expect(screen.getByTestId('page-label').textContent).toBe('Error!');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next page' }).disabled).toBe(true);
  });
});

describe('StoreTablePagination', () => {
  it("says Loading… until the first rows answer, never '0–0 of 0 rows' before the rows are asked for", () => {
    useReportStore.getState().reset();
    expect(useReportStore.getState().rows.status).toBe('idle');
    renderWithTheme(
      <StoreTablePagination
        pageIndex={0}
        pageSize={100}
        filter={undefined}
        onPageIndex={() => {}}
        onPageSize={() => {}}
      />,
    );
    expect(screen.getByTestId('row-range').textContent).toBe('Loading…');
  });
});
