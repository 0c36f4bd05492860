/** How many of an import's URLs the website's newest crawl knows, with examples of those it does not. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import type { LiveCrawl } from '../store/layout.ts';

export interface UrlMatch {
  /** The newest crawl compared with. */
  crawlId: number;
  matched: number;
  unmatched: number;
  unmatchedExamples: string[];
}

const EXAMPLES = 3;

export async function matchCrawledUrls(
  conn: DuckDBConnection,
  crawl: LiveCrawl,
  tables: readonly string[],
): Promise<UrlMatch> {
  if (tables.length === 0) return { crawlId: crawl.crawlId, matched: 0, unmatched: 0, unmatchedExamples: [] };
  const urls = tables.map((t) => `SELECT url FROM ${quoteIdent(t)} WHERE url IS NOT NULL`).join(' UNION ');
  await conn.run(`ATTACH ${quoteLiteral(crawl.dbFile)} AS __thc_crawl (READ_ONLY)`);
  try {
    const crawled = `SELECT url FROM __thc_crawl.main.urls WHERE COALESCE(found_in_web_crawl, FALSE)`;
    await conn.run(
      `CREATE TEMP TABLE imported_urls AS SELECT url, url IN (${crawled}) AS is_matched FROM (SELECT DISTINCT url FROM (${urls}))`,
    );
    const [counts] = (
      await conn.runAndReadAll(
        `SELECT count(*) FILTER (WHERE is_matched) AS matched, count(*) FILTER (WHERE NOT is_matched) AS unmatched FROM imported_urls`,
      )
    ).getRowObjectsJS();
    const examples = (
      await conn.runAndReadAll(`SELECT url FROM imported_urls WHERE NOT is_matched ORDER BY url LIMIT ${EXAMPLES}`)
    ).getRowsJS();
    return {
      crawlId: crawl.crawlId,
      matched: Number(counts?.matched ?? 0),
      unmatched: Number(counts?.unmatched ?? 0),
      unmatchedExamples: examples.map((r) => textOf(r[0])),
    };
  } finally {
    await conn.run('DETACH __thc_crawl');
  }
}
