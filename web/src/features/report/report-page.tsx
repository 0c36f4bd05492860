import { useCallback, useEffect, useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, MAX_TREND_CRAWLS } from '../../../../catalog/constants.ts';
import { crawlFileLabel } from '../../../../catalog/crawl-label.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import { filterMatchesText } from '../../../../catalog/api.ts';
import type { DifferenceType } from '../../api/types.ts';
import { columnById, reportHeading } from '../../lib/catalog.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { SEVERITY_LABELS, SEVERITY_TONES } from '../../lib/severity.ts';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { rowsTotal, useReportStore } from '../../stores/report-store.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { Icon } from '../../components/icon.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { CrawlNotice } from '../../components/crawl-notice.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { IssuesChart } from './issues-chart.tsx';
import { ReportTable, type ReportTableProps } from './report-table.tsx';
import { TablePagination, type TablePaginationProps } from './table-pagination.tsx';
import { ColumnDialog } from './column-dialog.tsx';
import { hasChecklist, nextSort, reportColumns } from './table-model.ts';
import { ChecklistContext } from './checklist-context.ts';
import { ChecklistSaveDialog } from './checklist-save-dialog.tsx';
import { CsvExportProgress } from './csv-export-progress.tsx';
import { DifferenceTabs } from './difference-tabs.tsx';
import { NoColumnsPanel } from './no-columns-panel.tsx';
import { RemovalReasonFilter } from './removal-reason-filter.tsx';
import { StakeOrderNote } from './stake-order-note.tsx';
import { NotConnectedPanel } from './not-connected-panel.tsx';
import { overviewMetrics } from '../../lib/overview-metrics.ts';
import { useChecklistEdits } from './use-checklist-edits.ts';
import { useCsvExport } from './use-csv-export.ts';
import { useTablePreferences } from './use-table-preferences.ts';

/** The table with the store's rows: it alone renders when the rows load. */
function StoreReportTable(props: Omit<ReportTableProps, 'rowsState'>) {
  const rowsState = useReportStore((s) => s.rows);
  return <ReportTable {...props} rowsState={rowsState} />;
}

/**
 * The pages with the store's total and load state. Pending matters to them only while there is no total yet, so a
 * page turn, which keeps the total, does not render them again when it starts loading or when its rows arrive.
 */
function StoreTablePagination({
  filter,
  ...props
}: Omit<TablePaginationProps, 'total' | 'isError' | 'isPending' | 'note'> & { filter: string | undefined }) {
  const total = useReportStore((s) => rowsTotal(s.rows));
  const isError = useReportStore((s) => s.rows.status === 'error');
  const isPending = useReportStore((s) => s.rows.status === 'pending' && rowsTotal(s.rows) === 0);
  const matches = useReportStore((s) => (s.rows.status === 'success' ? s.rows.data.filterMatches : undefined));
  const note = filter && matches ? filterMatchesText(filter, matches) : undefined;
  return <TablePagination {...props} total={total} isError={isError} isPending={isPending} note={note} />;
}

