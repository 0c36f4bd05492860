// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { ACTIVE_REASON, RunPanel, UNSAVED_REASON } from './run-panel.tsx';
import { RunHistory } from './run-history.tsx';

afterEach(cleanup);

const NOW = '2026-11-23T20:05:00.000Z';

const run = (patch: Partial<CrawlRun>): CrawlRun => ({
  id: 7,
  websiteId: 'site',
  trigger: 'manual',
  startedBy: 'staff@example.com',
  queuedAt: '2026-11-23T20:00:00.000Z',
  startedAt: '2026-11-23T20:00:02.000Z',
  endedAt: null,
  status: 'running',
  progress: { pagesDone: 30, queued: 10, errors: 2, pagesPerSecond: 3.25, elapsedMs: 83_000 },
  crawlId: null,
  partial: null,
  reason: null,
  isCancelRequested: false,
  isKeepRequested: false,
  ...patch,
});

/** The panel of a website whose settings are saved, its run list read at NOW. */
const renderPanel = (active: CrawlRun | undefined) =>
  renderWithTheme(
    <RunPanel websiteId="site" active={active} hasUnsavedSettings={false} onRunChanged={() => {}} now={NOW} />,
  );

const startButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Start now' });

describe('RunPanel', () => {
  it('offers Start now when nothing runs and the settings are saved', () => {
    renderPanel(undefined);
    expect(startButton().disabled).toBe(false);
    expect(screen.queryByTestId('start-reason')).toBeNull();
  });

  it('says why Start now is disabled', () => {
    const { rerender } = renderWithTheme(
      <RunPanel websiteId="site" active={undefined} hasUnsavedSettings onRunChanged={() => {}} now={NOW} />,
    );
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe(UNSAVED_REASON);
    rerender(
      <RunPanel websiteId="site" active={run({})} hasUnsavedSettings={false} onRunChanged={() => {}} now={NOW} />,
    );
    expect(screen.getByTestId('start-reason').textContent).toBe(ACTIVE_REASON);
    expect(startButton().getAttribute('aria-describedby')).toBe('start-reason');
  });

  it("shows the active run's progress, and Cancel asks first with keeping off", async () => {
    renderPanel(run({}));
    const card = screen.getByTestId('active-run');
    const stat = (label: string) => card.querySelector(`[data-stat="${label}"]`)?.textContent;
    expect([stat('Pages done'), stat('Queued'), stat('Pages/s'), stat('Errors'), stat('Elapsed')]).toEqual([
      '30',
      '10',
      '3.3',
      '2',
      '01:23',
    ]);
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('75');
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this crawl?' });
    const keep = within(dialog).getByRole<HTMLInputElement>('checkbox', {
      name: 'Keep the pages crawled so far and load them as a crawl',
    });
    expect(keep.checked).toBe(false);
  });

  it('shows a requested cancel as Cancelling and does not offer Cancel again', () => {
    renderPanel(run({ isCancelRequested: true }));
    expect(screen.getByTestId('active-run-status').textContent).toBe('Cancelling');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
  });
});

describe('RunPanel activity', () => {
  it('shows the phase and last activity, and a stall by the service clock', () => {
    const progressAt = Date.parse(NOW) - 125_000;
    const progress = { ...run({}).progress, phase: 'fetching' as const, lastActivityAt: progressAt, progressAt };
    renderPanel(run({ progress }));
    expect(screen.getByTestId('run-activity').textContent).toBe('Fetching pages · last response 2 min ago');
    expect(screen.getByTestId('run-stalled').textContent).toBe('Stalled: no progress for 2 min');
  });

  it('shows a long load step as loading, not as a stall', () => {
    const progressAt = Date.parse(NOW) - 125_000;
    const progress = { ...run({}).progress, phase: 'loading' as const, lastActivityAt: progressAt, progressAt };
    renderPanel(run({ status: 'loading', progress }));
    expect(screen.getByTestId('active-run-status').textContent).toBe('Loading');
    expect(screen.getByTestId('run-activity').textContent).toBe('Loading the crawl · last load step 2 min ago');
    expect(screen.queryByTestId('run-stalled')).toBeNull();
  });

  it('offers to drop the pages while a cancel that keeps them runs', () => {
    renderPanel(run({ isCancelRequested: true, isKeepRequested: true }));
    expect(screen.getByTestId('active-run-status').textContent).toBe('Cancelling');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel without keeping' }).disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

describe('RunHistory', () => {
  it('links a loaded run to its crawl, marks a partial one, and wraps a long failure in full', () => {
    const reason = `start URL http://127.0.0.1:9/ is unreachable (${'connect ECONNREFUSED '.repeat(8)})`;
    renderWithTheme(
      <RunHistory
        websiteId="site"
        runs={[
          run({ id: 3, status: 'failed', reason, endedAt: '2026-11-23T20:01:00.000Z' }),
          run({ id: 2, status: 'cancelled', trigger: 'schedule', startedBy: null }),
          run({ id: 1, status: 'loaded', crawlId: 4 }),
          run({
            id: 0,
            status: 'loaded',
            crawlId: 3,
            partial: 'time-limit',
            progress: { ...run({}).progress, phase: 'loading' },
          }),
        ]}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-run'))).toEqual(['3', '2', '1', '0']);
    const failed = within(rows[0]!).getByTestId('outcome');
    expect(failed.textContent).toBe(`Failed: ${reason.replace(/\s+/g, ' ').trim()}`);
    expect(failed.style.textOverflow).toBe('');
    expect(failed.style.whiteSpace).toBe('normal');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(1, 6),
    ).toEqual(['Cancelled', '30', '—', 'Scheduled', 'Schedule']);
    expect(within(rows[2]!).getByRole('link', { name: 'Loaded as crawl 4' }).getAttribute('href')).toBe(
      '/technical-health-check?website=site&crawl=4',
    );
    expect(screen.queryByTestId('parse-failures')).toBeNull();
    expect(within(rows[2]!).queryByTestId('partial')).toBeNull();
    const partial = within(rows[3]!).getByTestId('partial');
    expect(partial.textContent).toBe('Partial');
    expect(partial.getAttribute('title')).toBe('Partial: it was stopped at its time limit');
    expect(within(rows[3]!).getByTestId('phase').textContent).toBe('Loading the crawl');
  });

  it('counts the pages a run could not parse, in its row and in the panel while it runs', () => {
    const progress = { ...run({}).progress, parseFailures: 3 };
    renderWithTheme(
      <RunHistory
        websiteId="site"
        runs={[
          run({ id: 2, status: 'loaded', crawlId: 5, progress: { ...progress, parseFailures: 1 } }),
          run({ id: 1, status: 'loaded', crawlId: 4, progress }),
        ]}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByTestId('parse-failures').textContent).toBe('1 page not parsed');
    expect(within(rows[1]!).getByTestId('parse-failures').textContent).toBe('3 pages not parsed');
    cleanup();
    renderPanel(run({ progress }));
    expect(within(screen.getByTestId('active-run')).getByTestId('parse-failures').textContent).toBe(
      '3 pages not parsed',
    );
  });
});
