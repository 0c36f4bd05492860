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

/**
 * A vendor file's text: UTF-8 (with or without a byte-order mark) or UTF-16 as Keyword Planner and Google Ads'
 * "Excel" CSV write it (little-endian with a mark; without one, told by the zero high bytes of ASCII text).
 */
export function decodeText(bytes: Buffer): string {
  const isUtf16 = (le: boolean): boolean =>
    bytes.length >= 4 && bytes[le ? 1 : 0] === 0 && bytes[le ? 3 : 2] === 0 && bytes[le ? 0 : 1] !== 0;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes.subarray(2), true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes.subarray(2), false);
  if (isUtf16(true)) return utf16(bytes, true);
  if (isUtf16(false)) return utf16(bytes, false);
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

function utf16(bytes: Buffer, isLittleEndian: boolean): string {
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  return (isLittleEndian ? even : Buffer.from(even).swap16()).toString('utf16le');
}

/** The separator of a header line: a tab when it has tabs (Keyword Planner, "Excel" CSV), else a comma. */
export const separatorOf = (headerLine: string): string => (headerLine.includes('\t') ? '\t' : ',');

/** A record with nothing in it: an empty line, or only separators. */
export const isBlank = (record: CsvRecord): boolean => record.cells.every((c) => c.trim() === '');
