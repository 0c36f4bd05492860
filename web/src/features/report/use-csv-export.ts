import { useState } from 'react';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { isAbortError } from '../../api/client.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { SortOrder } from '../../api/types.ts';
import { downloadCsv } from '../../lib/csv.ts';
import { showErrorToast } from '../../lib/toast.ts';
import { exportReportCsv, type ExportProgress } from './export-csv.ts';

export interface CsvExport {
  progress: ExportProgress;
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
    setRunning({ progress: { done: 0, total }, controller });
    try {
      const blob = await exportReportCsv({
        query,
        orderBy,
        columns: columns.filter((c) => c.format !== 'ai-suggestion' && c.id !== 'checked'),
        signal: controller.signal,
        onProgress: (progress) => setRunning((s) => (s ? { ...s, progress } : s)),
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
