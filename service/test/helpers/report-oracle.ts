/**
 * An independent oracle for report counts (golden-counts.test.ts): each catalogue report's filter, expanded with
 * its constants, run straight over a crawl export's Parquet files. It shares nothing with the engine: the joined
 * metrics (catalogue guide §5.1) and the source-only URLs the loader adds to `urls` (guide §5.6) are written out
 * here again from the guide.
 */
import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { catalog } from '../../../catalog/index.ts';
import type { ReportDefinition } from '../../../catalog/schema.ts';
import { readCrawlDirs, tableFileOf, type CrawlDir } from '../../../scripts/fixtures/guide-reports.ts';
import { expandFilter } from '../../catalog/index.ts';
import { quoteLiteral } from '../../db/duckdb.ts';

export type OracleCrawl = CrawlDir;

export interface OracleCount {
  all: number;
  added: number;
  removed: number;
}

/** The crawls of `crawlDirs`; source tables the exports lack are read from the imports in `dataDir`'s store. */
export const readOracleCrawls = (crawlDirs: readonly string[], dataDir?: string): OracleCrawl[] =>
  readCrawlDirs(crawlDirs, dataDir);

const pq = (crawl: OracleCrawl, table: string): string => `read_parquet(${quoteLiteral(tableFileOf(crawl, table))})`;

/** Both ads platforms' landing page rows (date, url, costs); none where neither the export nor an import has them. */
function adsOf(crawl: OracleCrawl): string {
  const tables = ['ads_one', 'ads_two'].filter((t) => fs.existsSync(tableFileOf(crawl, t)));
  if (tables.length === 0)
    return 'SELECT NULL::DATE AS "date", NULL::VARCHAR AS url, NULL::DOUBLE AS costs WHERE FALSE';
  return tables.map((t) => `SELECT "date", url, costs FROM ${pq(crawl, t)}`).join(' UNION ALL ');
}

/**
 * `urls` as the guide defines it: the crawled URLs plus every search console / analytics URL the crawl lacks
 * (not found in the web crawl nor a sitemap, internal when on the start URL's host), with gsc_exists (any search
 * console row in the range), ga_exists (sessions in the range, or views or users where no row knows sessions) and ad_spend (both ads platforms' costs) joined.
 */
function urlsOf(crawl: OracleCrawl): string {
  const range = `"date" BETWEEN ${quoteLiteral(crawl.dataStart)}::DATE AND ${quoteLiteral(crawl.dataEnd)}::DATE`;
  const urls = pq(crawl, 'urls');
  const sourceOnly = `SELECT url FROM ${pq(crawl, 'search_console')} WHERE ${range}
    UNION SELECT url FROM ${pq(crawl, 'analytics')} WHERE ${range}`;
  const hostOf = `lower(split_part(split_part(split_part(url, '://', 2), '/', 1), ':', 1))`;
  return `(SELECT u.*, g.url IS NOT NULL AS gsc_exists, COALESCE(a.sessions, a.page_views, a.users, 0) > 0 AS ga_exists, d.ad_spend
    FROM (SELECT * FROM ${urls}
          UNION ALL BY NAME
          SELECT url, ${hostOf} = ${quoteLiteral(crawl.host)} AS internal, FALSE AS found_in_web_crawl,
                 FALSE AS found_in_sitemap
          FROM (${sourceOnly} EXCEPT SELECT url FROM ${urls})) u
    LEFT JOIN (SELECT DISTINCT url FROM ${pq(crawl, 'search_console')} WHERE ${range}) g ON g.url = u.url
    LEFT JOIN (SELECT url, sum(sessions) AS sessions, sum(page_views) AS page_views, sum(users) AS users
               FROM ${pq(crawl, 'analytics')} WHERE ${range} GROUP BY url) a
      ON a.url = u.url
    LEFT JOIN (SELECT url, sum(costs) AS ad_spend FROM (${adsOf(crawl)}) WHERE ${range} GROUP BY url) d
      ON d.url = u.url)`;
}

function rowsOf(report: ReportDefinition, crawl: OracleCrawl): string {
  const source = report.tableId === 'urls' ? urlsOf(crawl) : pq(crawl, report.tableId);
  const filter = expandFilter(report.filter, catalog.constants.filterConstants);
  const scope =
    report.internalType === 'internal'
      ? 'COALESCE(internal, FALSE)'
      : report.internalType === 'external'
        ? 'NOT COALESCE(internal, TRUE)'
        : 'TRUE';
  const pages =
    report.contentType === 'html'
      ? '(html_size IS NOT NULL OR page_title IS NOT NULL OR word_count IS NOT NULL OR http_status_code IS NULL OR http_status_code NOT BETWEEN 200 AND 299)'
      : 'TRUE';
  const key = report.keyColumns.map((k) => `COALESCE(${k}::VARCHAR, chr(0))`).join(` || chr(1) || `);
  return `SELECT ${key} AS k FROM ${source} WHERE ${scope} AND ${pages} AND (${filter})`;
}

/** One report over a website's crawls (oldest first): rows, and rows whose key the previous crawl lacks / keeps. */
export async function oracleCounts(
  conn: DuckDBConnection,
  report: ReportDefinition,
  crawls: readonly OracleCrawl[],
): Promise<OracleCount[]> {
  const sets = crawls.map((crawl, i) => `SELECT ${i} AS c, k FROM (${rowsOf(report, crawl)})`);
  const reader = await conn.runAndReadAll(`
    WITH s AS MATERIALIZED (${sets.join('\nUNION ALL\n')})
    SELECT i.i,
      (SELECT count(*) FROM s WHERE c = i.i),
      (SELECT count(*) FROM s a WHERE a.c = i.i AND i.i > 0
         AND NOT EXISTS (SELECT 1 FROM s b WHERE b.c = i.i - 1 AND b.k = a.k)),
      (SELECT count(*) FROM s a WHERE a.c = i.i - 1
         AND NOT EXISTS (SELECT 1 FROM s b WHERE b.c = i.i AND b.k = a.k))
    FROM range(${crawls.length}) i(i) ORDER BY i.i`);
  return reader.getRowsJS().map((r) => ({ all: Number(r[1]), added: Number(r[2]), removed: Number(r[3]) }));
}
