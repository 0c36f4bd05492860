/** The crawl list of the selected website. Selecting another website resets it (spec §4). */
import { create } from 'zustand';
import { fetchCrawls } from '../api/technical-health-check.ts';
import type { Crawl } from '../api/types.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';

interface CrawlsStore {
  websiteId: string | null;
  state: LoadState<Crawl[]>;
  /** Loads the website's crawls; a different website first drops the previous list. */
  load: (websiteId: string, options?: { isRefresh?: boolean }) => Promise<void>;
  /** Marks a crawl approved at once after the approve call succeeded, before the list reloads. */
  markApproved: (crawlId: number) => void;
  reset: () => void;
}

let controller: AbortController | undefined;

export function sortNewestFirst(crawls: readonly Crawl[]): Crawl[] {
  return [...crawls].sort((a, b) => b.crawlId - a.crawlId);
}

export const useCrawlsStore = create<CrawlsStore>()((set, get) => ({
  websiteId: null,
  state: IDLE,
  load: async (websiteId, options = {}) => {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    const isSameWebsite = get().websiteId === websiteId;
    const previous = get().state;
    set({
      websiteId,
      state:
        isSameWebsite && options.isRefresh && previous.status === 'success'
          ? { status: 'pending', data: previous.data }
          : { status: 'pending' },
    });
    try {
      const crawls = await fetchCrawls(websiteId, mine.signal);
      if (controller === mine) set({ state: { status: 'success', data: sortNewestFirst(crawls) } });
    } catch (error) {
      if (controller === mine && !mine.signal.aborted) set({ state: { status: 'error', error: errorText(error) } });
    }
  },
  markApproved: (crawlId) => {
    const state = get().state;
    if (state.status !== 'success') return;
    set({
      state: {
        status: 'success',
        data: state.data.map((c) => (c.crawlId === crawlId ? { ...c, moduleState: 'APPROVED' as const } : c)),
      },
    });
  },
  reset: () => {
    controller?.abort();
    controller = undefined;
    set({ websiteId: null, state: IDLE });
  },
}));
