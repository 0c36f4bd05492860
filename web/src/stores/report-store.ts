/**
 * The open report's summary (trends and difference counts) and its current page of rows. Each load supersedes
 * the previous one of its kind; a superseded answer is dropped. On a failed rows request the rows empty and the
 * total is 0 (spec §4). Only the lazily loaded report page imports this store, so Arrow loads with it.
 */
import { create } from 'zustand';
import { fetchSummary, type ReportQuery } from '../api/technical-health-check.ts';
import type { ReportSummary, SortOrder } from '../api/types.ts';
import { fetchRows, type RowsPage } from '../api/report-rows.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';
import { registerLazyStoreReset } from './lazy-store-resets.ts';

export interface SummaryRequest extends ReportQuery {
  trendCrawlIds: number[];
}

export interface PageRequest {
  limit: number;
  offset: number;
  orderBy: SortOrder[];
}

interface ReportStore {
  summaryKey: string | null;
  summary: LoadState<ReportSummary>;
  rowsKey: string | null;
  rows: LoadState<RowsPage>;
  loadSummary: (request: SummaryRequest, options?: { skipCache?: boolean }) => Promise<void>;
  loadRows: (request: ReportQuery, page: PageRequest, options?: { force?: boolean }) => Promise<void>;
  reset: () => void;
}

/** The rows' total: kept while the next page loads, 0 after a failed load (spec §4). */
export function rowsTotal(rows: LoadState<RowsPage>): number {
  if (rows.status === 'success') return rows.data.total;
  return rows.status === 'pending' ? (rows.data?.total ?? 0) : 0;
}

let summaryController: AbortController | undefined;
let rowsController: AbortController | undefined;

export const useReportStore = create<ReportStore>()((set, get) => ({
  summaryKey: null,
  summary: IDLE,
  rowsKey: null,
  rows: IDLE,

  loadSummary: async (request, options = {}) => {
    const key = JSON.stringify(request);
    const state = get();
    if (
      !options.skipCache &&
      state.summaryKey === key &&
      state.summary.status !== 'error' &&
      state.summary.status !== 'idle'
    ) {
      return;
    }
    summaryController?.abort();
    const mine = new AbortController();
    summaryController = mine;
    const previous = state.summaryKey === key && state.summary.status === 'success' ? state.summary.data : undefined;
    set({ summaryKey: key, summary: { status: 'pending', data: previous } });
    try {
      const data = await fetchSummary({ ...request, skipCache: options.skipCache === true }, mine.signal);
      if (summaryController === mine) set({ summary: { status: 'success', data } });
    } catch (error) {
      if (summaryController === mine && !mine.signal.aborted)
        set({ summary: { status: 'error', error: errorText(error) } });
    }
  },

  loadRows: async (request, page, options = {}) => {
    const key = JSON.stringify([request, page]);
    const state = get();
    if (!options.force && state.rowsKey === key && state.rows.status !== 'error' && state.rows.status !== 'idle')
      return;
    rowsController?.abort();
    const mine = new AbortController();
    rowsController = mine;
    const previous = state.rows.status === 'success' ? state.rows.data : undefined;
    set({ rowsKey: key, rows: { status: 'pending', data: previous } });
    try {
      const data = await fetchRows({ ...request, ...page }, mine.signal);
      if (rowsController === mine) set({ rows: { status: 'success', data } });
    } catch (error) {
      if (rowsController === mine && !mine.signal.aborted) set({ rows: { status: 'error', error: errorText(error) } });
    }
  },

  reset: () => {
    summaryController?.abort();
    rowsController?.abort();
    set({ summaryKey: null, summary: IDLE, rowsKey: null, rows: IDLE });
  },
}));

registerLazyStoreReset(() => useReportStore.getState().reset());
