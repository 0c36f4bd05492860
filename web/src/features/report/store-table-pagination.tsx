import { filterMatchesText } from '../../../../catalog/api.ts';
import { rowsTotal, useReportStore } from '../../stores/report-store.ts';
import { TablePagination, type TablePaginationProps } from './table-pagination.tsx';

/**
 * The pages with the store's total and load state. Pending matters to them only while there is no total yet, so a
 * page turn, which keeps the total, does not render them again when it starts loading or when its rows arrive.
 */
export function StoreTablePagination({
  filter,
  ...props
}: Omit<TablePaginationProps, 'total' | 'isError' | 'isPending' | 'note'> & { filter: string | undefined }) {
  const total = useReportStore((s) => rowsTotal(s.rows));
  const isError = useReportStore((s) => s.rows.status === 'error');
  // Idle too: a shown table's rows are asked for as soon as the summary has said whether the source is connected.
  const isPending = useReportStore(
    (s) => (s.rows.status === 'pending' || s.rows.status === 'idle') && rowsTotal(s.rows) === 0,
  );
  const matches = useReportStore((s) => (s.rows.status === 'success' ? s.rows.data.filterMatches : undefined));
  const note = filter && matches ? filterMatchesText(filter, matches) : undefined;
  return <TablePagination {...props} total={total} isError={isError} isPending={isPending} note={note} />;
}
