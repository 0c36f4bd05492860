/** Browser CSV export (spec §9): rows fetched in chunks of 1000 with the table's query and sort. */
import { CSV_CHUNK_SIZE } from '../../../../catalog/constants.ts';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { fetchRows } from '../../api/report-rows.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { SortOrder } from '../../api/types.ts';
import { cellText } from '../../../../catalog/cell-format.ts';
import { csvLine } from '../../../../catalog/csv.ts';
import { CSV_BOM } from '../../../../catalog/constants.ts';

/** Rows formatted per main-thread task. */
const FORMAT_SLICE_ROWS = 200;

/** Lets the page paint and answer input before the next piece of work. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export interface ExportProgress {
  done: number;
  total: number;
}

export async function exportReportCsv(input: {
  query: ReportQuery;
  orderBy: SortOrder[];
  columns: readonly CatalogColumn[];
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
}): Promise<Blob> {
  const { query, orderBy, columns, signal, onProgress } = input;
  // Each chunk becomes a Blob at once, so 100,000 rows of text leave the JS heap as they arrive instead of growing
  // it until long garbage-collection pauses freeze the page.
  const parts: Blob[] = [new Blob([CSV_BOM, `${csvLine(columns.map((c) => c.title))}\r\n`])];
  let offset = 0;
  let total = Infinity;
  while (offset < total) {
    const page = await fetchRows({ ...query, limit: CSV_CHUNK_SIZE, offset, orderBy }, signal);
    total = page.total;
    const readers = columns.map((c) => page.rows.column(c.id));
    // Formatted in slices with a pause between them, so that no single task holds the main thread for a whole chunk.
    for (let start = 0; start < page.rows.length; start += FORMAT_SLICE_ROWS) {
      const end = Math.min(start + FORMAT_SLICE_ROWS, page.rows.length);
      const lines: string[] = [];
      for (let i = start; i < end; i++) lines.push(csvLine(columns.map((c, j) => cellText(readers[j]!(i), c.format))));
      parts.push(new Blob([`${lines.join('\r\n')}\r\n`]));
      await nextTask();
    }
    offset += CSV_CHUNK_SIZE;
    onProgress({ done: Math.min(offset, total), total });
    if (page.rows.length === 0) break;
  }
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}
