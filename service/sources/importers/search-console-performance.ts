/**
 * Search Console's Performance report export: the CSVs of its ZIP, one per tab, each `<dimension>,Clicks,
 * Impressions,CTR,Position` with CTR as "12.34%" and position empty on days without impressions (`Queries.csv` "Top
 * queries", `Pages.csv` "Top pages", `Dates.csv` or `Chart.csv` "Date", `Countries.csv`, `Devices.csv`,
 * `Search appearance.csv`), and `Filters.csv` (`Filter,Value`; its Date is usually relative, "Last 3 months").
 *
 * Only Pages carries URLs: its totals are one period's, placed on the period's last day and marked as a period, so
 * nothing claims daily precision. The period comes from --start/--end, else an explicit date in Filters.csv, else
 * the first and last day of Dates.csv. Queries, countries, devices and appearances have no page: they are checked
 * and left out (the query report needs the bulk export's URL and query rows).
 */
import { dateCell, dateText, decimalCell, integerCell, percentCell, textCell } from '../cells.ts';
import { isBlank, parseCsv, type CsvRecord } from '../csv-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import { firstDataLine, readText, stageRows, type Importer, type Row, type SourceFile } from '../importer.ts';

const METRICS = ['clicks', 'impressions', 'ctr', 'position'];
const TABS: Record<string, string> = {
  'top pages': 'pages',
  page: 'pages',
  'top queries': 'queries',
  query: 'queries',
  date: 'dates',
  country: 'countries',
  device: 'devices',
  'search appearance': 'search appearance',
};

const headerOf = (line: string): string[] => line.split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());

function tabOf(line: string): string | undefined {
  const [first, ...rest] = headerOf(line);
  if (first === 'filter' && rest.length === 1 && rest[0] === 'value') return 'filters';
  if (first === undefined || rest.join() !== METRICS.join()) return undefined;
  return TABS[first];
}

interface Tab {
  file: SourceFile;
  kind: string;
  records: CsvRecord[];
}

function readTab(file: SourceFile): Tab {
  const records = parseCsv(file.name, readText(file)).filter((r) => !isBlank(r));
  const [header, ...rows] = records;
  const kind = header && tabOf(header.cells.join(','));
  if (!kind) throw new ImportError(`${file.name}: not a Search Console Performance report CSV`);
  const width = header.cells.length;
  for (const record of rows)
    if (record.cells.length !== width)
      throw cellError(file.name, record.line, 1, `${record.cells.length} cells, the header has ${width}`);
  return { file, kind, records: rows };
}

/** Clicks, impressions, CTR and position of a tab's row, checked. */
function metricsOf(file: string, record: CsvRecord): { clicks: number; impressions: number; position: number | null } {
  const at = { file, record };
  const clicks = integerCell(at, 1, 'Clicks');
  const impressions = integerCell(at, 2, 'Impressions');
  percentCell(at, 3, 'CTR');
  return { clicks, impressions, position: decimalCell(at, 4, 'Position') };
}

function explicitFilterRange(tab: Tab | undefined): { start: string; end: string } | undefined {
  const date = tab?.records.find((r) => textCell({ file: '', record: r }, 0).toLowerCase() === 'date');
  const dates = date?.cells[1]?.match(/\d{4}-\d{2}-\d{2}/g);
  const start = dates?.[0] && dateText(dates[0]);
  const end = dates?.[1] && dateText(dates[1]);
  return start && end ? { start, end } : undefined;
}

function datesRange(tab: Tab | undefined): { start: string; end: string } | undefined {
  const days = tab?.records.map((record) => dateCell({ file: tab.file.name, record }, 0, 'Date')).sort();
  return days?.[0] ? { start: days[0], end: days.at(-1)! } : undefined;
}

export const searchConsolePerformance: Importer = {
  source: 'search-console',
  format: 'Search Console Performance report CSV',
  detect: (file) => tabOf(firstDataLine(file.head)) !== undefined,
  async stage(files, ctx) {
    const tabs = files.map(readTab);
    const tab = (kind: string): Tab | undefined => tabs.find((t) => t.kind === kind);
    const pages = tab('pages');
    for (const t of tabs) if (t.kind !== 'filters') for (const r of t.records) metricsOf(t.file.name, r);
    const range = ctx.range ?? explicitFilterRange(tab('filters')) ?? datesRange(tab('dates'));
    const named = files.map((f) => f.name).join(', ');
    if (!pages)
      throw new ImportError(
        `${named}: no Pages.csv ("Top pages"): the Performance report's other tabs have no page URL to join on; import Pages.csv, or the bulk export for queries`,
      );
    if (!range)
      throw new ImportError(
        `${pages.file.name}: the Performance report's totals need their date range: add Dates.csv (or Chart.csv) of the same export, or --start and --end`,
      );
    const rows: Row[] = pages.records.map((record) => ({
      date: range.end,
      url: record.cells[0]?.trim() ?? '',
      ...metricsOf(pages.file.name, record),
    }));
    const leftOut = tabs.filter((t) => !['pages', 'dates', 'filters'].includes(t.kind)).map((t) => t.kind);
    return {
      tables: new Map([['search_console', await stageRows(ctx, 'search_console', rows)]]),
      coverage: { ...range, granularity: 'period' },
      notes: leftOut.length > 0 ? [`${leftOut.join(', ')} left out (no page URL)`] : [],
    };
  },
};
