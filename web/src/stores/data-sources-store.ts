/**
 * The Data sources page's answer for the selected website, read again while a job runs. A job that ends having
 * changed the store drops the dashboard's cached crawls, overviews and reports, so they show the new data.
 */
import { create } from 'zustand';
import type { DataSourcesAnswer } from '../../../catalog/data-source-calls.ts';
import { fetchDataSources } from '../api/data-sources.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';
import { useCrawlsStore } from './crawls-store.ts';
import { useOverviewStore } from './overview-store.ts';
import { resetLazyStores } from './lazy-store-resets.ts';

interface DataSourcesStore {
  websiteId: string | null;
  state: LoadState<DataSourcesAnswer>;
  /** Reads the website's sources; a refresh keeps the answer shown meanwhile. */
  load: (websiteId: string, options?: { isRefresh?: boolean }) => Promise<void>;
  reset: () => void;
}

let controller: AbortController | undefined;

/** The dashboard's cached crawls, overviews and reports, read again once a job has changed the data. */
export function dropDashboardCaches(websiteId: string): void {
  useOverviewStore.getState().reset();
  resetLazyStores();
  void useCrawlsStore.getState().load(websiteId, { isRefresh: true });
}

export const useDataSourcesStore = create<DataSourcesStore>()((set, get) => ({
  websiteId: null,
  state: IDLE,
  load: async (websiteId, options = {}) => {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    const previous = get().websiteId === websiteId ? get().state : IDLE;
    const shown = previous.status === 'success' || previous.status === 'pending' ? previous.data : undefined;
    set({ websiteId, state: options.isRefresh && shown ? { status: 'pending', data: shown } : { status: 'pending' } });
    try {
      const answer = await fetchDataSources(websiteId, mine.signal);
      if (controller !== mine) return;
      // A job seen done for the first time since the last answer (a first read of the page changes nothing).
      const before = shown && new Map(shown.jobs.map((j) => [j.id, j.status]));
      const hasEnded =
        before !== undefined && answer.jobs.some((j) => j.status === 'done' && before.get(j.id) !== 'done');
      set({ state: { status: 'success', data: answer } });
      if (hasEnded) dropDashboardCaches(websiteId);
    } catch (error) {
      if (controller === mine && !mine.signal.aborted) set({ state: { status: 'error', error: errorText(error) } });
    }
  },
  reset: () => {
    controller?.abort();
    controller = undefined;
    set({ websiteId: null, state: IDLE });
  },
}));
