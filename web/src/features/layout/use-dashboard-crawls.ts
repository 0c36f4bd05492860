import { useEffect, useMemo } from 'react';
import type { Crawl } from '../../api/types.ts';
import type { LoadState } from '../../lib/load-state.ts';
import { resolveCrawlSelection, type UrlState } from '../../lib/url-state.ts';
import type { SetUrlState } from '../../lib/use-url-state.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';

const PENDING: LoadState<never> = { status: 'pending' };

export interface DashboardCrawlsInput {
  websiteId: string | null;
  isActive: boolean;
  url: UrlState;
  setUrl: SetUrlState;
  isStaffPage: boolean;
}

/** The website's crawls and the current and comparison crawls the URL selects; a page with a crawl names it in the URL. */
export function useDashboardCrawls({ websiteId, isActive, url, setUrl, isStaffPage }: DashboardCrawlsInput) {
  const crawlsStore = useCrawlsStore();

  useEffect(() => {
    if (websiteId && isActive) void useCrawlsStore.getState().load(websiteId);
    else useCrawlsStore.getState().reset();
  }, [websiteId, isActive]);

  const crawlsState: LoadState<Crawl[]> = crawlsStore.websiteId === websiteId ? crawlsStore.state : PENDING;
  const crawls = useMemo(
    () => (crawlsState.status === 'success' || crawlsState.status === 'pending' ? (crawlsState.data ?? []) : []),
    [crawlsState],
  );
  const selection = useMemo(() => resolveCrawlSelection(crawls, url), [crawls, url]);
  const current = selection.current;

  useEffect(() => {
    if (!isStaffPage && crawlsState.status === 'success' && url.crawl === undefined && current) {
      setUrl((s) => ({ ...s, crawl: current.crawlId }), { replace: true });
    }
  }, [isStaffPage, crawlsState.status, url.crawl, current, setUrl]);

  return { crawlsState, crawls, selection };
}
