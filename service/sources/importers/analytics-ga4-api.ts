/**
 * The Google Analytics Data API's runReport response, saved as JSON: `dimensionHeaders` and `metricHeaders` name the
 * columns by their API names, each row holds `dimensionValues` and `metricValues` as strings, and `metadata`
 * carries the property's currency. Dimensions kept: a page (pagePath, pagePathPlusQueryString, landingPage,
 * landingPagePlusQueryString, pageLocation, fullPageUrl, unifiedPagePathScreen), date (20261102) and a channel group
 * (sessionDefaultChannelGroup, …); metrics: sessions, totalUsers (or activeUsers), newUsers, screenPageViews,
 * keyEvents (or conversions), totalRevenue (or purchaseRevenue), transactions (or ecommercePurchases).
 *
 * As in the report CSV, paths are joined on the website's host, "(not set)" and "(other)" pages are left out, a
 * metric the request lacks is NULL, and without a channel every row is channel "(all)". The response carries no
 * dates of its own: without the date dimension its rows are totals over --start/--end, placed on its last day.
 * Several date ranges in one request (the dateRange dimension) are refused.
 */
import { dateText } from '../cells.ts';
import { ImportError } from '../import-error.ts';
import { headLines, readText, stageRows, type Importer, type Row, type SourceFile } from '../importer.ts';
import { ALL_CHANNELS, isPage } from './analytics-ga4-report.ts';

const PAGES = [
  'pagePath',
  'pagePathPlusQueryString',
  'unifiedPagePathScreen',
  'landingPage',
  'landingPagePlusQueryString',
  'pageLocation',
  'fullPageUrl',
];
const CHANNELS = [
  'sessionDefaultChannelGroup',
  'sessionDefaultChannelGrouping',
  'sessionPrimaryChannelGroup',
  'defaultChannelGroup',
  'firstUserDefaultChannelGroup',
];
const METRICS: Record<string, string> = {
  sessions: 'sessions',
  totalUsers: 'users',
  activeUsers: 'users',
  newUsers: 'new_users',
  screenPageViews: 'page_views',
  keyEvents: 'conversions',
  conversions: 'conversions',
  totalRevenue: 'revenue',
  purchaseRevenue: 'revenue',
  transactions: 'transactions',
  ecommercePurchases: 'transactions',
};

interface Report {
  dimensionHeaders?: { name?: string }[];
  metricHeaders?: { name?: string }[];
  rows?: { dimensionValues?: { value?: string }[]; metricValues?: { value?: string }[] }[];
  metadata?: { currencyCode?: string };
}

function reportOf(file: SourceFile): Report {
  try {
    return JSON.parse(readText(file)) as Report;
  } catch (error) {
    throw new ImportError(`${file.name}: not readable JSON (${(error as Error).message})`);
  }
}

function layoutOf(file: string, report: Report) {
  const dimensions = (report.dimensionHeaders ?? []).map((h) => h.name ?? '');
  const metrics = (report.metricHeaders ?? []).map((h) => h.name ?? '');
  if (dimensions.includes('dateRange'))
    throw new ImportError(`${file}: several date ranges in one report; request one range`);
  const page = dimensions.findIndex((d) => PAGES.includes(d));
  if (page < 0) throw new ImportError(`${file}: no page dimension (such as pagePath or landingPage)`);
  const kept = metrics.flatMap((m, i): [number, string][] => (METRICS[m] ? [[i, METRICS[m]]] : []));
  if (kept.length === 0) throw new ImportError(`${file}: no metric the analytics source keeps (such as sessions)`);
  return {
    page,
    date: dimensions.indexOf('date'),
    channel: dimensions.findIndex((d) => CHANNELS.includes(d)),
    metrics: kept,
    names: metrics,
  };
}

export const analyticsGa4Api: Importer = {
  source: 'analytics',
  format: 'Google Analytics Data API runReport response (JSON)',
  detect(file) {
    const text = headLines(file).join('\n');
    return text.trimStart().startsWith('{') && text.includes('"dimensionHeaders"');
  },
  async stage(files, ctx) {
    const rows: Row[] = [];
    const days: string[] = [];
    const currencies = new Set<string>();
    let skipped = 0;
    let isDaily = true;
    for (const file of files) {
      const report = reportOf(file);
      const layout = layoutOf(file.name, report);
      if (layout.date < 0 && !ctx.range)
        throw new ImportError(`${file.name}: no date dimension: give the report's dates with --start and --end`);
      if (layout.date < 0) {
        isDaily = false;
        days.push(ctx.range!.start, ctx.range!.end);
      }
      if (report.metadata?.currencyCode) currencies.add(report.metadata.currencyCode);
      for (const [i, apiRow] of (report.rows ?? []).entries()) {
        const dimension = (d: number): string => apiRow.dimensionValues?.[d]?.value?.trim() ?? '';
        const date = layout.date < 0 ? ctx.range!.end : dateText(dimension(layout.date));
        if (!date) throw new ImportError(`${file.name}: rows[${i}] date "${dimension(layout.date)}" is not a day`);
        if (!isPage(dimension(layout.page))) {
          skipped++;
          continue;
        }
        const row: Row = {
          date,
          url: dimension(layout.page),
          channel: layout.channel < 0 ? ALL_CHANNELS : dimension(layout.channel) || '(not set)',
        };
        for (const [m, contract] of layout.metrics) {
          const text = apiRow.metricValues?.[m]?.value ?? '';
          const value = Number(text);
          if (text.trim() === '' || !Number.isFinite(value))
            throw new ImportError(`${file.name}: rows[${i}] ${layout.names[m]} "${text}" is not a number`);
          row[contract] = contract === 'revenue' ? value : Math.round(value);
        }
        rows.push(row);
        days.push(date);
      }
    }
    if (rows.length === 0) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no page rows`);
    days.sort();
    const notes = skipped > 0 ? [`${skipped} rows without a page ("(not set)", "(other)") left out`] : [];
    const currency = [...currencies].join(', ');
    if (currency && currency !== 'GBP') notes.push(`revenue is in ${currency} as reported (not converted to pounds)`);
    return {
      tables: new Map([['analytics', await stageRows(ctx, 'analytics', rows)]]),
      coverage: { start: days[0]!, end: days.at(-1)!, granularity: isDaily ? 'day' : 'period' },
      notes,
    };
  },
};
