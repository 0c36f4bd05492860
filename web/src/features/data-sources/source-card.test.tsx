// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { DataSourceStatus, ImportJob } from '../../../../catalog/data-source-calls.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { Notifications } from '@mantine/notifications';
import { DropZone } from './drop-zone.tsx';
import { SourceCard } from './source-card.tsx';

afterEach(cleanup);

const notConnected: DataSourceStatus = {
  id: 'search-console',
  title: 'Search Console',
  isConnected: false,
  isInExport: false,
  rows: 0,
  tables: {},
  days: [],
  periods: [],
  imports: [],
  match: null,
};

const connected: DataSourceStatus = {
  ...notConnected,
  isConnected: true,
  rows: 1234,
  days: [{ date: '2026-11-02', rows: 10 }],
  imports: [
    {
      id: 'v2',
      at: '2026-11-20T10:00:00.000Z',
      by: 'cli',
      files: ['searchdata_url_impression.csv'],
      format: 'Search Console bulk data export',
      rows: 10,
      coverage: { start: '2026-11-02', end: '2026-11-03', granularity: 'day' },
      isReplace: false,
    },
    {
      id: 'v1',
      at: '2026-11-19T10:00:00.000Z',
      by: 'staff@agency.example',
      files: ['Pages.csv', 'Dates.csv'],
      format: 'Search Console Performance report CSV',
      rows: 5,
      coverage: { start: '2026-11-01', end: '2026-11-14', granularity: 'period' },
      isReplace: false,
    },
  ],
  match: {
    crawlId: 2,
    crawledPages: 200,
    matchedPages: 4,
    sourceUrls: 5,
    unmatchedUrls: 1,
    unmatchedExamples: ['https://alpine-travel.eu/de/datenschutz'],
  },
};

const card = (source: DataSourceStatus, job?: ImportJob) =>
  renderWithTheme(
    <SourceCard websiteId="site" source={source} job={job} isBusy={job?.status === 'running'} onChanged={() => {}} />,
  );

describe('a data source card', () => {
  it('says not connected, or that the crawl export brought the data, and offers the drop zone', () => {
    card(notConnected);
    expect(screen.getByTestId('source-status').textContent).toBe('Not connected');
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeTruthy();
    cleanup();
    card({ ...notConnected, isInExport: true });
    expect(screen.getByTestId('source-status').textContent).toBe('In the crawl export');
  });

  it('shows rows, the last import by whom, the matched pages and the unmatched examples', () => {
    card(connected);
    expect(screen.getByTestId('source-status').textContent).toBe('Connected');
    expect(screen.getByText('1,234')).toBeTruthy();
    expect(screen.getByTestId('last-import').textContent).toContain('20 Nov 2026 by npm run import-data');
    expect(screen.getByTestId('matched-pages').textContent).toContain('4 of 200 (2.0%)');
    expect(screen.getByTestId('unmatched').textContent).toContain('https://alpine-travel.eu/de/datenschutz');
    const imports = screen.getAllByTestId('source-import');
    expect(imports.map((i) => within(i).getAllByText(/\.csv/)[0]!.textContent)).toEqual([
      'searchdata_url_impression.csv',
      'Pages.csv, Dates.csv',
    ]);
    expect(imports[1]!.textContent).toContain('totals for 1 Nov 2026 – 14 Nov 2026');
  });

  it('asks before removing an import', async () => {
    card(connected);
    fireEvent.click(screen.getByRole('button', { name: 'Remove the import of Pages.csv, Dates.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this import?' });
    expect(dialog.textContent).toContain('The 5 rows of Pages.csv, Dates.csv leave Search Console');
  });

  it('shows a running job step by step, and disables new uploads meanwhile', () => {
    const job: ImportJob = {
      id: 'j',
      websiteId: 'site',
      source: 'search-console',
      kind: 'import',
      status: 'running',
      step: { phase: 'refreshing', crawlId: 2, done: 1, total: 2 },
      files: ['Pages.csv'],
      by: 'staff@agency.example',
      startedAt: '2026-11-20T10:00:00.000Z',
      endedAt: null,
      summary: null,
    };
    card(connected, job);
    expect(screen.getByTestId('job-progress').textContent).toContain(
      'Importing Pages.csv: refreshing crawl 2 (2 of 2)',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Choose files' }).disabled).toBe(true);
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Replace the dates these files cover' }).disabled,
    ).toBe(true);
  });

  it('says so when files are dropped while another import runs, and takes none of them', async () => {
    let taken = 0;
    renderWithTheme(
      <>
        <Notifications />
        <DropZone
          title="Search Console"
          isDisabled
          uploaded={undefined}
          onFiles={() => taken++}
          isReplace={false}
          onReplace={() => {}}
          testId="drop"
        />
      </>,
    );
    const file = new File(['date,url\n'], 'Pages.csv', { type: 'text/csv' });
    fireEvent.drop(screen.getByTestId('drop'), { dataTransfer: { files: [file] } });
    expect(await screen.findByText('Another import is running for this website')).toBeTruthy();
    expect(screen.getByText('Add these files again once it has ended.')).toBeTruthy();
    expect(taken).toBe(0);
  });

  it('offers to replace the dates the files cover, unticked until the user ticks it', () => {
    card(connected);
    const replace = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Replace the dates these files cover' });
    expect(replace.checked).toBe(false);
    fireEvent.click(replace);
    expect(replace.checked).toBe(true);
  });
});
