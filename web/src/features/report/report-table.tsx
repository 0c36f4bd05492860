import { Fragment, memo, useMemo, useRef } from 'react';
import { ActionIcon, Loader, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useTable,
  type Cell,
  type PaginationState,
  type Row,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import type { CatalogColumn, ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow, RowsPage } from '../../api/report-rows.ts';
import type { LoadState } from '../../lib/load-state.ts';
import { rowsTotal } from '../../stores/report-store.ts';
import { isNumericFormat } from '../../../../catalog/cell-format.ts';
import { Icon } from '../../components/icon.tsx';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { ReportCell } from './report-cell.tsx';
import { buildColumns, catalogColumnOf, features } from './report-table-columns.ts';
import { RowDetail } from './row-detail.tsx';
import { groupSegments, pinnedOffsets } from './table-model.ts';
import { expanderLabel, hasSubRow } from './sub-row.ts';
import type { TablePreferences } from './use-table-preferences.ts';
import classes from './report-table.module.css';

export const NO_RESULTS = 'No results found';
/** The group header's padding: where its label sticks while its group scrolls sideways. */
const GROUP_LABEL_INSET = 10;
const EMPTY_ROWS: readonly ReportRow[] = [];

interface LeafLayout {
  id: string;
  size: number;
  format: CatalogColumn['format'] | undefined;
  group: string;
}

/** Where the visible columns sit: the frozen ones' offsets, the last frozen one and their width. */
interface TableLayout {
  pinned: Map<string, number>;
  lastPinned: string | undefined;
  pinnedWidth: number;
}

function layoutOf(leaves: readonly LeafLayout[]): TableLayout {
  const pinned = pinnedOffsets(leaves);
  const lastPinned = [...pinned.keys()].at(-1);
  const last = leaves.find((leaf) => leaf.id === lastPinned);
  return { pinned, lastPinned, pinnedWidth: last ? pinned.get(last.id)! + last.size : 0 };
}

function pinStyle(layout: TableLayout, columnId: string): React.CSSProperties | undefined {
  return layout.pinned.has(columnId) ? { left: layout.pinned.get(columnId) } : undefined;
}

function pinClass(layout: TableLayout, columnId: string): string {
  return layout.pinned.has(columnId)
    ? `${classes.pinned} ${columnId === layout.lastPinned ? classes.pinnedEdge : ''}`
    : '';
}

/**
 * One body row. Memoised: the render that marks the table busy while the next page loads, and the page's own
 * renders, leave the rows alone; a row renders again for a new row, a new place, expansion or a column change.
 */
const BodyRow = memo(function BodyRow({
  report,
  row,
  cells,
  isExpanded,
  index,
  start,
  rowIndex,
  layout,
  measureElement,
}: {
  report: ReportDefinition;
  row: Row<typeof features, ReportRow>;
  cells: Cell<typeof features, ReportRow, unknown>[];
  isExpanded: boolean;
  index: number;
  start: number;
  rowIndex: number;
  layout: TableLayout;
  measureElement: (element: HTMLTableRowElement | null) => void;
}) {
  const expanderIndex = Math.max(
    0,
    cells.findIndex((c) => c.column.id !== 'checked'),
  );
  return (
    <tr
      data-index={index}
      ref={measureElement}
      className={classes.row}
      style={{ transform: `translateY(${start}px)` }}
      role="row"
      aria-rowindex={rowIndex}
    >
      {cells.map((cell, cellIndex) => {
        const isExpanderCell = cellIndex === expanderIndex;
        const meta = catalogColumnOf(cell.column.columnDef.meta)!;
        const isLast = cellIndex === cells.length - 1;
        // Straight to the cell, not through a column's cell template: two components fewer in every cell.
        const content = <ReportCell report={report} column={meta} value={cell.getValue()} row={row.original} />;
        return (
          <td
            key={cell.column.id}
            className={`${classes.td} ${isNumericFormat(meta.format) ? classes.numeric : ''} ${pinClass(layout, cell.column.id)}`}
            style={{
              width: cell.column.getSize(),
              flex: isLast ? '1 0 auto' : 'none',
              ...pinStyle(layout, cell.column.id),
            }}
            role="cell"
            data-column={cell.column.id}
            data-pinned={layout.pinned.has(cell.column.id) ? '' : undefined}
          >
            {isExpanderCell && report.subRow && row.getCanExpand() ? (
              <Fragment>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  color="gray.7"
                  mr={6}
                  onClick={() => row.toggleExpanded()}
                  aria-expanded={isExpanded}
                  aria-label={expanderLabel(report.subRow, isExpanded)}
                >
                  <Icon name={isExpanded ? 'chevron-down' : 'chevron-right'} size={14} />
                </ActionIcon>
                <div style={{ minWidth: 0, flex: 1 }}>{content}</div>
              </Fragment>
            ) : (
              content
            )}
          </td>
        );
      })}
      {isExpanded ? (
        <td role="cell" className={classes.detail}>
          <RowDetail report={report} row={row.original} />
        </td>
      ) : null}
    </tr>
  );
});

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
  const { pinned, lastPinned, pinnedWidth } = layout;
  const segments = groupSegments(leaves, pinned);

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
            {headerGroups.length > 1 ? (
              <tr className={classes.tr} role="row" aria-rowindex={1}>
                {segments.map((segment, index) => {
                  const isFrozen = segment.left !== undefined;
                  const isEdge = isFrozen && segment.columnIds.includes(lastPinned ?? '');
                  return (
                    <th
                      key={`${index}-${segment.columnIds[0]}`}
                      colSpan={segment.columnIds.length}
                      className={`${classes.groupTh} ${isFrozen ? classes.pinned : ''} ${isEdge ? classes.pinnedEdge : ''}`}
                      style={{
                        width: segment.width,
                        flex: index === segments.length - 1 ? '1 0 auto' : 'none',
                        left: segment.left,
                      }}
                      role="columnheader"
                      scope="colgroup"
                      data-pinned={isFrozen ? '' : undefined}
                    >
                      {segment.hasLabel ? (
                        // A scrolling group's label stays in view just right of the frozen columns.
                        <span
                          className={classes.groupLabel}
                          style={{ left: isFrozen ? undefined : pinnedWidth + GROUP_LABEL_INSET }}
                        >
                          {segment.group}
                        </span>
                      ) : null}
                    </th>
                  );
                })}
              </tr>
            ) : null}
            {headerGroups.slice(-1).map((group) => (
              <tr key={group.id} className={classes.tr} role="row" aria-rowindex={headerGroups.length}>
                {group.headers.map((header, index) => {
                  const isLast = index === group.headers.length - 1;
                  const style = { width: header.getSize(), flex: isLast ? '1 0 auto' : 'none' };
                  const column = header.column;
                  const sorted = sorting.find((s) => s.id === column.id);
                  const meta = catalogColumnOf(column.columnDef.meta);
                  const numeric = meta ? isNumericFormat(meta.format) : false;
                  return (
                    <th
                      key={header.id}
                      className={`${classes.th} ${pinClass(layout, column.id)}`}
                      style={{
                        ...style,
                        justifyContent: numeric ? 'flex-end' : undefined,
                        ...pinStyle(layout, column.id),
                      }}
                      role="columnheader"
                      scope="col"
                      aria-sort={
                        sorted ? (sorted.desc ? 'descending' : 'ascending') : column.getCanSort() ? 'none' : undefined
                      }
                      data-column={column.id}
                      data-pinned={pinned.has(column.id) ? '' : undefined}
                      title={meta?.tooltip}
                    >
                      {column.getCanSort() ? (
                        <button
                          type="button"
                          className={classes.sortButton}
                          onClick={() => onSortColumn(column.id)}
                          style={{ justifyContent: numeric ? 'flex-end' : undefined }}
                          aria-label={`${meta?.title ?? column.id}: ${sorted ? (sorted.desc ? 'sorted descending' : 'sorted ascending') : 'not sorted'}; change sort`}
                        >
                          <span className={classes.headerLabel}>
                            <table.FlexRender header={header} />
                          </span>
                          <Icon
                            name={sorted ? (sorted.desc ? 'arrow-down' : 'arrow-up') : 'arrows-sort'}
                            size={14}
                            className={`${classes.sortIcon} ${sorted ? classes.sortIconActive : ''}`}
                          />
                        </button>
                      ) : (
                        <span className={classes.headerLabel}>
                          <table.FlexRender header={header} />
                        </span>
                      )}
                      {column.getCanResize() ? (
                        <div
                          className={classes.resizer}
                          onMouseDown={header.getResizeHandler()}
                          onTouchStart={header.getResizeHandler()}
                          onDoubleClick={() => column.resetSize()}
                          data-resizing={column.getIsResizing() ? '' : undefined}
                          data-testid={`resize-${column.id}`}
                          aria-hidden
                        />
                      ) : null}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          {rows.length === 0 ? (
            <tbody role="rowgroup">
              <tr role="row" className={classes.tr}>
                <td role="cell" className={classes.message}>
                  {isPending ? (
                    <Loader size="sm" aria-label="Loading rows" />
                  ) : isError ? (
                    <FetchErrorPanel area="rows" onRetry={onRetry} />
                  ) : (
                    <Text size="sm" c="dark.4" data-testid="no-results">
                      {NO_RESULTS}
                    </Text>
                  )}
                </td>
              </tr>
            </tbody>
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