/** One report of one crawl: header, issues over time, the breakdown tabs and the table (spec §2 'Report page'). */
export function ReportPage({ report }: { report: ReportDefinition }) {
  const { website, segment, crawls, current, comparison, range, url, setUrl, overview } = useDashboard();
  const email = useSessionStore((s) => s.user?.email ?? '');
  const isStaff = useSessionStore((s) => s.user !== null && s.user.role !== 'CLIENT');
  const summary = useReportStore((s) => s.summary);
  const overviewData = overview.status === 'success' ? overview.data : undefined;
  const metrics = useMemo(() => overviewMetrics(overviewData), [overviewData]);
  const notConnected =
    metrics.get(report.id)?.notConnected ?? (summary.status === 'success' ? summary.data?.notConnected : undefined);
  // The total only: a page turn's pending and answered rows render the table and its pages, not this page.
  const total = useReportStore((s) => rowsTotal(s.rows));
  const loadSummary = useReportStore((s) => s.loadSummary);
  const loadRows = useReportStore((s) => s.loadRows);
  const [preferences, setPreferences, resetPreferences] = useTablePreferences(email, report.id);
  const [isColumnDialogOpen, setColumnDialogOpen] = useState(false);

  useDocumentTitle(reportHeading(report));
  const tab: DifferenceType = url.tab ?? 'all';
  const pageIndex = (url.page ?? 1) - 1;
  const pageSize = url.size ?? DEFAULT_PAGE_SIZE;
  const sorting = useMemo(() => url.sort ?? [], [url.sort]);
  const isLatestCrawl = current !== undefined && crawls[0]?.crawlId === current.crawlId;

  const query = useMemo<ReportQuery | null>(
    () =>
      current && range
        ? {
            websiteId: website.id,
            segmentId: segment?.id ?? null,
            currentId: current.crawlId,
            comparisonId: comparison?.crawlId ?? null,
            dataDateRange: range,
            differenceType: tab,
            removalReason: tab === 'removed' ? (url.reason ?? null) : null,
            reportId: report.id,
            tableId: report.tableId,
            showChecked: url.checked === true,
            userFilter: url.filter ?? '',
            channel: null,
          }
        : null,
    [
      website.id,
      segment?.id,
      current,
      comparison?.crawlId,
      range,
      tab,
      url.reason,
      report.id,
      report.tableId,
      url.checked,
      url.filter,
    ],
  );
  const trendCrawlIds = useMemo(
    () =>
      current
        ? crawls
            .filter((c) => c.crawlId <= current.crawlId)
            .slice(0, MAX_TREND_CRAWLS)
            .map((c) => c.crawlId)
        : [],
    [crawls, current],
  );
  const summaryQuery = useMemo(
    () => (query ? { ...query, differenceType: 'all' as const, removalReason: null, trendCrawlIds } : null),
    [query, trendCrawlIds],
  );
  const page = useMemo(
    () => ({ limit: pageSize, offset: pageIndex * pageSize, orderBy: sorting }),
    [pageSize, pageIndex, sorting],
  );

  useEffect(() => {
    if (summaryQuery) void loadSummary(summaryQuery);
  }, [summaryQuery, loadSummary]);
  useEffect(() => {
    if (query && report.includeTable && !notConnected) void loadRows(query, page);
  }, [query, page, loadRows, report.includeTable, notConnected]);
  useEffect(() => () => useReportStore.getState().reset(), []);

  const columns = useMemo(
    () => reportColumns(report, columnById, { segment, isLatestCrawl, differenceType: tab, showChecked: url.checked }),
    [report, segment, isLatestCrawl, tab, url.checked],
  );
  const columnOrder = useMemo(() => {
    const ids = columns.map((c) => c.id);
    const kept = preferences.order.filter((id) => ids.includes(id));
    return [...kept, ...ids.filter((id) => !kept.includes(id))];
  }, [columns, preferences.order]);
  const visibleColumns = useMemo(
    () =>
      columnOrder.map((id) => columns.find((c) => c.id === id)!).filter((c) => preferences.visibility[c.id] !== false),
    [columnOrder, columns, preferences.visibility],
  );

  const refresh = () => {
    if (summaryQuery) void loadSummary(summaryQuery, { skipCache: true });
    if (query && report.includeTable) void loadRows(query, page, { force: true });
  };
  const retrySummary = () => {
    if (summaryQuery) void loadSummary(summaryQuery);
  };
  const refreshTable = () => {
    if (query) void loadRows(query, page, { force: true });
  };
  const setPage = useCallback(
    (index: number) => setUrl((s) => ({ ...s, page: index > 0 ? index + 1 : undefined }), { replace: false }),
    [setUrl],
  );

  // The summary's one error state: in the chart when the report has one, else above the tabs it counts.
  const summaryError = summary.status === 'error' ? <FetchErrorPanel area="summary" onRetry={retrySummary} /> : null;
  const differences =
    summary.status === 'success' || summary.status === 'pending' ? summary.data?.differences : undefined;
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
  const csvExport = useCsvExport({ query, orderBy: sorting, columns: visibleColumns, fileStem, total });

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" component="header">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
          <div style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Title order={2} fz={{ base: 'h4', sm: 'h3' }} data-testid="report-title">
                {reportHeading(report)}
              </Title>
              <ToneBadge tone={SEVERITY_TONES[report.severity]} size="sm">
                {SEVERITY_LABELS[report.severity]}
              </ToneBadge>
            </Group>
            <Text size="sm" c="dark.5" mt={4} maw={900}>
              {report.description}
            </Text>
          </div>
          <Tooltip label="Refresh the summary and rows">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Refresh the report"
              onClick={refresh}
              loading={summary.status === 'pending'}
            >
              <Icon name="refresh" size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Paper>

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
        <Paper withBorder radius="md" component="section" aria-labelledby="breakdown-title">
          <Group justify="space-between" px="md" pt="md" pb={6} wrap="wrap" gap="xs">
            <Title order={3} fz="md" id="breakdown-title">
              Breakdown of issues
            </Title>
            <Group gap={6}>
              {checklist.edits.length > 0 ? (
                <>
                  <Button size="xs" variant="subtle" color="gray" c="dark.5" onClick={checklist.discard}>
                    Discard changes
                  </Button>
                  <Button size="xs" onClick={checklist.openSave} leftSection={<Icon name="check" size={14} />}>
                    Save checklist ({formatNumber(checklist.edits.length)})
                  </Button>
                </>
              ) : null}
              <Tooltip label="Refresh the table">
                <ActionIcon variant="default" onClick={refreshTable} aria-label="Refresh the table">
                  <Icon name="refresh" size={16} />
                </ActionIcon>
              </Tooltip>
              <Button
                variant="default"
                size="xs"
                leftSection={<Icon name="columns" size={14} />}
                onClick={() => setColumnDialogOpen(true)}
              >
                Columns
              </Button>
              <Button
                variant="default"
                size="xs"
                leftSection={<Icon name="download" size={14} />}
                onClick={() => void csvExport.start()}
                disabled={csvExport.running !== null || total === 0 || visibleColumns.length === 0}
              >
                Download CSV
              </Button>
            </Group>
          </Group>
          {csvExport.running ? <CsvExportProgress running={csvExport.running} /> : null}
          {report.includeTrends || !summaryError ? null : (
            <Stack px="md" pb="xs">
              {summaryError}
            </Stack>
          )}
          <DifferenceTabs
            tab={tab}
            differences={differences}
            isSummaryError={summary.status === 'error'}
            onChange={(next) =>
              setUrl((s) => ({ ...s, tab: next === 'all' ? undefined : next, reason: undefined, page: undefined }))
            }
          />
          {tab === 'removed' ? (
            <RemovalReasonFilter
              reason={url.reason}
              counts={differences?.removedByReason}
              onChange={(reason) => setUrl((s) => ({ ...s, reason, page: undefined }))}
            />
          ) : null}
          {sorting.length === 0 && summary.status === 'success' && summary.data?.defaultOrder === 'at-stake' ? (
            <StakeOrderNote />
          ) : null}
          {visibleColumns.length === 0 ? (
            <NoColumnsPanel
              onShowAll={() => setPreferences((p) => ({ ...p, visibility: {} }))}
              onChoose={() => setColumnDialogOpen(true)}
            />
          ) : (
            <ChecklistContext.Provider value={checklist.state}>
              <StoreReportTable
                report={report}
                columns={columns}
                sorting={sorting}
                onSortColumn={(id) => setUrl((s) => ({ ...s, sort: nextSort(sorting, id), page: undefined }))}
                pagination={{ pageIndex, pageSize }}
                onPaginationChange={(next) =>
                  setUrl((s) => ({
                    ...s,
                    page: next.pageIndex > 0 ? next.pageIndex + 1 : undefined,
                    size: next.pageSize === DEFAULT_PAGE_SIZE ? undefined : next.pageSize,
                  }))
                }
                preferences={preferences}
                onPreferencesChange={setPreferences}
                onRetry={refreshTable}
              />
            </ChecklistContext.Provider>
          )}
          <ChecklistSaveDialog
            report={report}
            isOpen={checklist.isSaveOpen}
            isSaving={checklist.isSaving}
            edits={checklist.edits}
            onCancel={checklist.closeSave}
            onConfirm={() => void checklist.save()}
          />
          <StoreTablePagination
            filter={url.filter}
            pageIndex={pageIndex}
            pageSize={pageSize}
            onPageIndex={setPage}
            onPageSize={(size) =>
              setUrl((s) => ({ ...s, size: size === DEFAULT_PAGE_SIZE ? undefined : size, page: undefined }))
            }
          />
          <ColumnDialog
            isOpen={isColumnDialogOpen}
            onClose={() => setColumnDialogOpen(false)}
            columns={columns}
            order={columnOrder}
            preferences={preferences}
            onChange={setPreferences}
            onReset={resetPreferences}
          />
        </Paper>
      ) : null}
    </Stack>
  );
}
