/**
 * The query report: for one search query and a date range, what every data source of a crawl knows about it.
 * Every value is bound; sums are cast to DOUBLE so BIGINT never reaches JSON. Ads platform two has no query
 * column, so its totals cover the query's landing URLs (search console and ads platform one) over the range.
 * Queries match case-insensitively.
 *
 * Search console's figures over time are the whole property's (search_console_site) when the range holds any of its
 * rows: Search Console counts a search once for the property however many of its pages it showed, so the pages'
 * sum over-counts impressions, and a professional compares the query's totals with the Queries tab. Without them,
 * the pages' sums; the response says which, never a mix.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { AdsOneTotals, DateRange, MonthlyRecord, QueryReport, SearchConsoleFigures } from '../../catalog/api.ts';
import { quoteIdent, withConnection } from '../db/duckdb.ts';
import type { CrawlRecord } from '../store/registry.ts';
import { periodDaysOf, type JoinedVersion } from './period-days.ts';

export const MAX_REPORT_ROWS = 100;

type Row = Record<string, unknown>;

const num = (value: unknown): number => (typeof value === 'bigint' ? Number(value) : Number(value ?? 0));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : num(value));
const strOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

async function rowsOf(conn: DuckDBConnection, sql: string, params: (string | number)[]): Promise<Row[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjects();
}

const SC_MEASURES = `SUM(clicks)::DOUBLE AS clicks, SUM(impressions)::DOUBLE AS impressions,
  COALESCE(SUM(clicks)::DOUBLE / NULLIF(SUM(impressions), 0), 0) AS ctr,
  SUM(position * impressions) / NULLIF(SUM(impressions), 0) AS position`;
const IN_RANGE = 'lower(query) = lower($1) AND date BETWEEN $2::DATE AND $3::DATE';

const adsOneMeasures = (row: Row): AdsOneTotals => ({
  clicks: num(row.clicks),
  conversions: num(row.conversions),
  all_conversions: num(row.all_conversions),
  costs: num(row.costs),
  ctr: num(row.ctr),
  impressions: num(row.impressions),
  revenue: num(row.revenue),
  all_revenue: num(row.all_revenue),
});

/**
 * The property's figures when the range holds any of its rows, else the pages' sums (also for a crawl loaded before
 * the contract had the property's table, served without it until refreshed).
 */
async function figuresOf(
  conn: DuckDBConnection,
  crawl: QueryReportCrawl,
  siteTable: string,
  range: DateRange,
): Promise<SearchConsoleFigures> {
  if (crawl.missingTables.includes('search_console_site')) return 'pages';
  const [site] = await rowsOf(
    conn,
    `SELECT count(*) > 0 AS has_rows FROM ${siteTable} WHERE date BETWEEN $1::DATE AND $2::DATE`,
    [range.start, range.end],
  );
  return site?.has_rows === true ? 'property' : 'pages';
}

/** The crawl a query report reads: its catalog alias and the source tables its database lacks (the registry's). */
export type QueryReportCrawl = Pick<CrawlRecord, 'alias' | 'missingTables'>;

