import { useReportStore } from '../../stores/report-store.ts';
import { ReportTable, type ReportTableProps } from './report-table.tsx';

/** The table with the store's rows: it alone renders when the rows load. */
export function StoreReportTable(props: Omit<ReportTableProps, 'rowsState'>) {
  const rowsState = useReportStore((s) => s.rows);
  return <ReportTable {...props} rowsState={rowsState} />;
}
