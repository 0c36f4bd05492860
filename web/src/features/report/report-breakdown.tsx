import type { ReactNode } from 'react';
import { Paper, Stack } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '../../../../catalog/constants.ts';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportSummary } from '../../api/types.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import type { LoadState } from '../../lib/load-state.ts';
import { BreakdownToolbar } from './breakdown-toolbar.tsx';
import { ChecklistContext } from './checklist-context.ts';
import { ChecklistSaveDialog } from './checklist-save-dialog.tsx';
import { ColumnDialog } from './column-dialog.tsx';
import { CsvExportProgress } from './csv-export-progress.tsx';
import { DifferenceTabs } from './difference-tabs.tsx';
import { NoColumnsPanel } from './no-columns-panel.tsx';
import { RemovalReasonFilter } from './removal-reason-filter.tsx';
import { StakeOrderNote } from './stake-order-note.tsx';
import { StoreReportTable } from './store-report-table.tsx';
import { StoreTablePagination } from './store-table-pagination.tsx';
import { nextSort } from './table-model.ts';
import type { useChecklistEdits } from './use-checklist-edits.ts';
import type { useCsvExport } from './use-csv-export.ts';
import type { useReportColumns } from './use-report-columns.ts';
import type { useReportQueries } from './use-report-queries.ts';
import type { TablePreferences } from './use-table-preferences.ts';

export interface ReportBreakdownProps {
  report: ReportDefinition;
  view: ReturnType<typeof useReportQueries>;
  summary: LoadState<ReportSummary>;
  /** The summary's error panel, shown here when the report has no chart to show it in. */
  summaryError: ReactNode;
  columns: ReturnType<typeof useReportColumns>;
  preferences: TablePreferences;
  onPreferencesChange: (update: (current: TablePreferences) => TablePreferences) => void;
  onResetPreferences: () => void;
  checklist: ReturnType<typeof useChecklistEdits>;
  csvExport: ReturnType<typeof useCsvExport>;
  total: number;
  isColumnDialogOpen: boolean;
  onColumnDialogOpen: (isOpen: boolean) => void;
}

/** 'Breakdown of issues': its actions, the difference tabs and filters, the table, its pages and its dialogs. */
export function ReportBreakdown(props: ReportBreakdownProps) {
  const { report, view, summary, summaryError, preferences, onPreferencesChange, checklist, csvExport } = props;
  const { columns, columnOrder, visibleColumns } = props.columns;
  const { tab, pageIndex, pageSize, sorting, refreshTable } = view;
  const { url, setUrl } = useDashboard();
  const differences =
    summary.status === 'success' || summary.status === 'pending' ? summary.data?.differences : undefined;
  return (
    <Paper withBorder radius="md" component="section" aria-labelledby="breakdown-title">
      <BreakdownToolbar
        editCount={checklist.edits.length}
        onDiscardEdits={checklist.discard}
        onSaveEdits={checklist.openSave}
        onRefreshTable={refreshTable}
        onChooseColumns={() => props.onColumnDialogOpen(true)}
        onDownloadCsv={() => void csvExport.start()}
        isDownloadDisabled={csvExport.running !== null || props.total === 0 || visibleColumns.length === 0}
      />
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
          onShowAll={() => onPreferencesChange((p) => ({ ...p, visibility: {} }))}
          onChoose={() => props.onColumnDialogOpen(true)}
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
            onPreferencesChange={onPreferencesChange}
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
        onPageIndex={view.setPage}
        onPageSize={(size) =>
          setUrl((s) => ({ ...s, size: size === DEFAULT_PAGE_SIZE ? undefined : size, page: undefined }))
        }
      />
      <ColumnDialog
        isOpen={props.isColumnDialogOpen}
        onClose={() => props.onColumnDialogOpen(false)}
        columns={columns}
        order={columnOrder}
        preferences={preferences}
        onChange={onPreferencesChange}
        onReset={props.onResetPreferences}
      />
    </Paper>
  );
}
