import { useCallback, useEffect, useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Progress, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, MAX_TREND_CRAWLS } from '../../../../catalog/constants.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { DifferenceType } from '../../api/types.ts';
import { columnById, reportHeading } from '../../lib/catalog.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { SEVERITY_LABELS, SEVERITY_TONES } from '../../lib/severity.ts';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { isAbortError } from '../../api/client.ts';
import { useReportStore } from '../../stores/report-store.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { showErrorToast, showLoadingToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { useDashboard } from '../layout/dashboard-context.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { IssuesChart } from './issues-chart.tsx';
import { ReportTable } from './report-table.tsx';
import { TablePagination } from './table-pagination.tsx';
import { ColumnDialog } from './column-dialog.tsx';
import { exportReportCsv, type ExportProgress } from './export-csv.ts';
import { hasChecklist, nextSort, reportColumns } from './table-model.ts';
import {
  ChecklistContext,
  checklistItemOf,
  checklistKey,
  type ChecklistEdit,
  type ChecklistState,
} from './checklist-context.ts';
import { ChecklistSaveDialog } from './checklist-save-dialog.tsx';
import { postJson } from '../../api/client.ts';
import { useTablePreferences } from './use-table-preferences.ts';

const TABS: { value: DifferenceType; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'added', label: 'Added' },
  { value: 'removed', label: 'Removed' },
];

