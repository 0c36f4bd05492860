/**
 * The report CSV the Google Analytics 4 interface downloads: a `#` comment preamble (report name, account,
 * property, segment, `# Start date: 20240101`, `# End date: 20240131`), then the table, whose first column is a page
 * dimension ("Page path and screen class", "Landing page", "Page location", …) holding paths rather than URLs, so
 * they are joined on the website's host. Optional "Date" (20240131) and channel group columns; metrics under their
 * interface names (Sessions, Total users, New users, Views, Key events or Conversions, Total revenue, Transactions).
 *
 * Without a Date column the rows are totals over the preamble's period, placed on its last day and marked as a
 * period. Rows whose page is "(not set)" or "(other)" name no page and are left out; a metric the report lacks is
 * NULL, never 0. Without a channel column every row is channel "(all)".
 */
import { dateCell, dateText, decimalCell } from '../cells.ts';
import { isBlank, parseCsv, type CsvRecord } from '../csv-text.ts';
import { ImportError } from '../import-error.ts';
import { readText, stageRows, type Importer, type Row, type SourceFile } from '../importer.ts';

const PAGE_DIMENSIONS = [
  'page path and screen class',
  'page path + query string and screen class',
  'page path',
  'page path + query string',
  'landing page',
  'landing page + query string',
  'page location',
  'full page url',
];
const CHANNEL_DIMENSIONS = [
  'session default channel group',
  'session primary channel group',
  'default channel group',
  'first user default channel group',
];
const METRICS: Record<string, string> = {
  sessions: 'sessions',
  'total users': 'users',
  users: 'users',
  'active users': 'users',
  'new users': 'new_users',
  views: 'page_views',
  'screen page views': 'page_views',
  'key events': 'conversions',
  conversions: 'conversions',
  'total revenue': 'revenue',
  'purchase revenue': 'revenue',
  transactions: 'transactions',
  'ecommerce purchases': 'transactions',
};
export const ALL_CHANNELS = '(all)';

const isComment = (record: CsvRecord): boolean => (record.cells[0] ?? '').trimStart().startsWith('#');
const lower = (cell: string | undefined): string => (cell ?? '').trim().toLowerCase();

function headerIndex(records: CsvRecord[]): number {
  return records.findIndex((r) => !isComment(r) && !isBlank(r));
}

function preambleDate(records: CsvRecord[], label: string): string | undefined {
  for (const record of records) {
    if (!isComment(record)) break;
    const match = new RegExp(`^#\\s*${label} date:\\s*(\\d{8})\\s*$`, 'i').exec(record.cells.join(','));
    if (match?.[1]) return dateText(match[1]);
  }
  return undefined;
}

interface Layout {
  page: number;
  date: number;
  channel: number;
  /** Each metric column with its contract column and its header, which a bad cell's message names. */
  metrics: [column: number, contract: string, header: string][];
}

function layoutOf(file: string, header: CsvRecord): Layout {
  const names = header.cells.map(lower);
  const page = names.findIndex((n) => PAGE_DIMENSIONS.includes(n));
  if (page < 0) throw new ImportError(`${file}: no page dimension column (such as "Page path and screen class")`);
  const metrics = names.flatMap((n, i): [number, string, string][] =>
    METRICS[n] ? [[i, METRICS[n], (header.cells[i] ?? '').trim()]] : [],
  );
  if (metrics.length === 0)
    throw new ImportError(`${file}: no metric column the analytics source keeps (such as Sessions or Views)`);
  return {
    page,
    date: names.indexOf('date'),
    channel: names.findIndex((n) => CHANNEL_DIMENSIONS.includes(n)),
    metrics,
  };
}

/** The table's rows: from the header to the first blank or comment line (a report may hold further tables). */
function tableRows(records: CsvRecord[], start: number): CsvRecord[] {
  const rows: CsvRecord[] = [];
  for (const record of records.slice(start + 1)) {
    if (isBlank(record) || isComment(record)) break;
    rows.push(record);
  }
  return rows;
}

function rowOf(file: string, record: CsvRecord, layout: Layout, date: string): Row {
  const at = { file, record };
  const row: Row = {
    date: layout.date >= 0 ? dateCell(at, layout.date, 'Date') : date,
    url: (record.cells[layout.page] ?? '').trim(),
    channel: layout.channel >= 0 ? (record.cells[layout.channel] ?? '').trim() || '(not set)' : ALL_CHANNELS,
  };
  for (const [column, contract, name] of layout.metrics) {
    const value = decimalCell(at, column, name);
    row[contract] = value === null || contract === 'revenue' ? value : Math.round(value);
  }
  return row;
}

/** A page path or URL; GA4 names no page with "(not set)" or "(other)". */
export const isPage = (text: string): boolean => text.startsWith('/') || /^https?:\/\//i.test(text);

export const analyticsGa4Report: Importer = {
  source: 'analytics',
  format: 'Google Analytics 4 report CSV',
  detect(file: SourceFile) {
    const text = file.head.toString('utf8').replace(/^\uFEFF/, '');
    const header = text.split(/\r?\n/).find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
    return PAGE_DIMENSIONS.includes(lower(header.split(',')[0]?.replace(/^"|"$/g, '')));
  },
  async stage(files, ctx) {
    const rows: Row[] = [];
    const days: string[] = [];
    let skipped = 0;
    let isDaily = true;
    for (const file of files) {
      const records = parseCsv(file.name, readText(file));
      const at = headerIndex(records);
      const header = records[at];
      if (!header) throw new ImportError(`${file.name}: no table below the preamble`);
      const layout = layoutOf(file.name, header);
      const start = ctx.range?.start ?? preambleDate(records, 'start');
      const end = ctx.range?.end ?? preambleDate(records, 'end');
      if (layout.date < 0 && !(start && end))
        throw new ImportError(
          `${file.name}: no "# Start date"/"# End date" lines and no Date column: give the report's dates with --start and --end`,
        );
      if (layout.date < 0) isDaily = false;
      if (start && end) days.push(start, end);
      for (const record of tableRows(records, at)) {
        const row = rowOf(file.name, record, layout, end ?? '');
        if (!isPage(String(row.url))) {
          skipped++;
          continue;
        }
        rows.push(row);
        if (layout.date >= 0) days.push(String(row.date));
      }
    }
    days.sort();
    if (rows.length === 0 || !days[0]) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no page rows`);
    return {
      tables: new Map([['analytics', await stageRows(ctx, 'analytics', rows)]]),
      coverage: { start: days[0], end: days.at(-1)!, granularity: isDaily ? 'day' : 'period' },
      notes: skipped > 0 ? [`${skipped} rows without a page ("(not set)", "(other)") left out`] : [],
    };
  },
};
