/**
 * Keyword Planner's "Keyword Stats" download, as Google Ads writes it: UTF-16LE with a byte-order mark,
 * tab-separated, two title lines ("Keyword Stats 2026-11-16 at 09_41_07", then the months covered, "November 1,
 * 2025 - October 31, 2026"), then Keyword, Currency, Segmentation, Avg. monthly searches, Three month change, YoY
 * change, Competition, Competition (indexed value), Top of page bid (low/high range), … and one "Searches: Nov
 * 2025" column per month. Volumes may be written "1900" or "1900.0"; rows without a keyword are a segmentation's
 * summary rows and are left out. Accounts without ad spend see ranges ("1K – 10K"), which are refused: the contract
 * keeps exact volumes.
 *
 * The rows are placed on the request's day from the first title line (request_date); the export names no customer
 * id, network, location or language (left empty) and no average CPC (the bids are a range, not kept).
 */
import { countCell } from '../cells.ts';
import type { CsvRecord } from '../csv-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import { headLines, stageRows, type Cell, type Importer } from '../importer.ts';
import { columnOf, readReportTable, type ReportTable } from '../report-table.ts';
import { datesIn, monthOf } from '../vendor-dates.ts';

const MAX_PREAMBLE = 2;
const TITLE = /^\s*"?Keyword Stats (\d{4}-\d{2}-\d{2})/;
const MONTH = /^searches: ([a-z]{3}) (\d{4})$/;
const COMPETITION = ['low', 'medium', 'high'];

const isHeader = (names: string[]): boolean => names[0] === 'keyword' && names.includes('avg. monthly searches');

interface Layout {
  keyword: number;
  average: number;
  competition: number;
  index: number;
  months: { column: number; year: number; month: number }[];
}

function layoutOf(file: string, table: ReportTable): Layout {
  const months = table.names.flatMap((name, column) => {
    const match = MONTH.exec(name);
    const month = match && monthOf(match[1]!);
    return match && month ? [{ column, year: Number(match[2]), month }] : [];
  });
  if (months.length === 0) throw new ImportError(`${file}: no monthly "Searches: Mon YYYY" columns`);
  return {
    keyword: 0,
    average: columnOf(table, 'avg. monthly searches'),
    competition: columnOf(table, 'competition'),
    index: columnOf(table, 'competition (indexed value)'),
    months,
  };
}

function volumeCell(file: string, record: CsvRecord, column: number, name: string): number | null {
  const text = (record.cells[column] ?? '').trim();
  if (/\d\s*[–-]\s*\d|K\b|M\b/.test(text))
    throw cellError(
      file,
      record.line,
      column + 1,
      `${name} "${text}" is a range (Keyword Planner shows ranges to accounts without ad spend): exact volumes are needed`,
    );
  return countCell({ file, record }, column, name);
}

function competitionCell(file: string, record: CsvRecord, column: number): string | null {
  const text = (record.cells[column] ?? '').trim();
  if (text === '') return null;
  if (!COMPETITION.includes(text.toLowerCase()))
    throw cellError(file, record.line, column + 1, `Competition "${text}" is not Low, Medium or High`);
  return text.toUpperCase();
}

function rowOf(
  file: string,
  record: CsvRecord,
  layout: Layout,
  header: CsvRecord,
  requestDate: string,
): Record<string, Cell> {
  const monthly: Cell[] = [];
  for (const { column, year, month } of layout.months) {
    const volume = volumeCell(file, record, column, header.cells[column]?.trim() ?? '');
    if (volume !== null) monthly.push({ year, month, search_volume: volume });
  }
  const volumes = monthly.map((m) => (m as { search_volume: number }).search_volume);
  return {
    customer_id: null,
    network: null,
    countries: null,
    language: null,
    request_date: requestDate,
    query: (record.cells[layout.keyword] ?? '').trim(),
    average_cpc: null,
    average_search_volume:
      layout.average < 0 ? null : volumeCell(file, record, layout.average, 'Avg. monthly searches'),
    total_search_volume: volumes.length === 0 ? null : volumes.reduce((a, b) => a + b, 0),
    competition: layout.competition < 0 ? null : competitionCell(file, record, layout.competition),
    competition_index:
      layout.index < 0 ? null : countCell({ file, record }, layout.index, 'Competition (indexed value)'),
    monthly_records: monthly,
  };
}

export const keywordPlannerStats: Importer = {
  source: 'keyword-planner',
  format: 'Keyword Planner "Keyword Stats" export',
  detect: (file) => TITLE.test(headLines(file)[0] ?? ''),
  async stage(files, ctx) {
    const rows: Record<string, Cell>[] = [];
    const requests = new Set<string>();
    const spans: string[] = [];
    let summaries = 0;
    for (const file of files) {
      const requestDate = datesIn(TITLE.exec(headLines(file)[0] ?? '')?.[1] ?? '')?.[0];
      if (!requestDate) throw new ImportError(`${file.name}:1: the "Keyword Stats YYYY-MM-DD" title has no real day`);
      requests.add(requestDate);
      const table = readReportTable(file, isHeader, { maxPreamble: MAX_PREAMBLE });
      const layout = layoutOf(file.name, table);
      const first = layout.months[0]!;
      const last = layout.months.at(-1)!;
      spans.push(
        `${first.year}-${String(first.month).padStart(2, '0')} to ${last.year}-${String(last.month).padStart(2, '0')}`,
      );
      for (const record of table.rows) {
        if ((record.cells[layout.keyword] ?? '').trim() === '') summaries++;
        else rows.push(rowOf(file.name, record, layout, table.header, requestDate));
      }
    }
    if (rows.length === 0) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no keyword rows`);
    const days = [...requests].sort();
    const notes = [`monthly searches ${[...new Set(spans)].join(', ')}`];
    if (summaries > 0) notes.push(`${summaries} segmentation summary rows (no keyword) left out`);
    return {
      tables: new Map([['keyword_planner', await stageRows(ctx, 'keyword_planner', rows)]]),
      coverage: { start: days[0]!, end: days.at(-1)!, granularity: 'period' },
      notes,
    };
  },
};
