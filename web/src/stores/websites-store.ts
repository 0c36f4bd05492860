import { create } from 'zustand';
import { fetchWebsites } from '../api/websites.ts';
import type { Website } from '../api/types.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';

interface WebsitesStore {
  state: LoadState<Website[]>;
  load: () => Promise<void>;
  /** Loads again without a pending state in between (after an administration change): the page stays as it is. */
  refresh: () => Promise<void>;
  reset: () => void;
}

let generation = 0;

export const useWebsitesStore = create<WebsitesStore>()((set) => ({
  state: IDLE,
  load: async () => {
    const mine = ++generation;
    set({ state: { status: 'pending' } });
    try {
      const websites = await fetchWebsites();
      if (mine === generation) set({ state: { status: 'success', data: websites } });
    } catch (error) {
      if (mine === generation) set({ state: { status: 'error', error: errorText(error) } });
    }
  },
  refresh: async () => {
    const mine = ++generation;
    try {
      const websites = await fetchWebsites();
      if (mine === generation) set({ state: { status: 'success', data: websites } });
    } catch {
      // The list shown stays; the next load tells.
    }
  },
  reset: () => {
    generation++;
    set({ state: IDLE });
  },
}));
