import { FlexRender, type Header, type SortingState } from '@tanstack/react-table';
import type { ReportRow } from '../../api/report-rows.ts';
import { isNumericFormat } from '../../../../catalog/cell-format.ts';
import { Icon } from '../../components/icon.tsx';
import { catalogColumnOf, type ReportTableFeatures } from './report-table-columns.ts';
import { pinClass, pinStyle, type TableLayout } from './table-layout.ts';
import classes from './report-table.module.css';

export interface ColumnHeaderProps {
  header: Header<ReportTableFeatures, ReportRow, unknown>;
  isLast: boolean;
  sorting: SortingState;
  layout: TableLayout;
  onSortColumn: (columnId: string) => void;
}

/** One column's header: its title, the sort button with its state, and the resize handle. */
export function ColumnHeader({ header, isLast, sorting, layout, onSortColumn }: ColumnHeaderProps) {
  const style = { width: header.getSize(), flex: isLast ? '1 0 auto' : 'none' };
  const column = header.column;
  const sorted = sorting.find((s) => s.id === column.id);
  const meta = catalogColumnOf(column.columnDef.meta);
  const numeric = meta ? isNumericFormat(meta.format) : false;
  return (
    <th
      className={`${classes.th} ${pinClass(layout, column.id)}`}
      style={{
        ...style,
        justifyContent: numeric ? 'flex-end' : undefined,
        ...pinStyle(layout, column.id),
      }}
      role="columnheader"
      scope="col"
      aria-sort={sorted ? (sorted.desc ? 'descending' : 'ascending') : column.getCanSort() ? 'none' : undefined}
      data-column={column.id}
      data-pinned={layout.pinned.has(column.id) ? '' : undefined}
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
            <FlexRender header={header} />
          </span>
          <Icon
            name={sorted ? (sorted.desc ? 'arrow-down' : 'arrow-up') : 'arrows-sort'}
            size={14}
            className={`${classes.sortIcon} ${sorted ? classes.sortIconActive : ''}`}
          />
        </button>
      ) : (
        <span className={classes.headerLabel}>
          <FlexRender header={header} />
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
}
