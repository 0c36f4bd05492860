import { useMemo } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useLocation } from 'wouter';
import { SIDEBAR_WIDTH } from '../../../../catalog/constants.ts';
import { useSessionStore, isInternalUser } from '../../stores/session-store.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';
import { parseSectionPath } from '../../lib/routes.ts';
import { withWebsite } from '../../lib/url-state.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { isModuleActive, thcModuleOf } from '../../lib/modules.ts';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { DashboardContext, type DashboardState } from '../../lib/dashboard-context.ts';
import { AppHeader } from './app-header.tsx';
import { DashboardBody } from './dashboard-body.tsx';
import { Sidebar } from '../sidebar/sidebar.tsx';
import { NoWebsitePanel } from './no-website-panel.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { useDashboardCrawls } from './use-dashboard-crawls.ts';
import { useDashboardOverview } from './use-dashboard-overview.ts';
import { useDashboardWebsite } from './use-dashboard-website.ts';

/** The signed-in section: header, sidebar and the page of the current route. */
export function Dashboard() {
  const [location] = useLocation();
  const page = useMemo(() => parseSectionPath(location), [location]);
  const [url, setUrl] = useUrlState();
  const user = useSessionStore((s) => s.user);
  const [isNavOpen, nav] = useDisclosure(false);

  const { websitesState, loadWebsites, websites, website } = useDashboardWebsite(url, setUrl);
  const isActive = website ? isModuleActive(thcModuleOf(website)) : false;
  const websiteId = website?.id ?? null;
  const isInternal = isInternalUser(user);
  // The staff's pages have no crawl to show: no sidebar, no overview.
  const isStaffPage = page.kind === 'crawls' || page.kind === 'data-sources' || page.kind === 'admin';
  const { crawlsState, crawls, selection } = useDashboardCrawls({ websiteId, isActive, url, setUrl, isStaffPage });
  const current = selection.current;
  const isCurrentPending = current !== undefined && current.moduleState !== 'APPROVED';
  const canShowData = current !== undefined && (isInternal || !isCurrentPending);
  const currentId = canShowData && current && !isStaffPage ? current.crawlId : null;
  const comparisonId = canShowData && selection.comparison ? selection.comparison.crawlId : null;
  const { overview, comparisonOverview, reloadOverview } = useDashboardOverview(websiteId, currentId, comparisonId);

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
        reloadOverview,
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
