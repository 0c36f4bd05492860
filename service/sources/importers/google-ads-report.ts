/**
 * Google Ads' report downloads (the spec's ads platform one), as the interface writes them: a title line ("Search
 * terms report", "Landing page report"), the date range ("September 1, 2026 - September 27, 2026"), the header,
 * the rows, then "Total: …" rows (Total: Search terms, Total: Other search terms, Total: Account …). Numbers carry
 * thousands separators ("1,204"), "--" stands for none, money columns are in the account's currency (a "Currency
 * code" column, or "Cost (GBP)"). The "Excel" download is the same table in UTF-16, tab-separated.
 *
 * The search terms report fills ads_one by search term and keyword (the query), without a landing URL (Google Ads
 * reports no landing page per search term); the landing page report fills it by landing URL, without query or
 * search term. An optional "Day" column makes the rows daily; without it they are totals over the stated range
 * (or --start/--end), placed on its last day.
 */
import { amountCell, countCell, dateCell } from '../cells.ts';
import type { CsvRecord } from '../csv-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import { stageRows, type Importer, type Row } from '../importer.ts';
import {
  columnOf,
  coverageOf,
  currencyNotes,
  hasHeaderIn,
  readReportTable,
  type ReportTable,
} from '../report-table.ts';
import { dateRangeIn } from '../vendor-dates.ts';

const KEYS = { searchTerm: ['search term'], landingPage: ['landing page', 'expanded landing page'] };
const METRICS: [contract: string, names: string[], isCount: boolean][] = [
  ['clicks', ['clicks'], true],
  ['impressions', ['impr.', 'impressions'], true],
  ['costs', ['cost'], false],
  ['conversions', ['conversions'], false],
  ['all_conversions', ['all conv.'], false],
  ['revenue', ['conv. value', 'total conv. value'], false],
  ['all_revenue', ['all conv. value'], false],
];
const MAX_PREAMBLE = 2;

/** "Cost (GBP)" is the cost column with its currency in the name. */
const plainName = (name: string): string => name.replace(/\s*\([a-z]{3}\)$/, '');

const isHeader = (names: string[]): boolean =>
  names.some((n) => [...KEYS.searchTerm, ...KEYS.landingPage].includes(n)) &&
  names.some((n) => ['clicks', 'impr.', 'impressions'].includes(n));

const isTotal = (record: CsvRecord): boolean =>
  /^total:/i.test(record.cells.find((c) => c.trim() !== '')?.trim() ?? '');

/** The keyword's text without its match-type notation: [exact], "phrase", +broad +modifier. */
export const keywordText = (cell: string): string =>
  cell
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^"(.*)"$/, '$1')
    .replace(/(^|\s)\+/g, '$1')
    .trim();

interface Layout {
  searchTerm: number;
  keyword: number;
  landingPage: number;
  day: number;
  currency: number;
  metrics: [column: number, contract: string, isCount: boolean][];
}

function layoutOf(table: ReportTable): Layout {
  const plain = { names: table.names.map(plainName) };
  return {
    searchTerm: columnOf(table, ...KEYS.searchTerm),
    keyword: columnOf(table, 'keyword', 'search keyword'),
    landingPage: columnOf(table, ...KEYS.landingPage),
    day: columnOf(table, 'day', 'date'),
    currency: columnOf(table, 'currency code', 'currency'),
    metrics: METRICS.flatMap(([contract, names, isCount]): [number, string, boolean][] => {
      const column = columnOf(plain, ...names);
      return column < 0 ? [] : [[column, contract, isCount]];
    }),
  };
}

/** The currencies the file's money is in: from "Cost (GBP)"-style names and the currency column. */
function currenciesOf(table: ReportTable, layout: Layout): string[] {
  const found = table.names.flatMap((n) => /\(([a-z]{3})\)$/.exec(n)?.[1]?.toUpperCase() ?? []);
  if (layout.currency >= 0)
    for (const record of table.rows) {
      const code = record.cells[layout.currency]?.trim() ?? '';
      if (code !== '' && code !== '--') found.push(code.toUpperCase());
    }
  return found;
}

function rowOf(file: string, table: ReportTable, record: CsvRecord, layout: Layout, day: string): Row {
  const at = { file, record };
  const text = (column: number): string | null => (column < 0 ? null : (record.cells[column] ?? '').trim());
  const row: Row = {
    date: layout.day >= 0 ? dateCell(at, layout.day, 'Day') : day,
    url: text(layout.landingPage),
    query: layout.keyword >= 0 ? keywordText(record.cells[layout.keyword] ?? '') || null : null,
    search_term: text(layout.searchTerm),
  };
  for (const [column, name] of [
    [layout.searchTerm, 'Search term'],
    [layout.landingPage, 'Landing page'],
  ] as const)
    if (column >= 0 && text(column) === '') throw cellError(file, record.line, column + 1, `${name} is empty`);
  for (const [column, contract, isCount] of layout.metrics)
    row[contract] = (isCount ? countCell : amountCell)(at, column, table.header.cells[column]?.trim() ?? contract);
  return row;
}

export const googleAdsReport: Importer = {
  source: 'google-ads',
  format: 'Google Ads report CSV (search terms or landing pages)',
  detect: (file) => hasHeaderIn(file, isHeader, { maxPreamble: MAX_PREAMBLE }),
  async stage(files, ctx) {
    const rows: Row[] = [];
    const days: string[] = [];
    const currencies = new Set<string>();
    let isDaily = true;
    let hasKeyword = true;
    for (const file of files) {
      const report = readReportTable(file, isHeader, { maxPreamble: MAX_PREAMBLE });
      const layout = layoutOf(report);
      if (layout.metrics.length === 0)
        throw new ImportError(`${file.name}: no metric column ads_one keeps (Clicks, Impr., Cost, Conversions …)`);
      const stated = report.preamble.map((r) => dateRangeIn(r.cells.join(','))).find(Boolean);
      const range = ctx.range ?? stated;
      if (layout.day < 0 && !range)
        throw new ImportError(
          `${file.name}: no date range line above the header and no Day column: give the report's dates with --start and --end`,
        );
      if (layout.day < 0) isDaily = false;
      if (range) days.push(range.start, range.end);
      if (layout.searchTerm >= 0 && layout.keyword < 0) hasKeyword = false;
      for (const c of currenciesOf(report, layout)) currencies.add(c);
      for (const record of report.rows) {
        if (isTotal(record)) continue;
        const row = rowOf(file.name, report, record, layout, range?.end ?? '');
        rows.push(row);
        if (layout.day >= 0) days.push(String(row.date));
      }
    }
    const coverage = coverageOf(files, rows.length, days, isDaily);
    const notes = currencyNotes(files, currencies);
    if (!hasKeyword) notes.push('no Keyword column: search terms are kept without the keyword (query) they matched');
    return {
      tables: new Map([['ads_one', await stageRows(ctx, 'ads_one', rows)]]),
      coverage,
      notes,
    };
  },
};
