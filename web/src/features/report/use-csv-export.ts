import { useState } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { isAbortError } from '../../api/client.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { SortOrder } from '../../api/types.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { showErrorToast } from '../../lib/toast.ts';
import { exportReportCsv, type ExportProgress } from './export-csv.ts';

export interface CsvExport {
  /** Read only by the progress bar, so that a chunk's progress repaints the bar and not the whole report page. */
  progress: StoreApi<ExportProgress>;
  controller: AbortController;
}

/** The report tab's CSV export: its progress while it runs (null otherwise), start, and cancel through `controller`. */
export function useCsvExport(input: {
  query: ReportQuery | null;
  orderBy: SortOrder[];
  /** The visible columns; AI suggestions and the checklist box are not exported. */
  columns: readonly CatalogColumn[];
  fileStem: string;
  total: number;
}) {
  const [running, setRunning] = useState<CsvExport | null>(null);

  const start = async () => {
    const { query, orderBy, columns, fileStem, total } = input;
    if (!query) return;
    const controller = new AbortController();
    const progress = createStore<ExportProgress>(() => ({ done: 0, total }));
    setRunning({ progress, controller });
    try {
      const blob = await exportReportCsv({
        query,
        orderBy,
        columns: columns.filter((c) => c.format !== 'ai-suggestion' && c.id !== 'checked'),
        signal: controller.signal,
        onProgress: (next) => progress.setState(next, true),
      });
      downloadCsv(fileStem, blob);
    } catch (error) {
      if (!isAbortError(error)) showErrorToast('The CSV export failed, please try again later.');
    } finally {
      setRunning(null);
    }
  };

  return { running, start };
}
