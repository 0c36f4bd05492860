import { useMemo } from 'react';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { columnById } from '../../lib/catalog.ts';
import { reportColumns, type ColumnContext } from './table-model.ts';
import type { TablePreferences } from './use-table-preferences.ts';

/** The report's columns for this view, in the user's order, and those the user keeps visible. */
export function useReportColumns(report: ReportDefinition, scope: ColumnContext, preferences: TablePreferences) {
  const { segment, isLatestCrawl, differenceType, showChecked } = scope;
  const columns = useMemo(
    () => reportColumns(report, columnById, { segment, isLatestCrawl, differenceType, showChecked }),
    [report, segment, isLatestCrawl, differenceType, showChecked],
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
  return { columns, columnOrder, visibleColumns };
}
