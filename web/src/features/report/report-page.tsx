import { useMemo, useState } from 'react';
import { Stack } from '@mantine/core';
import { crawlFileLabel } from '../../../../catalog/crawl-label.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { reportHeading } from '../../lib/catalog.ts';
import { rowsTotal, useReportStore } from '../../stores/report-store.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { CrawlNotice } from '../../components/crawl-notice.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { IssuesChart } from './issues-chart.tsx';
import { hasChecklist } from './table-model.ts';
import { NotConnectedPanel } from '../../components/not-connected-panel.tsx';
import { overviewMetrics } from '../../lib/overview-metrics.ts';
import { ReportBreakdown } from './report-breakdown.tsx';
import { ReportHeader } from './report-header.tsx';
import { useChecklistEdits } from './use-checklist-edits.ts';
import { useCsvExport } from './use-csv-export.ts';
import { useReportColumns } from './use-report-columns.ts';
import { useReportQueries } from './use-report-queries.ts';
import { useTablePreferences } from './use-table-preferences.ts';

/** One report of one crawl: header, issues over time, the breakdown tabs and the table (spec §2 'Report page'). */
export function ReportPage({ report }: { report: ReportDefinition }) {
  const { website, segment, crawls, current, url, overview } = useDashboard();
  const email = useSessionStore((s) => s.user?.email ?? '');
  const isStaff = useSessionStore((s) => s.user !== null && s.user.role !== 'CLIENT');
  const summary = useReportStore((s) => s.summary);
  const overviewData = overview.status === 'success' ? overview.data : undefined;
  const metrics = useMemo(() => overviewMetrics(overviewData), [overviewData]);
  const notConnected =
    metrics.get(report.id)?.notConnected ?? (summary.status === 'success' ? summary.data?.notConnected : undefined);
  // The total only: a page turn's pending and answered rows render the table and its pages, not this page.
  const total = useReportStore((s) => rowsTotal(s.rows));
  const [preferences, setPreferences, resetPreferences] = useTablePreferences(email, report.id);
  const [isColumnDialogOpen, setColumnDialogOpen] = useState(false);

  useDocumentTitle(reportHeading(report));
  const view = useReportQueries(report, notConnected);
  const { tab, query, sorting, refresh } = view;
  const isLatestCrawl = current !== undefined && crawls[0]?.crawlId === current.crawlId;
  const columns = useReportColumns(
    report,
    { segment, isLatestCrawl, differenceType: tab, showChecked: url.checked },
    preferences,
  );

  // The summary's one error state: in the chart when the report has one, else above the tabs it counts.
  const summaryError =
    summary.status === 'error' ? <FetchErrorPanel area="summary" onRetry={view.retrySummary} /> : null;
  const trends = summary.status === 'success' || summary.status === 'pending' ? (summary.data?.trends ?? []) : [];
  const notice = summary.status === 'success' ? summary.data?.notice : undefined;
  const fileStem = current ? `${report.title} ${crawlFileLabel(current.label)}` : report.title;
  const checklist = useChecklistEdits({
    report,
    websiteId: website.id,
    segmentId: segment?.id,
    crawlId: current?.crawlId,
    differenceType: tab,
    isEditable: hasChecklist(report, { segment, isLatestCrawl, differenceType: tab }),
    onSaved: refresh,
  });
  const csvExport = useCsvExport({ query, orderBy: sorting, columns: columns.visibleColumns, fileStem, total });

  return (
    <Stack gap="md">
      <ReportHeader report={report} isRefreshing={summary.status === 'pending'} onRefresh={refresh} />

      <CrawlNotice notice={notice} />

      {notConnected ? <NotConnectedPanel source={notConnected} isStaff={isStaff} /> : null}

      {report.includeTrends && !notConnected ? (
        <IssuesChart
          trends={trends}
          fileStem={fileStem}
          isLoading={summary.status === 'pending' || summary.status === 'idle'}
          error={summaryError}
        />
      ) : null}

      {report.includeTable && !notConnected ? (
        <ReportBreakdown
          report={report}
          view={view}
          summary={summary}
          summaryError={summaryError}
          columns={columns}
          preferences={preferences}
          onPreferencesChange={setPreferences}
          onResetPreferences={resetPreferences}
          checklist={checklist}
          csvExport={csvExport}
          total={total}
          isColumnDialogOpen={isColumnDialogOpen}
          onColumnDialogOpen={setColumnDialogOpen}
        />
      ) : null}
    </Stack>
  );
}