/** One report of one crawl: header, issues over time, the breakdown tabs and the table (spec §2 'Report page'). */
export function ReportPage({ report }: { report: ReportDefinition }) {
  const { website, segment, crawls, current, comparison, range, url, setUrl } = useDashboard();
  const email = useSessionStore((s) => s.user?.email ?? '');
  const summary = useReportStore((s) => s.summary);
  const rowsState = useReportStore((s) => s.rows);
  const loadSummary = useReportStore((s) => s.loadSummary);
  const loadRows = useReportStore((s) => s.loadRows);
  const [preferences, setPreferences, resetPreferences] = useTablePreferences(email, report.id);
  const [isColumnDialogOpen, setColumnDialogOpen] = useState(false);
  const [checklistEdits, setChecklistEdits] = useState<Map<string, ChecklistEdit>>(() => new Map());
  const [isSaveOpen, setSaveOpen] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [exportState, setExportState] = useState<{ progress: ExportProgress; controller: AbortController } | null>(
    null,
  );

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
    () => (query ? { ...query, differenceType: 'all' as const, trendCrawlIds } : null),
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
    if (query && report.includeTable) void loadRows(query, page);
  }, [query, page, loadRows, report.includeTable]);
  useEffect(() => () => useReportStore.getState().reset(), []);

  const columns = useMemo(
    () => reportColumns(report, columnById, { segment, isLatestCrawl, differenceType: tab }),
    [report, segment, isLatestCrawl, tab],
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

  const isChecklistEditable = hasChecklist(report, { segment, isLatestCrawl, differenceType: tab });
  const checklist = useMemo<ChecklistState>(
    () => ({
      isEditable: isChecklistEditable,
      edits: checklistEdits,
      toggle: (row, checked) =>
        setChecklistEdits((current) => {
          const item = checklistItemOf(report, row);
          const key = checklistKey(item);
          const next = new Map(current);
          if (current.has(key) || Boolean(row.get('checked')) === checked) next.delete(key);
          else next.set(key, { item, checked });
          return next;
        }),
    }),
    [isChecklistEditable, checklistEdits, report],
  );

  const saveChecklist = async () => {
    if (!current) return;
    const edits = [...checklistEdits.values()];
    const toastId = `checklist-${report.id}`;
    setSaving(true);
    showLoadingToast(toastId, 'Saving checklist...');
    try {
      await postJson('/api/technical-health-check/checklist/save', {
        websiteId: website.id,
        segmentId: segment?.id,
        setChecked: edits.filter((e) => e.checked).map((e) => e.item),
        setUnchecked: edits.filter((e) => !e.checked).map((e) => e.item),
        start: current.crawlId,
        submodule: report.id,
        module: 'technical-health-check',
        end: null,
        differenceType: tab,
      });
      showSuccessToast('Checklist saved', { id: toastId });
      setChecklistEdits(new Map());
      setSaveOpen(false);
      refresh();
    } catch (error) {
      showErrorToast(error instanceof Error && error.message ? error.message : 'An error occurred', { id: toastId });
    } finally {
      setSaving(false);
    }
  };

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
  const total =
    rowsState.status === 'success'
      ? rowsState.data.total
      : rowsState.status === 'pending'
        ? (rowsState.data?.total ?? 0)
        : 0;
  const fileStem = report.title;
  const tabCount = (value: DifferenceType): string =>
    differences ? formatNumber(differences[value]) : summary.status === 'error' ? '–' : '…';

  const startExport = async () => {
    if (!query) return;
    const controller = new AbortController();
    setExportState({ progress: { done: 0, total }, controller });
    try {
      const blob = await exportReportCsv({
        query,
        orderBy: sorting,
        columns: visibleColumns.filter((c) => c.format !== 'ai-suggestion' && c.id !== 'checked'),
        signal: controller.signal,
        onProgress: (progress) => setExportState((s) => (s ? { ...s, progress } : s)),
      });
      downloadCsv(fileStem, blob);
    } catch (error) {
      if (!isAbortError(error)) showErrorToast('The CSV export failed, please try again later.');
    } finally {
      setExportState(null);
    }
  };

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

      {report.includeTrends ? (
        <IssuesChart
          trends={trends}
          fileStem={fileStem}
          isLoading={summary.status === 'pending' || summary.status === 'idle'}
          error={summaryError}
        />
      ) : null}

      {report.includeTable ? (
        <Paper withBorder radius="md" component="section" aria-labelledby="breakdown-title">
          <Group justify="space-between" px="md" pt="md" pb={6} wrap="wrap" gap="xs">
            <Title order={3} fz="md" id="breakdown-title">
              Breakdown of issues
            </Title>
            <Group gap={6}>
              {checklistEdits.size > 0 ? (
                <>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="gray"
                    c="dark.5"
                    onClick={() => setChecklistEdits(new Map())}
                  >
                    Discard changes
                  </Button>
                  <Button size="xs" onClick={() => setSaveOpen(true)} leftSection={<Icon name="check" size={14} />}>
                    Save checklist ({formatNumber(checklistEdits.size)})
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
                onClick={() => void startExport()}
                disabled={exportState !== null || total === 0}
              >
                Download CSV
              </Button>
            </Group>
          </Group>
          {exportState ? (
            <Group px="md" pb="xs" gap="sm" wrap="nowrap" aria-live="polite">
              <Progress
                value={exportState.progress.total ? (100 * exportState.progress.done) / exportState.progress.total : 0}
                style={{ flex: 1 }}
                aria-label="CSV export progress"
              />
              <Text size="xs" c="dark.4">
                {formatNumber(exportState.progress.done)} of {formatNumber(exportState.progress.total)} rows
              </Text>
              <Button size="compact-xs" variant="subtle" color="red.9" onClick={() => exportState.controller.abort()}>
                Cancel
              </Button>
            </Group>
          ) : null}
          {report.includeTrends || !summaryError ? null : (
            <Stack px="md" pb="xs">
              {summaryError}
            </Stack>
          )}
          <Tabs
            value={tab}
            onChange={(value) => {
              const next = (value ?? 'all') as DifferenceType;
              setUrl((s) => ({ ...s, tab: next === 'all' ? undefined : next, page: undefined }));
            }}
            px="md"
            keepMounted={false}
          >
            <Tabs.List>
              {TABS.map((t) => (
                <Tabs.Tab
                  key={t.value}
                  value={t.value}
                  rightSection={
                    tab === t.value ? (
                      <Badge size="sm" variant="filled" color="brand.7" radius="sm" tt="none">
                        {tabCount(t.value)}
                      </Badge>
                    ) : (
                      <ToneBadge tone="gray" size="sm">
                        {tabCount(t.value)}
                      </ToneBadge>
                    )
                  }
                  data-testid={`tab-${t.value}`}
                >
                  {t.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          <ChecklistContext.Provider value={checklist}>
            <ReportTable
              report={report}
              columns={columns}
              rowsState={rowsState}
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
          <ChecklistSaveDialog
            isOpen={isSaveOpen}
            isSaving={isSaving}
            edits={[...checklistEdits.values()]}
            onCancel={() => setSaveOpen(false)}
            onConfirm={() => void saveChecklist()}
          />
          <TablePagination
            pageIndex={pageIndex}
            pageSize={pageSize}
            total={total}
            isError={rowsState.status === 'error'}
            isPending={rowsState.status === 'pending'}
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
