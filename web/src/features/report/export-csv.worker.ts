/**
 * The browser CSV export's work (spec §9), off the page's main thread: rows fetched in chunks of 1000 with the
 * table's query and sort, decoded and written as CSV here, so the page scrolls and pages while 100,000 rows go by.
 */
import { CSV_BOM, CSV_CHUNK_SIZE } from '../../../../catalog/constants.ts';
import { cellText } from '../../../../catalog/cell-format.ts';
import { csvLine } from '../../../../catalog/csv.ts';
import { ApiError, setCsrfToken } from '../../api/client.ts';
import { fetchRows } from '../../api/report-rows.ts';
import type { ExportAnswer, ExportStart } from './export-csv.ts';

/** The dedicated worker's side of postMessage, typed without the WebWorker lib (it clashes with DOM's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportStart>) => void) | null;
  postMessage(message: ExportAnswer): void;
};

async function writeCsv({ query, orderBy, columns, csrfToken }: ExportStart): Promise<Blob> {
  setCsrfToken(csrfToken);
  // Each chunk becomes a Blob at once, so the text leaves the JS heap as it arrives.
  const parts: Blob[] = [new Blob([CSV_BOM, `${csvLine(columns.map((c) => c.title))}\r\n`])];
  let offset = 0;
  let total = Infinity;
  while (offset < total) {
    const page = await fetchRows({ ...query, limit: CSV_CHUNK_SIZE, offset, orderBy });
    total = page.total;
    const readers = columns.map((c) => page.rows.column(c.id));
    const lines: string[] = [];
    for (let i = 0; i < page.rows.length; i++)
      lines.push(csvLine(columns.map((c, j) => cellText(readers[j]!(i), c.format))));
    if (lines.length > 0) parts.push(new Blob([`${lines.join('\r\n')}\r\n`]));
    offset += CSV_CHUNK_SIZE;
    scope.postMessage({ type: 'progress', done: Math.min(offset, total), total });
    if (page.rows.length === 0) break;
  }
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}

scope.onmessage = (event) => {
  writeCsv(event.data).then(
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
