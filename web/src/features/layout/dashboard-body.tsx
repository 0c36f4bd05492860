import { lazy, Suspense } from 'react';
import { Alert, Skeleton, Stack } from '@mantine/core';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { SectionHeader } from './section-header.tsx';
import { SectionControls } from './section-controls.tsx';
import { ModuleInactivePanel } from '../crawl-state/module-inactive-panel.tsx';
import { ClientPendingPanel } from '../crawl-state/client-pending-panel.tsx';
import { PendingNotice } from '../crawl-state/pending-notice.tsx';
import { PartialCrawlNotice } from '../crawl-state/partial-crawl-notice.tsx';
import { NoCrawlsPanel } from '../crawl-state/no-crawls-panel.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { OverviewPage } from '../overview/overview-page.tsx';
import { ReportNotFound, ReportRoute } from '../report/report-route.tsx';
import { findVisibleReport } from '../../lib/catalog.ts';
import { CrawlsPage } from '../crawls/crawls-page.tsx';

// Staff only, and it brings the chart library (Observable Plot) its coverage chart draws with: loaded when first shown.
const DataSourcesPage = lazy(() =>
  import('../data-sources/data-sources-page.tsx').then((m) => ({ default: m.DataSourcesPage })),
);

// Internal users only: loaded when first shown.
const AdminPage = lazy(() => import('../admin/admin-page.tsx').then((m) => ({ default: m.AdminPage })));

/** The section layout (spec §2): title and intro, the crawl controls, crawl-state notices, then the page. */
export function DashboardBody({ isModuleActive }: { isModuleActive: boolean }) {
  const dashboard = useDashboard();
  const { page, segment, crawlsState, crawls, current, comparison, isInternal, isCurrentPending } = dashboard;
  const { isUnknownCrawl, reloadCrawls } = dashboard;
  const report =
    page.kind === 'report'
      ? findVisibleReport(page.category, page.report, { isHreflang: segment?.isHreflang === true })
      : undefined;
  useDocumentTitle(
    page.kind === 'overview'
      ? 'Overview'
      : page.kind === 'crawls'
        ? 'Crawls'
        : page.kind === 'data-sources'
          ? 'Data sources'
          : page.kind === 'admin'
            ? 'Administration'
            : report
              ? undefined
              : 'Report not found',
  );

  if (page.kind === 'crawls') return <CrawlsPage />;
  if (page.kind === 'data-sources')
    return (
      <Suspense fallback={<Skeleton h={160} radius="md" aria-label="Loading the data sources" />}>
        <DataSourcesPage />
      </Suspense>
    );
  if (page.kind === 'admin')
    return (
      <Suspense fallback={<Skeleton h={200} radius="md" aria-label="Loading the administration" />}>
        <AdminPage />
      </Suspense>
    );

  if (!isModuleActive) {
    return (
      <Stack gap="lg" maw={1600}>
        <SectionHeader />
        <ModuleInactivePanel />
      </Stack>
    );
  }

  if (page.kind !== 'overview' && !report) {
    return (
      <Stack gap="md" maw={1600}>
        <SectionHeader />
        <ReportNotFound />
      </Stack>
    );
  }

  let content: React.ReactNode;
  if (crawlsState.status === 'error') {
    content = <FetchErrorPanel area="crawls" onRetry={reloadCrawls} />;
  } else if (crawlsState.status !== 'success' && crawls.length === 0) {
    content = (
      <Stack gap="sm" aria-busy="true" aria-label="Loading crawls">
        <Skeleton h={64} radius="md" />
        <Skeleton h={280} radius="md" />
      </Stack>
    );
  } else if (!current) {
    content = isInternal ? <NoCrawlsPanel /> : <ClientPendingPanel />;
  } else if (!isInternal && isCurrentPending) {
    content = <ClientPendingPanel />;
  } else {
    content = (
      <>
        {isUnknownCrawl ? (
          <Alert color="blue" variant="light" radius="md" data-testid="unknown-crawl">
            The crawl in this link is not available to you, so the latest crawl is shown instead.
          </Alert>
        ) : null}
        {isInternal && isCurrentPending ? <PendingNotice crawl={current} /> : null}
        <PartialCrawlNotice current={current} comparison={comparison} />
        {report ? <ReportRoute report={report} /> : <OverviewPage />}
      </>
    );
  }

  const hasControls = current !== undefined && (isInternal || !isCurrentPending);
  return (
    <Stack gap="md" maw={1600}>
      <SectionHeader />
      {hasControls ? <SectionControls /> : null}
      {content}
    </Stack>
  );
}
