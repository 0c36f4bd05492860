/**
 * Microsoft Advertising's report download (the spec's ads platform two): a header block of quoted lines
 * (`"Report Name: …"`, `"Report Time: 11/2/2026,11/3/2026"` in US notation, `"Time Zone: …"`, `"Report
 * Aggregation: Daily"`, `"Rows: 4"` …), a blank line, the table, a blank line, then `"©2026 Microsoft
 * Corporation. All rights reserved. "`. Columns by their API names (TimePeriod, FinalUrl, Spend …) or as the web
 * interface titles them (Time period, Final URL …); dates ISO or M/D/YYYY; numbers may carry thousands separators.
 *
 * Rows are by landing URL (FinalUrl, else DestinationUrl); rows without either are left out and counted. A Daily
 * report is kept by day; a Summary report (no time column) is one total over the Report Time range (or
 * --start/--end), placed on its last day. Weekly, monthly and hourly aggregations are refused: they cannot be
 * placed on days without inventing them.
 */
import { amountCell, countCell } from '../cells.ts';
import type { CsvRecord } from '../csv-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import { headLines, stageRows, type Importer, type Row } from '../importer.ts';
import {
  columnOf,
  coverageOf,
  currencyNotes,
  hasHeaderIn,
  readReportTable,
  type ReportTable,
} from '../report-table.ts';
import { dateRangeIn, datesIn } from '../vendor-dates.ts';

const MAX_PREAMBLE = 14;
const URL_COLUMNS = ['finalurl', 'destinationurl', 'landingpageurl'];
const DATE_COLUMNS = ['timeperiod', 'gregoriandate', 'date', 'day'];
const METRICS: [contract: string, names: string[], isCount: boolean][] = [
  ['impressions', ['impressions', 'impr'], true],
  ['clicks', ['clicks'], true],
  ['costs', ['spend', 'cost'], false],
  ['conversions', ['conversions', 'conv', 'conversionsqualified'], false],
  ['revenue', ['revenue'], false],
];

const isHeader = (names: string[]): boolean => names.some((n) => URL_COLUMNS.includes(n)) && names.includes('clicks');

/** A `"Label: value"` line of the header block (some writers split it into two cells). */
function blockValue(table: ReportTable, label: string): string | undefined {
  const prefix = `${label.toLowerCase()}:`;
  for (const record of table.preamble) {
    const text = record.cells.join(',').trim();
    if (text.toLowerCase().startsWith(prefix)) return text.slice(prefix.length).replace(/^,/, '').trim();
  }
  return undefined;
}

interface Layout {
  date: number;
  urls: number[];
  currency: number;
  metrics: [column: number, contract: string, isCount: boolean][];
}

function layoutOf(table: ReportTable): Layout {
  return {
    date: columnOf(table, ...DATE_COLUMNS),
    urls: URL_COLUMNS.map((n) => table.names.indexOf(n)).filter((i) => i >= 0),
    currency: columnOf(table, 'currencycode', 'currency'),
    metrics: METRICS.flatMap(([contract, names, isCount]): [number, string, boolean][] => {
      const column = columnOf(table, ...names);
      return column < 0 ? [] : [[column, contract, isCount]];
    }),
  };
}

function dayCell(file: string, record: CsvRecord, column: number): string {
  const text = (record.cells[column] ?? '').trim();
  const days = datesIn(text);
  if (days?.length !== 1 || !/^[\d/-]+$/.test(text))
    throw cellError(file, record.line, column + 1, `TimePeriod "${text}" is not a day (YYYY-MM-DD or M/D/YYYY)`);
  return days[0]!;
}

function checkAggregation(file: string, table: ReportTable, layout: Layout): void {
  const aggregation = blockValue(table, 'Report Aggregation')?.toLowerCase();
  const isKnown = aggregation === undefined || aggregation === (layout.date >= 0 ? 'daily' : 'summary');
  if (!isKnown)
    throw new ImportError(
      `${file}: a report aggregated "${aggregation}"; import a Daily report (or a Summary one without the time column)`,
    );
}

export const microsoftAdsReport: Importer = {
  source: 'microsoft-ads',
  format: 'Microsoft Advertising report CSV',
  detect: (file) =>
    /^\s*"?report name:/i.test(headLines(file)[0] ?? '') &&
    hasHeaderIn(file, isHeader, { maxPreamble: MAX_PREAMBLE, isLoose: true }),
  async stage(files, ctx) {
    const rows: Row[] = [];
    const days: string[] = [];
    const currencies = new Set<string>();
    let isDaily = true;
    let withoutUrl = 0;
    for (const file of files) {
      const report = readReportTable(file, isHeader, { maxPreamble: MAX_PREAMBLE, isLoose: true });
      const layout = layoutOf(report);
      checkAggregation(file.name, report, layout);
      const stated = dateRangeIn(blockValue(report, 'Report Time') ?? '');
      const range = ctx.range ?? stated;
      if (layout.date < 0 && !range)
        throw new ImportError(
          `${file.name}: a Summary report without a "Report Time" range: give its dates with --start and --end`,
        );
      if (layout.date < 0) isDaily = false;
      if (range) days.push(range.start, range.end);
      for (const record of report.rows) {
        const url = layout.urls.map((i) => (record.cells[i] ?? '').trim()).find((u) => u !== '' && u !== '--');
        if (!url) {
          withoutUrl++;
          continue;
        }
        const at = { file: file.name, record };
        const row: Row = { date: layout.date >= 0 ? dayCell(file.name, record, layout.date) : range!.end, url };
        for (const [column, contract, isCount] of layout.metrics)
          row[contract] = (isCount ? countCell : amountCell)(at, column, report.header.cells[column]?.trim() ?? '');
        const currency = layout.currency >= 0 ? (record.cells[layout.currency] ?? '').trim() : '';
        if (currency !== '') currencies.add(currency.toUpperCase());
        rows.push(row);
        if (layout.date >= 0) days.push(String(row.date));
      }
    }
    const coverage = coverageOf(files, rows.length, days, isDaily);
    const notes = currencyNotes(files, currencies);
    if (withoutUrl > 0) notes.push(`${withoutUrl} rows without a landing URL (FinalUrl, DestinationUrl) left out`);
    return { tables: new Map([['ads_two', await stageRows(ctx, 'ads_two', rows)]]), coverage, notes };
  },
};
