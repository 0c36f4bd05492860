/**
 * The browser CSV export's work (spec §9), as the export's worker runs it: rows fetched in chunks of 1000 with the
 * table's query and sort, decoded and written as CSV.
 */
import { CSV_BOM, CSV_CHUNK_SIZE } from '../../../../catalog/constants.ts';
import { cellText } from '../../../../catalog/cell-format.ts';
import { csvLine } from '../../../../catalog/csv.ts';
import type { CatalogColumn } from '../../../../catalog/schema.ts';
import { fetchRows } from '../../api/report-rows.ts';
import type { ReportQuery } from '../../api/technical-health-check.ts';
import type { SortOrder } from '../../api/types.ts';

export interface ExportProgress {
  done: number;
  total: number;
}

/** What the page hands the worker: the query, the sort, and the columns as they are exported. */
export interface CsvExportRequest {
  query: ReportQuery;
  orderBy: SortOrder[];
  columns: Pick<CatalogColumn, 'id' | 'title' | 'format'>[];
}

export async function writeReportCsv(
  { query, orderBy, columns }: CsvExportRequest,
  onProgress: (progress: ExportProgress) => void,
): Promise<Blob> {
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
    onProgress({ done: Math.min(offset, total), total });
    if (page.rows.length === 0) break;
  }
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}
