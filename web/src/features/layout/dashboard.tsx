import { useEffect, useMemo } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useLocation } from 'wouter';
import { SIDEBAR_WIDTH } from '../../../../catalog/constants.ts';
import type { Crawl, Website } from '../../api/types.ts';
import type { LoadState } from '../../lib/load-state.ts';

const PENDING: LoadState<never> = { status: 'pending' };
import { useSessionStore, isInternalUser } from '../../stores/session-store.ts';
import { useWebsitesStore } from '../../stores/websites-store.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';
import { useOverview, useOverviewStore } from '../../stores/overview-store.ts';
import { parseSectionPath } from '../../lib/routes.ts';
import { resolveCrawlSelection, withWebsite } from '../../lib/url-state.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { isModuleActive, thcModuleOf } from '../../lib/modules.ts';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { AppHeader } from './app-header.tsx';
import { DashboardBody } from './dashboard-body.tsx';
import { Sidebar } from '../sidebar/sidebar.tsx';
import { NoWebsitePanel } from './no-website-panel.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';

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

/** The signed-in section: header, sidebar and the page of the current route. */
export function Dashboard() {
  const [location] = useLocation();
  const page = useMemo(() => parseSectionPath(location), [location]);
  const [url, setUrl] = useUrlState();
  const user = useSessionStore((s) => s.user);
  const websitesState = useWebsitesStore((s) => s.state);
  const loadWebsites = useWebsitesStore((s) => s.load);
  const crawlsStore = useCrawlsStore();
  const loadOverview = useOverviewStore((s) => s.load);
  const [isNavOpen, nav] = useDisclosure(false);

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

  const isActive = website ? isModuleActive(thcModuleOf(website)) : false;
  const websiteId = website?.id ?? null;

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
  const isInternal = isInternalUser(user);
  // The staff's pages have no crawl to show: no sidebar, no overview.
  const isStaffPage = page.kind === 'crawls' || page.kind === 'data-sources' || page.kind === 'admin';
  const current = selection.current;
  const isCurrentPending = current !== undefined && current.moduleState !== 'APPROVED';
  const canShowData = current !== undefined && (isInternal || !isCurrentPending);

  useEffect(() => {
    if (!isStaffPage && crawlsState.status === 'success' && url.crawl === undefined && current) {
      setUrl((s) => ({ ...s, crawl: current.crawlId }), { replace: true });
    }
  }, [isStaffPage, crawlsState.status, url.crawl, current, setUrl]);

  const currentId = canShowData && current && !isStaffPage ? current.crawlId : null;
  const comparisonId = canShowData && selection.comparison ? selection.comparison.crawlId : null;
  useEffect(() => {
    if (websiteId && currentId !== null) void loadOverview(websiteId, currentId, { comparisonId });
  }, [websiteId, currentId, comparisonId, loadOverview]);
  useEffect(() => {
    if (websiteId && comparisonId !== null) void loadOverview(websiteId, comparisonId);
  }, [websiteId, comparisonId, loadOverview]);

  const overview = useOverview(websiteId, currentId, comparisonId);
  const comparisonOverview = useOverview(websiteId, comparisonId);

  if (!user) return null;
  if (websitesState.status === 'idle' || websitesState.status === 'pending') {
    return <FullPageLoader label="Loading your websites" />;
  }

  const segment =
    website?.segments.find((s) => s.id === url.segment) ??
    website?.segments.find((s) => s.isDefault) ??
    website?.segments[0];

  const state: DashboardState | null = website
    ? {
        user,
        isInternal,
        page,
        url,
        setUrl,
        websites,
        website,
        segment,
        crawlsState,
        crawls,
        current,
        comparison: selection.comparison,
        range: selection.range,
        isUnknownCrawl: crawlsState.status === 'success' && selection.isUnknownCrawl,
        isCurrentPending,
        canShowData,
        overview,
        comparisonOverview,
        reloadCrawls: () => void useCrawlsStore.getState().load(website.id, { isRefresh: true }),
        reloadOverview: () => {
          if (currentId !== null) void loadOverview(website.id, currentId, { refresh: true, comparisonId });
          // The comparison's overview loads again only if it failed too (a loaded one is kept).
          if (comparisonId !== null) void loadOverview(website.id, comparisonId);
        },
      }
    : null;

  const hasSidebar = state !== null && isActive && canShowData && !isStaffPage;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={hasSidebar ? { width: SIDEBAR_WIDTH, breakpoint: 'md', collapsed: { mobile: !isNavOpen } } : undefined}
      padding={{ base: 'sm', xs: 'md', md: 'lg' }}
    >
      <a className="thc-skip-link" href="#main-content">
        Skip to content
      </a>
      <AppShell.Header>
        <AppHeader
          websites={websites}
          website={website}
          hasBurger={hasSidebar}
          isNavOpen={isNavOpen}
          onToggleNav={nav.toggle}
          onWebsiteChange={(id) => {
            nav.close();
            setUrl((s) => withWebsite(s, id));
          }}
        />
      </AppShell.Header>
      {state && hasSidebar ? (
        <DashboardContext.Provider value={state}>
          <AppShell.Navbar aria-label="Reports">
            <Sidebar onNavigate={nav.close} />
          </AppShell.Navbar>
        </DashboardContext.Provider>
      ) : null}
      <AppShell.Main id="main-content" tabIndex={-1}>
        {websitesState.status === 'error' ? (
          <FetchErrorPanel area="websites" onRetry={() => void loadWebsites()} />
        ) : state ? (
          <DashboardContext.Provider value={state}>
            <DashboardBody isModuleActive={isActive} />
          </DashboardContext.Provider>
        ) : websites.length === 0 ? (
          <NoWebsitePanel kind="none" />
        ) : url.website !== undefined ? (
          <NoWebsitePanel kind="unknown" />
        ) : (
          <FullPageLoader label="Opening your website" />
        )}
      </AppShell.Main>
    </AppShell>
  );
}
