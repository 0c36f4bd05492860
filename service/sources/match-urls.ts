/** How many of an import's URLs the website's newest crawl knows, with examples of those it does not. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral, textOf } from '../db/duckdb.ts';
import type { LiveCrawl } from '../store/layout.ts';

export interface UrlMatch {
  /** The newest crawl compared with. */
  crawlId: number;
  matched: number;
  unmatched: number;
  unmatchedExamples: string[];
}

const EXAMPLES = 3;

/** `urls`: a relation of the import's distinct URLs, normalised (normalise-staged.ts). */
export async function matchCrawledUrls(conn: DuckDBConnection, crawl: LiveCrawl, urls: string): Promise<UrlMatch> {
  await conn.run(`ATTACH ${quoteLiteral(crawl.dbFile)} AS __thc_crawl (READ_ONLY)`);
  try {
    const crawled = `SELECT url FROM __thc_crawl.main.urls WHERE COALESCE(found_in_web_crawl, FALSE)`;
    await conn.run(`CREATE TEMP TABLE imported_urls AS SELECT url, url IN (${crawled}) AS is_matched FROM ${urls}`);
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
