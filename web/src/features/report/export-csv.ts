/**
 * Browser CSV export (spec §9): a dedicated worker fetches the rows in chunks of 1000 with the table's query and sort
 * and writes the CSV; the page only shows its progress and saves the file.
 */
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { ApiError, csrfTokenOf, reportUnauthorised } from '../../api/client.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { SortOrder } from '../../api/types.ts';
import type { CsvExportRequest, ExportProgress } from './write-report-csv.ts';

export type { ExportProgress };

/** What the page sends the worker: the export, and the session's token for its calls. */
export interface ExportStart extends CsvExportRequest {
  csrfToken: string | undefined;
}

export type ExportAnswer =
  | ({ type: 'progress' } & ExportProgress)
  | { type: 'done'; blob: Blob }
  | { type: 'error'; status: number; message: string; retryAfterSeconds: number | undefined };

export function exportReportCsv(input: {
  query: ReportQuery;
  orderBy: SortOrder[];
  columns: readonly CatalogColumn[];
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
}): Promise<Blob> {
  const { query, orderBy, columns, signal, onProgress } = input;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./export-csv.worker.ts', import.meta.url), { type: 'module' });
    const finish = () => {
      signal.removeEventListener('abort', cancel);
      worker.terminate();
    };
    // Ending the worker ends its fetches too.
    const cancel = () => {
      finish();
      reject(new DOMException('The CSV export was cancelled', 'AbortError'));
    };
    if (signal.aborted) return cancel();
    signal.addEventListener('abort', cancel);
    worker.onmessage = ({ data }: MessageEvent<ExportAnswer>) => {
      if (data.type === 'progress') return onProgress({ done: data.done, total: data.total });
      finish();
      if (data.type === 'done') return resolve(data.blob);
      if (data.status === 401) reportUnauthorised();
      reject(new ApiError(data.status, data.message, data.retryAfterSeconds));
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(`The CSV export stopped: ${event.message || 'the worker failed to start'}`));
    };
    const start: ExportStart = {
      query,
      orderBy,
      columns: columns.map(({ id, title, format }) => ({ id, title, format })),
      csrfToken: csrfTokenOf(),
    };
    worker.postMessage(start);
  });
}
