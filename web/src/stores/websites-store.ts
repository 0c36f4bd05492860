import { create } from 'zustand';
import { fetchWebsites } from '../api/websites.ts';
import type { Website } from '../api/types.ts';
import { errorText, IDLE, type LoadState } from '../lib/load-state.ts';

interface WebsitesStore {
  state: LoadState<Website[]>;
  load: () => Promise<void>;
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
  reset: () => {
    generation++;
    set({ state: IDLE });
  },
}));