export async function queryReport(
  db: DuckDBInstance,
  crawl: QueryReportCrawl,
  query: string,
  range: DateRange,
  joined?: JoinedVersion,
): Promise<Omit<QueryReport, 'notConnected'>> {
  const t = (table: string): string => `${quoteIdent(crawl.alias)}.${quoteIdent(table)}`;
  const params = [query, range.start, range.end];
  return withConnection(db, async (conn) => {
    const figures = await figuresOf(conn, crawl, t('search_console_site'), range);
    const overTimeTable = figures === 'property' ? 'search_console_site' : 'search_console_queries';
    const overTime = await rowsOf(
      conn,
      `SELECT strftime(date, '%Y-%m-%d') AS date, ${SC_MEASURES}
       FROM ${t(overTimeTable)} WHERE ${IN_RANGE} GROUP BY date ORDER BY date`,
      params,
    );
    const periodDays = await periodDaysOf(conn, joined, query, range, overTimeTable);
    const byUrl = await rowsOf(
      conn,
      `SELECT url, ${SC_MEASURES}
       FROM ${t('search_console_queries')} WHERE ${IN_RANGE}
       GROUP BY url ORDER BY clicks DESC, impressions DESC, url LIMIT ${MAX_REPORT_ROWS}`,
      params,
    );
    const adsOneSums = `SUM(clicks)::DOUBLE AS clicks, SUM(conversions) AS conversions,
      SUM(all_conversions) AS all_conversions, SUM(costs) AS costs, SUM(impressions)::DOUBLE AS impressions,
      COALESCE(SUM(clicks)::DOUBLE / NULLIF(SUM(impressions), 0), 0) AS ctr,
      SUM(revenue) AS revenue, SUM(all_revenue) AS all_revenue, COUNT(*)::DOUBLE AS n`;
    const [adsOneTotal] = await rowsOf(conn, `SELECT ${adsOneSums} FROM ${t('ads_one')} WHERE ${IN_RANGE}`, params);
    const searchTerms = await rowsOf(
      conn,
      `SELECT search_term, ${adsOneSums} FROM ${t('ads_one')} WHERE ${IN_RANGE} AND search_term IS NOT NULL
       GROUP BY search_term ORDER BY clicks DESC, impressions DESC, search_term LIMIT ${MAX_REPORT_ROWS}`,
      params,
    );
    const [adsTwoTotal] = await rowsOf(
      conn,
      `WITH landing AS (
         SELECT url FROM ${t('search_console_queries')} WHERE ${IN_RANGE}
         UNION SELECT url FROM ${t('ads_one')} WHERE ${IN_RANGE})
       SELECT SUM(clicks)::DOUBLE AS clicks, SUM(conversions) AS conversions, SUM(costs) AS costs,
         SUM(impressions)::DOUBLE AS impressions, SUM(revenue) AS revenue, COUNT(*)::DOUBLE AS n
       FROM ${t('ads_two')} WHERE url IN (SELECT url FROM landing) AND date BETWEEN $2::DATE AND $3::DATE`,
      params,
    );
    const trends = await rowsOf(
      conn,
      `SELECT strftime(date, '%Y-%m-%d') AS date, AVG(value) AS value
       FROM ${t('trends')} WHERE ${IN_RANGE} GROUP BY date ORDER BY date`,
      params,
    );
    const [planner] = await rowsOf(
      conn,
      `SELECT average_search_volume::DOUBLE AS average_search_volume,
         total_search_volume::DOUBLE AS total_search_volume, to_json(monthly_records)::VARCHAR AS monthly_records,
         competition, competition_index::DOUBLE AS competition_index, average_cpc, network,
         to_json(countries)::VARCHAR AS countries, language
       FROM ${t('keyword_planner')} WHERE lower(query) = lower($1)
       ORDER BY request_date DESC, customer_id LIMIT 1`,
      [query],
    );
    return {
      query,
      dataDateRange: range,
      searchConsole: {
        figures,
        overTime: overTime.map((r) => ({
          date: String(r.date),
          clicks: num(r.clicks),
          impressions: num(r.impressions),
          ctr: num(r.ctr),
          position: numOrNull(r.position),
          period: periodDays.get(String(r.date)) ?? null,
        })),
        byUrl: byUrl.map((r) => ({
          url: String(r.url),
          clicks: num(r.clicks),
          impressions: num(r.impressions),
          ctr: num(r.ctr),
          position: numOrNull(r.position),
        })),
      },
      adsOne: {
        totals: adsOneTotal && num(adsOneTotal.n) > 0 ? adsOneMeasures(adsOneTotal) : null,
        searchTerms: searchTerms.map((r) => ({ search_term: String(r.search_term), ...adsOneMeasures(r) })),
      },
      adsTwo: {
        totals:
          adsTwoTotal && num(adsTwoTotal.n) > 0
            ? {
                clicks: num(adsTwoTotal.clicks),
                conversions: num(adsTwoTotal.conversions),
                costs: num(adsTwoTotal.costs),
                impressions: num(adsTwoTotal.impressions),
                revenue: num(adsTwoTotal.revenue),
              }
            : null,
      },
      trends: trends.map((r) => ({ date: String(r.date), value: num(r.value) })),
      keywordPlanner: planner
        ? {
            average_search_volume: numOrNull(planner.average_search_volume),
            total_search_volume: numOrNull(planner.total_search_volume),
            monthly_records: parseJsonArray<MonthlyRecord>(planner.monthly_records),
            competition: strOrNull(planner.competition),
            competition_index: numOrNull(planner.competition_index),
            average_cpc: numOrNull(planner.average_cpc),
            network: strOrNull(planner.network),
            countries: parseJsonArray<string>(planner.countries),
            language: strOrNull(planner.language),
          }
        : null,
    };
  });
}

function parseJsonArray<T>(json: unknown): T[] {
  if (typeof json !== 'string') return [];
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}
