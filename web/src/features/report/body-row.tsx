import { Fragment, memo } from 'react';
import { ActionIcon } from '@mantine/core';
import type { Cell, Row } from '@tanstack/react-table';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportRow } from '../../api/report-rows.ts';
import { isNumericFormat } from '../../../../catalog/cell-format.ts';
import { Icon } from '../../components/icon.tsx';
import { ReportCell } from './report-cell.tsx';
import { catalogColumnOf, features } from './report-table-columns.ts';
import { RowDetail } from './row-detail.tsx';
import { expanderLabel } from './sub-row.ts';
import { pinClass, pinStyle, type TableLayout } from './table-layout.ts';
import classes from './report-table.module.css';

/**
 * One body row. Memoised: the render that marks the table busy while the next page loads, and the page's own
 * renders, leave the rows alone; a row renders again for a new row, a new place, expansion or a column change.
 */
export const BodyRow = memo(function BodyRow({
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
