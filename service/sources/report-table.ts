/**
 * The table of a dashboard's report download: title and date lines above it (Google Ads, Keyword Planner) or a
 * quoted header block (Microsoft Advertising), the header, the rows up to the first blank line, then whatever the
 * vendor writes below (totals, a copyright line). Comma- or tab-separated, UTF-8 or UTF-16.
 */
import { isBlank, parseCsv, separatorOf, type CsvRecord } from './csv-text.ts';
import { ImportError } from './import-error.ts';
import { headLines, readText, type Coverage, type SourceFile } from './importer.ts';

export interface ReportTable {
  /** The records above the header. */
  preamble: CsvRecord[];
  header: CsvRecord;
  /** Header cells, trimmed and lower-case, for finding columns. */
  names: string[];
  rows: CsvRecord[];
  /** The records after the first blank line below the header. */
  below: CsvRecord[];
}

/** Lower-case header text, so "Impr." and "impr." or "FinalUrl" and "Final URL" (with `isLoose`) are one name. */
export const headerName = (cell: string, isLoose = false): string => {
  const lower = cell.trim().toLowerCase();
  return isLoose ? lower.replace(/[^a-z0-9]/g, '') : lower;
};

export function readReportTable(
  file: SourceFile,
  isHeader: (names: string[]) => boolean,
  options: { maxPreamble: number; isLoose?: boolean },
): ReportTable {
  const text = readText(file);
  const lines = text.split(/\r?\n/, options.maxPreamble + 2);
  const separator = lines.some((line) => separatorOf(line) === '\t') ? '\t' : ',';
  const records = parseCsv(file.name, text, separator);
  const namesOf = (r: CsvRecord): string[] => r.cells.map((c) => headerName(c, options.isLoose));
  const at = records.slice(0, options.maxPreamble + 1).findIndex((r) => isHeader(namesOf(r)));
  const header = records[at];
  if (at < 0 || !header)
    throw new ImportError(`${file.name}: no report header in its first ${options.maxPreamble + 1} lines`);
  const end = records.findIndex((r, i) => i > at && isBlank(r));
  const stop = end < 0 ? records.length : end;
  return {
    preamble: records.slice(0, at),
    header,
    names: namesOf(header),
    rows: records.slice(at + 1, stop),
    below: records.slice(stop).filter((r) => !isBlank(r)),
  };
}

/** The index of the first column named one of `names` (lower-case), or -1. */
export const columnOf = (table: Pick<ReportTable, 'names'>, ...names: string[]): number =>
  table.names.findIndex((n) => names.includes(n));

/** Whether a header `isHeader` accepts is among the first lines of a file's head (for detection). */
export function hasHeaderIn(
  file: SourceFile,
  isHeader: (names: string[]) => boolean,
  options: { maxPreamble: number; isLoose?: boolean },
): boolean {
  return headLines(file)
    .slice(0, options.maxPreamble + 1)
    .some((line) =>
      isHeader(line.split(separatorOf(line)).map((c) => headerName(c.replace(/^\s*"|"\s*$/g, ''), options.isLoose))),
    );
}

/** Money is kept in the currency it was exported in; files mixing currencies are refused. */
export function currencyNotes(files: readonly SourceFile[], currencies: ReadonlySet<string>): string[] {
  const named = files.map((f) => f.name).join(', ');
  if (currencies.size > 1)
    throw new ImportError(
      `${named}: amounts in several currencies (${[...currencies].join(', ')}); import one currency at a time`,
    );
  const [currency] = currencies;
  return currency && currency !== 'GBP' ? [`amounts are in ${currency} as exported (not converted to pounds)`] : [];
}

/** The dates staged rows cover, from every day or period bound seen; refuses files without rows. */
export function coverageOf(files: readonly SourceFile[], rows: number, days: string[], isDaily: boolean): Coverage {
  days.sort();
  if (rows === 0 || !days[0]) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no rows`);
  return { start: days[0], end: days.at(-1)!, granularity: isDaily ? 'day' : 'period' };
}
