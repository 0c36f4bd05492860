import type { GroupSegment } from './table-model.ts';
import type { TableLayout } from './table-layout.ts';
import classes from './report-table.module.css';

/** The group header's padding: where its label sticks while its group scrolls sideways. */
const GROUP_LABEL_INSET = 10;

/** The header row of the catalogue's column groups, split where the frozen columns end. */
export function GroupHeaderRow({ segments, layout }: { segments: readonly GroupSegment[]; layout: TableLayout }) {
  const { lastPinned, pinnedWidth } = layout;
  return (
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
  );
}
