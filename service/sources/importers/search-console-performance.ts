/**
 * Search Console's Performance report export: the CSVs of its ZIP, one per tab, each `<dimension>,Clicks,
 * Impressions,CTR,Position` with CTR as "12.34%" and position empty on days without impressions (`Queries.csv` "Top
 * queries", `Pages.csv` "Top pages", `Dates.csv` or `Chart.csv` "Date", `Countries.csv`, `Devices.csv`,
 * `Search appearance.csv`), and `Filters.csv` (`Filter,Value`; its Date is usually relative, "Last 3 months").
 *
 * Pages carries URLs (search_console) and Queries the whole property's totals per query (search_console_site, where
 * a search counts once however many pages it showed, as Search Console's Queries tab counts it): their totals are one
 * period's, placed on the period's last day and marked as a period, so nothing claims daily precision. The period
 * comes from --start/--end, else an explicit date in Filters.csv, else the first and last day of Dates.csv.
 * Countries, devices and appearances have neither page nor query: they are checked and left out.
 *
 * Downloaded in German or French, the headers, numbers and dates are that language's ("Häufigste Seiten,Klicks,
 * Impressionen,CTR,Position" with "1.234", "12,34 %", "3,5"; "Pages les plus populaires,Clics,…" with "1 234"): read
 * as such, and a cell written otherwise is refused (locale.ts).
 */
import { dateCell, dateText, decimalCell, integerCell, percentCell, textCell } from '../cells.ts';
import { isBlank, parseCsv, type CsvRecord } from '../csv-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import { notations, type Language, type Notation } from '../locale.ts';
import {
  firstDataLine,
  readText,
  stageRows,
  type Importer,
  type Row,
  type SourceFile,
  type StagedTableId,
} from '../importer.ts';

/** The metric columns and the tabs' first column as each language's Search Console writes them. */
const METRICS: Record<Language, string[]> = {
  en: ['clicks', 'impressions', 'ctr', 'position'],
  de: ['klicks', 'impressionen', 'ctr', 'position'],
  fr: ['clics', 'impressions', 'ctr', 'position'],
};
const TABS: Record<Language, Record<string, string>> = {
  en: {
    'top pages': 'pages',
    page: 'pages',
    'top queries': 'queries',
    query: 'queries',
    date: 'dates',
    country: 'countries',
    device: 'devices',
    'search appearance': 'search appearance',
  },
  de: {
    'häufigste seiten': 'pages',
    'die häufigsten seiten': 'pages',
    seiten: 'pages',
    seite: 'pages',
    'häufigste suchanfragen': 'queries',
    'die häufigsten suchanfragen': 'queries',
    suchanfragen: 'queries',
    suchanfrage: 'queries',
    datum: 'dates',
    länder: 'countries',
    land: 'countries',
    geräte: 'devices',
    gerät: 'devices',
    'darstellung in der suche': 'search appearance',
  },
  fr: {
    'pages les plus populaires': 'pages',
    page: 'pages',
    'requêtes les plus fréquentes': 'queries',
    requête: 'queries',
    date: 'dates',
    pays: 'countries',
    appareil: 'devices',
    'apparence dans les résultats de recherche': 'search appearance',
  },
};
const FILTERS: Record<Language, [string, string]> = {
  en: ['filter', 'value'],
  de: ['filter', 'wert'],
  fr: ['filtre', 'valeur'],
};

const headerOf = (line: string): string[] =>
  line.split(',').map((c) => c.trim().replace(/^"|"$/g, '').normalize('NFC').toLowerCase());

/** The tab a header line begins, and the language it is written in. */
function tabOf(line: string): { kind: string; notation: Notation } | undefined {
  const [first, ...rest] = headerOf(line);
  if (first === undefined) return undefined;
  for (const language of ['en', 'de', 'fr'] as const) {
    const [filter, value] = FILTERS[language];
    if (first === filter && rest.length === 1 && rest[0] === value)
      return { kind: 'filters', notation: notations[language] };
    const kind = TABS[language][first];
    if (kind && rest.join() === METRICS[language].join()) return { kind, notation: notations[language] };
  }
  return undefined;
}

