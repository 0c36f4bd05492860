import { useMemo, useRef } from 'react';
import { Loader } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTable, type PaginationState, type SortingState, type Updater } from '@tanstack/react-table';
import type { CatalogColumn, ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow, RowsPage } from '../../api/report-rows.ts';
import type { LoadState } from '../../lib/load-state.ts';
import { rowsTotal } from '../../stores/report-store.ts';
import { BodyRow } from './body-row.tsx';
import { ColumnHeader } from './column-header.tsx';
import { EmptyRowsBody } from './empty-rows-body.tsx';
import { GroupHeaderRow } from './group-header-row.tsx';
import { buildColumns, catalogColumnOf, features } from './report-table-columns.ts';
import { groupSegments } from './table-model.ts';
import { hasSubRow } from './sub-row.ts';
import { layoutOf, type LeafLayout } from './table-layout.ts';
import type { TablePreferences } from './use-table-preferences.ts';
import classes from './report-table.module.css';

export { NO_RESULTS } from './empty-rows-body.tsx';
const EMPTY_ROWS: readonly ReportRow[] = [];

export interface ReportTableProps {
  report: ReportDefinition;
  columns: CatalogColumn[];
  rowsState: LoadState<RowsPage>;
  sorting: SortingState;
  onSortColumn: (columnId: string) => void;
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  preferences: TablePreferences;
  onPreferencesChange: (update: (current: TablePreferences) => TablePreferences) => void;
  onRetry: () => void;
}

function resolve<T>(updater: Updater<T>, current: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater;
}

function useReportTable(props: ReportTableProps) {
  const { report, columns, rowsState, sorting, pagination, preferences, onPreferencesChange, onPaginationChange } =
    props;
  const columnDefs = useMemo(() => buildColumns(columns), [columns]);
  const rows =
    rowsState.status === 'success' || rowsState.status === 'pending'
      ? (rowsState.data?.rows.rows ?? EMPTY_ROWS)
      : EMPTY_ROWS;
  const total = rowsTotal(rowsState);
  const columnIds = useMemo(() => columns.map((c) => c.id), [columns]);
  const columnOrder = useMemo(() => {
    const kept = preferences.order.filter((id) => columnIds.includes(id));
    return [...kept, ...columnIds.filter((id) => !kept.includes(id))];
  }, [preferences.order, columnIds]);

  return useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (_row, index) => `${pagination.pageIndex}-${index}`,
    manualSorting: true,
    manualPagination: true,
    rowCount: total,
    enableMultiSort: false,
    columnResizeMode: 'onChange',
    getRowCanExpand: (row) => hasSubRow(report, row.original),
    state: {
      sorting,
      pagination,
      columnVisibility: preferences.visibility,
      columnOrder,
      columnSizing: preferences.sizing,
    },
    onPaginationChange: (updater) => onPaginationChange(resolve(updater, pagination)),
    onColumnVisibilityChange: (updater) =>
      onPreferencesChange((p) => ({ ...p, visibility: resolve(updater, p.visibility) })),
    onColumnOrderChange: (updater) => onPreferencesChange((p) => ({ ...p, order: resolve(updater, columnOrder) })),
    onColumnSizingChange: (updater) => onPreferencesChange((p) => ({ ...p, sizing: resolve(updater, p.sizing) })),
  });
}

/** The server-paged, server-sorted report table with a virtualised body (spec §2 'The table'). */
export function ReportTable(props: ReportTableProps) {
  const { rowsState, sorting, onSortColumn, onRetry } = props;
  const table = useReportTable(props);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in this render only
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 39,
    // By position, like the rows' elements: a page turn updates the same row elements rather than making new ones.
    getItemKey: (index) => index,
    overscan: 8,
  });
  const isPending = rowsState.status === 'pending' || rowsState.status === 'idle';
  const isError = rowsState.status === 'error';
  const totalSize = table.getTotalSize();
  const headerGroups = table.getHeaderGroups();
  const total = table.getRowCount();
  const leaves: LeafLayout[] = table.getVisibleLeafColumns().map((c) => {
    const meta = catalogColumnOf(c.columnDef.meta);
    return { id: c.id, size: c.getSize(), format: meta?.format, group: meta?.group ?? '' };
  });
  // One object while the columns stay as they are, so the memoised rows skip a render that changes no row.
  const leavesKey = JSON.stringify(leaves);
  const layout = useMemo(() => layoutOf(JSON.parse(leavesKey) as LeafLayout[]), [leavesKey]);
  const segments = groupSegments(leaves, layout.pinned);

  return (
    <div>
      <div className={classes.scroller} ref={scrollRef} data-testid="report-table">
        <table
          className={classes.table}
          style={{ width: totalSize }}
          role="table"
          aria-rowcount={total + headerGroups.length}
          aria-busy={isPending}
          aria-label="Report rows"
        >
          <thead className={classes.thead} role="rowgroup">
            {headerGroups.length > 1 ? <GroupHeaderRow segments={segments} layout={layout} /> : null}
            {headerGroups.slice(-1).map((group) => (
              <tr key={group.id} className={classes.tr} role="row" aria-rowindex={headerGroups.length}>
                {group.headers.map((header, index) => (
                  <ColumnHeader
                    key={header.id}
                    header={header}
                    isLast={index === group.headers.length - 1}
                    sorting={sorting}
                    layout={layout}
                    onSortColumn={onSortColumn}
                  />
                ))}
              </tr>
            ))}
          </thead>
          {rows.length === 0 ? (
            <EmptyRowsBody isPending={isPending} isError={isError} onRetry={onRetry} />
          ) : (
            <tbody className={classes.tbody} style={{ height: virtualizer.getTotalSize() }} role="rowgroup">
              {virtualizer.getVirtualItems().map((item) => {
                const row = rows[item.index]!;
                return (
                  <BodyRow
                    key={item.index}
                    report={props.report}
                    row={row}
                    cells={row.getVisibleCells()}
                    isExpanded={row.getIsExpanded()}
                    index={item.index}
                    start={item.start}
                    rowIndex={
                      headerGroups.length +
                      table.state.pagination.pageIndex * table.state.pagination.pageSize +
                      item.index +
                      1
                    }
                    layout={layout}
                    measureElement={virtualizer.measureElement}
                  />
                );
              })}
            </tbody>
          )}
        </table>
        {isPending && rows.length > 0 ? (
          <div className={classes.overlay} aria-hidden>
            <Loader size="sm" />
          </div>
        ) : null}
      </div>
    </div>
  );
}
