/**
 * The CSV the vendors' dashboards download: RFC 4180 quoting, CRLF or LF, an optional byte-order mark. Each record
 * keeps the line it starts on and each cell its column (1-based), so a bad cell can be named exactly.
 */
import { ImportError } from './import-error.ts';

export interface CsvRecord {
  line: number;
  cells: string[];
}

export function parseCsv(file: string, text: string, separator = ','): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let isQuoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = (): void => {
    cells.push(cell);
    records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (isQuoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') isQuoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') isQuoted = true;
    else if (ch === separator) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else cell += ch;
  }
  if (isQuoted) throw new ImportError(`${file}:${recordLine}: a quoted cell is not closed (a truncated file?)`);
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

/** A record with nothing in it: an empty line, or only separators. */
export const isBlank = (record: CsvRecord): boolean => record.cells.every((c) => c.trim() === '');
