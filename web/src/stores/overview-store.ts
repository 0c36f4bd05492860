/** Overviews per website and crawl, shared by the sidebar and the overview page. Bounded, newest kept. */
import { create } from 'zustand';
import { fetchOverview } from '../api/technical-health-check.ts';
import type { Overview } from '../api/types.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';

export const OVERVIEW_CACHE_SIZE = 24;

interface OverviewStore {
  entries: Record<string, LoadState<Overview>>;
  /** Insertion order of `entries`, oldest first, for eviction. */
  order: string[];
  /** comparisonId: as get-overview takes it (undefined: the next older crawl; null: none). */
  load: (
    websiteId: string,
    crawlId: number,
    options?: { refresh?: boolean; comparisonId?: number | null },
  ) => Promise<void>;
  reset: () => void;
}

export const overviewKey = (websiteId: string, crawlId: number, comparisonId?: number | null): string =>
  `${websiteId}#${crawlId}#${comparisonId === undefined ? 'default' : String(comparisonId)}`;

const inFlight = new Map<string, Promise<void>>();

export const useOverviewStore = create<OverviewStore>()((set, get) => ({
  entries: {},
  order: [],
  load: (websiteId, crawlId, options = {}) => {
    const key = overviewKey(websiteId, crawlId, options.comparisonId);
    const current = get().entries[key];
    if (!options.refresh && (current?.status === 'success' || current?.status === 'pending')) {
      return inFlight.get(key) ?? Promise.resolve();
    }
    const put = (state: LoadState<Overview>): void =>
      set((s) => {
        const order = [...s.order.filter((k) => k !== key), key];
        const entries = { ...s.entries, [key]: state };
        while (order.length > OVERVIEW_CACHE_SIZE) {
          const evicted = order.shift()!;
          delete entries[evicted];
        }
        return { entries, order };
      });
    put({ status: 'pending', data: current?.status === 'success' ? current.data : undefined });
    const promise = fetchOverview({
      websiteId,
      currentId: crawlId,
      comparisonId: options.comparisonId,
      refresh: options.refresh ?? false,
    })
      .then(
        (data) => put({ status: 'success', data }),
        (error: unknown) => put({ status: 'error', error: errorText(error) }),
      )
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  },
  reset: () => {
    inFlight.clear();
    set({ entries: {}, order: [] });
  },
}));

export function useOverview(
  websiteId: string | null,
  crawlId: number | null,
  comparisonId?: number | null,
): LoadState<Overview> {
  return useOverviewStore((s) =>
    websiteId !== null && crawlId !== null ? (s.entries[overviewKey(websiteId, crawlId, comparisonId)] ?? IDLE) : IDLE,
  );
}