interface Tab {
  file: SourceFile;
  kind: string;
  notation: Notation;
  /** The header's cells as the file writes them, for messages. */
  header: string[];
  records: CsvRecord[];
}

function readTab(file: SourceFile): Tab {
  const records = parseCsv(file.name, readText(file)).filter((r) => !isBlank(r));
  const [header, ...rows] = records;
  const tab = header && tabOf(header.cells.map((c) => c.replaceAll(',', ' ')).join(','));
  if (!tab) throw new ImportError(`${file.name}: not a Search Console Performance report CSV`);
  const width = header.cells.length;
  for (const record of rows)
    if (record.cells.length !== width)
      throw cellError(file.name, record.line, 1, `${record.cells.length} cells, the header has ${width}`);
  return { file, ...tab, header: header.cells, records: rows };
}

/** Clicks, impressions, CTR and position of a tab's row, checked. */
function metricsOf(tab: Tab, record: CsvRecord): { clicks: number; impressions: number; position: number | null } {
  const at = { file: tab.file.name, record };
  const name = (column: number): string => tab.header[column]!.trim();
  percentCell(at, 3, name(3), tab.notation);
  return {
    clicks: integerCell(at, 1, name(1), tab.notation),
    impressions: integerCell(at, 2, name(2), tab.notation),
    position: decimalCell(at, 4, name(4), tab.notation),
  };
}

function explicitFilterRange(tab: Tab | undefined): { start: string; end: string } | undefined {
  const date = tab?.records.find((r) => ['date', 'datum'].includes(textCell({ file: '', record: r }, 0).toLowerCase()));
  const dates = date?.cells[1]?.match(/\d{4}-\d{2}-\d{2}/g);
  const start = dates?.[0] && dateText(dates[0]);
  const end = dates?.[1] && dateText(dates[1]);
  return start && end ? { start, end } : undefined;
}

function datesRange(tab: Tab | undefined): { start: string; end: string } | undefined {
  const days = tab?.records
    .map((record) => dateCell({ file: tab.file.name, record }, 0, tab.header[0]!.trim(), tab.notation))
    .sort();
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
    const queries = tab('queries');
    for (const t of tabs) if (t.kind !== 'filters') for (const r of t.records) metricsOf(t, r);
    const range = ctx.range ?? explicitFilterRange(tab('filters')) ?? datesRange(tab('dates'));
    const named = files.map((f) => f.name).join(', ');
    if (!pages && !queries)
      throw new ImportError(
        `${named}: no Pages.csv ("Top pages") or Queries.csv ("Top queries"): the Performance report's other tabs have neither a page URL nor a query to join on`,
      );
    if (!range)
      throw new ImportError(
        `${(pages ?? queries)!.file.name}: the Performance report's totals need their date range: add Dates.csv (or Chart.csv) of the same export, or --start and --end`,
      );
    const rowsOf = (t: Tab, column: 'url' | 'query'): Row[] =>
      t.records.map((record) => ({
        date: range.end,
        [column]: record.cells[0]?.trim() ?? '',
        ...metricsOf(t, record),
      }));
    const tables = new Map<StagedTableId, string>();
    if (pages) tables.set('search_console', await stageRows(ctx, 'search_console', rowsOf(pages, 'url')));
    if (queries)
      tables.set('search_console_site', await stageRows(ctx, 'search_console_site', rowsOf(queries, 'query')));
    const leftOut = tabs.filter((t) => !['pages', 'queries', 'dates', 'filters'].includes(t.kind)).map((t) => t.kind);
    return {
      tables,
      coverage: { ...range, granularity: 'period' },
      notes: leftOut.length > 0 ? [`${leftOut.join(', ')} left out (no page URL)`] : [],
    };
  },
};
