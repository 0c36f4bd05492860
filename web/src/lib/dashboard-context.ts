import { createContext, useContext } from 'react';
import type { Crawl, DateRange, Overview, SessionUser, Website, WebsiteSegment } from '../api/types.ts';
import type { LoadState } from './load-state.ts';
import type { SectionPage } from './routes.ts';
import type { UrlState } from './url-state.ts';
import type { SetUrlState } from './use-url-state.ts';

/** What every screen of the section reads: the session, the selection and its data. */
export interface DashboardState {
  user: SessionUser;
  isInternal: boolean;
  page: SectionPage;
  url: UrlState;
  setUrl: SetUrlState;
  websites: Website[];
  website: Website;
  segment: WebsiteSegment | undefined;
  crawlsState: LoadState<Crawl[]>;
  crawls: Crawl[];
  current: Crawl | undefined;
  comparison: Crawl | undefined;
  range: DateRange | undefined;
  /** The link named a crawl this user cannot see (or that no longer exists); the newest is shown instead. */
  isUnknownCrawl: boolean;
  /** Internal users see pending crawls; clients only approved ones (spec §6). */
  isCurrentPending: boolean;
  /** Data of the current crawl may be shown to this user. */
  canShowData: boolean;
  overview: LoadState<Overview>;
  comparisonOverview: LoadState<Overview>;
  reloadCrawls: () => void;
  reloadOverview: () => void;
}

export const DashboardContext = createContext<DashboardState | null>(null);

export function useDashboard(): DashboardState {
  const value = useContext(DashboardContext);
  if (!value) throw new Error('useDashboard outside the dashboard');
  return value;
}

/** The selected website's domain, or undefined outside the dashboard (component tests, the login page). */
export function useWebsiteDomain(): string | undefined {
  return useContext(DashboardContext)?.website.domain;
}
