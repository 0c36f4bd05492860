import { useEffect, useMemo } from 'react';
import type { Website } from '../../api/types.ts';
import type { UrlState } from '../../lib/url-state.ts';
import type { SetUrlState } from '../../lib/use-url-state.ts';
import { useWebsitesStore } from '../../stores/websites-store.ts';

const LAST_WEBSITE_KEY = 'thc:last-website';

function preferredWebsite(websites: readonly Website[]): Website | undefined {
  let remembered: string | null = null;
  try {
    remembered = window.localStorage.getItem(LAST_WEBSITE_KEY);
  } catch {
    // storage may be blocked; fall back to the first website
  }
  return websites.find((w) => w.id === remembered) ?? websites[0];
}

function rememberWebsite(id: string): void {
  try {
    window.localStorage.setItem(LAST_WEBSITE_KEY, id);
  } catch {
    // not fatal
  }
}

/** The user's websites and the one the URL names; without one in the URL, the last one opened (or the first). */
export function useDashboardWebsite(url: UrlState, setUrl: SetUrlState) {
  const websitesState = useWebsitesStore((s) => s.state);
  const loadWebsites = useWebsitesStore((s) => s.load);

  useEffect(() => {
    if (useWebsitesStore.getState().state.status === 'idle') void loadWebsites();
  }, [loadWebsites]);

  const websites = useMemo(() => (websitesState.status === 'success' ? websitesState.data : []), [websitesState]);
  const website = websites.find((w) => w.id === url.website);
  const fallbackWebsite = url.website === undefined ? preferredWebsite(websites) : undefined;

  useEffect(() => {
    if (fallbackWebsite) setUrl((current) => ({ ...current, website: fallbackWebsite.id }), { replace: true });
  }, [fallbackWebsite, setUrl]);

  useEffect(() => {
    if (website) rememberWebsite(website.id);
  }, [website]);

  return { websitesState, loadWebsites, websites, website };
}
