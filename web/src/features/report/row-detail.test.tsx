// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Field, List, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { columnById, reportById } from '../../../../catalog/index.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { ReportTable } from './report-table.tsx';
import { RowDetail } from './row-detail.tsx';
import { reportColumns } from './table-model.ts';
import { plainRow, RowsTable } from '../../api/report-rows.ts';
import { expanderLabel, hasSubRow } from './sub-row.ts';

afterEach(cleanup);

const report = (id: string): ReportDefinition => {
  const found = reportById(id);
  if (!found) throw new Error(`no report ${id}`);
  return found;
};
const u = (p: string): string => `https://shop.example${p}`;

describe('sub-rows', () => {
  it('lists the other members of a duplicate set as links', () => {
    const duplicates = report('content/duplicate');
    expect(duplicates.subRow).toBe('duplicate-set');
    renderWithTheme(
      <RowDetail report={duplicates} row={plainRow({ url: u('/dup2'), subRows: [u('/dup1'), u('/dup3')] })} />,
    );
    const list = screen.getByLabelText('Duplicate set members');
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([u('/dup1'), u('/dup3')]);
    expect(within(list).getByText('Duplicate set members')).toBeTruthy();
  });

  it('lists the source pages of a link', () => {
    const links = report('links/internal-http');
    expect(links.subRow).toBe('link-sources');
    renderWithTheme(
      <RowDetail report={links} row={plainRow({ url_to: 'http://shop.example/c', subRows: [u('/b'), u('/d')] })} />,
    );
    const list = screen.getByLabelText('Source pages');
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([u('/b'), u('/d')]);
  });

  it('still lists the hops of a redirect chain', () => {
    const redirects = report('redirects/chain');
    expect(redirects.subRow).toBe('redirect-chain');
    renderWithTheme(
      <RowDetail
        report={redirects}
        row={plainRow({
          redirect_chain: [
            { url: u('/r'), status_code: 301, redirects_to: u('/'), is_js_redirect: false, is_meta_redirect: false },
          ],
        })}
      />,
    );
    expect(within(screen.getByLabelText('Redirect hops')).getByText('301')).toBeTruthy();
  });

  it('expands only rows with something to list', () => {
    const duplicates = report('content/duplicate');
    expect(hasSubRow(duplicates, plainRow({ subRows: [u('/dup1')] }))).toBe(true);
    expect(hasSubRow(duplicates, plainRow({ subRows: [] }))).toBe(false);
    expect(hasSubRow(duplicates, plainRow({ subRows: null }))).toBe(false);
    expect(hasSubRow(report('links/internal-http'), plainRow({ subRows: [u('/b')] }))).toBe(true);
    expect(hasSubRow({ subRow: 'redirect-chain' }, plainRow({ redirect_chain: [] }))).toBe(false);
    expect(hasSubRow({ subRow: undefined }, plainRow({ subRows: [u('/b')] }))).toBe(false);
    expect(expanderLabel('duplicate-set', false)).toBe('Show the duplicate set members');
    expect(expanderLabel('link-sources', true)).toBe('Hide the source pages');
    expect(expanderLabel('redirect-chain', false)).toBe('Show the redirect hops');
  });
});

describe('ReportTable sub-rows', () => {
  // happy-dom lays nothing out: give the virtualised body a viewport so that it renders rows.
  const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 });
  });
  afterAll(() => {
    if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
    if (width) Object.defineProperty(HTMLElement.prototype, 'clientWidth', width);
  });

  it('expands a duplicate-set row to its members, and only rows that have members', () => {
    const duplicates = report('content/duplicate');
    const columns = reportColumns(duplicates, columnById, {
      segment: undefined,
      isLatestCrawl: false,
      differenceType: 'all',
    });
    // A real Arrow table, decoded from IPC as the browser receives it.
    const rows = new RowsTable(
      tableFromIPC(
        tableToIPC(
          new Table({
            url: vectorFromArray([u('/dup2'), u('/alone')], new Utf8()),
            subRows: vectorFromArray([[u('/dup1'), u('/dup3')], []], new List(new Field('item', new Utf8(), true))),
          }),
        ),
      ),
    );
    renderWithTheme(
      <ReportTable
        report={duplicates}
        columns={columns}
        rowsState={{ status: 'success', data: { rows, total: rows.length } }}
        sorting={[]}
        onSortColumn={() => {}}
        pagination={{ pageIndex: 0, pageSize: 10 }}
        onPaginationChange={() => {}}
        preferences={{ visibility: {}, order: [], sizing: {} }}
        onPreferencesChange={() => {}}
        onRetry={() => {}}
      />,
    );
    const expanders = screen.getAllByRole('button', { name: 'Show the duplicate set members' });
    expect(expanders).toHaveLength(1);
    fireEvent.click(expanders[0]!);
    const members = screen.getByLabelText('Duplicate set members');
    expect(
      within(members)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual([u('/dup1'), u('/dup3')]);
    fireEvent.click(screen.getByRole('button', { name: 'Hide the duplicate set members' }));
    expect(screen.queryByLabelText('Duplicate set members')).toBeNull();
  });
});
