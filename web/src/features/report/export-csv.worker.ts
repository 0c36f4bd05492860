/** The browser CSV export's worker: the page's main thread stays free while 100,000 rows are fetched and written. */
import { ApiError, setCsrfToken } from '../../api/client.ts';
import type { ExportAnswer, ExportStart } from './export-csv.ts';
import { writeReportCsv } from './write-report-csv.ts';

/** The dedicated worker's side of postMessage, typed without the WebWorker lib (it clashes with DOM's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportStart>) => void) | null;
  postMessage(message: ExportAnswer): void;
};

scope.onmessage = ({ data: { csrfToken, ...request } }) => {
  setCsrfToken(csrfToken);
  writeReportCsv(request, (progress) => scope.postMessage({ type: 'progress', ...progress })).then(
    (blob) => scope.postMessage({ type: 'done', blob }),
    (error: unknown) =>
      scope.postMessage({
        type: 'error',
        status: error instanceof ApiError ? error.status : 0,
        message: error instanceof Error ? error.message : String(error),
        retryAfterSeconds: error instanceof ApiError ? error.retryAfterSeconds : undefined,
      }),
  );
};
