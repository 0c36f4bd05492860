/**
 * Staged vendor rows with their URLs as the crawler normalises them (paths resolved on the website's origin). A URL
 * already in the crawler's form is told by a pattern, in SQL, over the file's distinct URLs; only the others are
 * normalised one by one. Keyed tables are then summed per contract key (position weighted by impressions), as two
 * of the vendor's URLs may name one page; raw rows (raw-rows.ts) keep their rows, summed only where a crawl joins.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { exportTable } from '../../catalog/export-contract.ts';
import { normalizeUrl } from '../crawl/normalize-url.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import type { Staged, StagedTableId } from './importer.ts';
import { columnsOf, isRawTableId, summedColumnsOf } from '../source-data/raw-rows.ts';

export interface Normalised {
  tables: Map<StagedTableId, string>;
  /** Raw tables still as staged, whose file a version can take as it is. */
  files: ReadonlyMap<StagedTableId, string>;
  /** Those of `files` that are the vendor's own file. */
  vendorFiles: ReadonlyMap<StagedTableId, { hasQuery: boolean }>;
  rows: number;
  /** Rows whose URL is no http(s) URL even on the website's origin, with a few examples. */
  skippedRows: number;
  skippedExamples: string[];
  /** The distinct URLs of the import, normalised (a relation for matchCrawledUrls). */
  urls: string;
}

/** Keyword Planner and Trends rows belong to no page. */
export const hasUrlColumn = (tableId: StagedTableId): boolean => columnsOf(tableId).some((c) => c.name === 'url');

/**
 * What normalizeUrl leaves as it is: http(s), a lowercase host whose last label starts with a letter (an address
 * goes through the parser), no default port, a path and query of characters the parser keeps (no escapes, quotes,
 * spaces or fragment), and no dot segment.
 */
const CRAWLER_FORM = `^https?://([a-z0-9-]+\\.)*[a-z][a-z0-9-]*(:[1-9][0-9]*)?/[A-Za-z0-9._~!$&()*+,;=:@/?-]*$`;
const isCrawlerForm = (url: string): string =>
  `(regexp_full_match(${url}, ${quoteLiteral(CRAWLER_FORM)})
    AND NOT regexp_matches(${url}, '/\\.\\.?(/|\\?|$)|^http://[^/]*:80/|^https://[^/]*:443/'))`;

const rowsOf = async (conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> =>
  (await conn.runAndReadAll(sql)).getRowObjectsJS();
const countOf = async (conn: DuckDBConnection, sql: string): Promise<number> =>
  Number((await conn.runAndReadAll(sql)).getRowsJS()[0]?.[0] ?? 0);

/** url_map: each of the import's URLs not in the crawler's form, with its normalised form (NULL: not a page URL). */
async function mapUrls(conn: DuckDBConnection, urlTables: string[], origin: string, workDir: string): Promise<void> {
  const union = urlTables
    .map((name) => `SELECT url FROM ${quoteIdent(name)} WHERE url IS NOT NULL`)
    .join(' UNION ALL ');
  await conn.run(
    `CREATE TEMP TABLE staged_urls AS SELECT DISTINCT url FROM (${union || 'SELECT NULL::VARCHAR AS url WHERE FALSE'})`,
  );
  const odd = await rowsOf(conn, `SELECT url FROM staged_urls WHERE NOT ${isCrawlerForm('url')}`);
  const mapFile = path.join(workDir, 'url-map.ndjson');
  fs.writeFileSync(
    mapFile,
    odd.map((r) => JSON.stringify({ raw: textOf(r.url), url: normalizeUrl(textOf(r.url), origin) })).join('\n'),
  );
  await conn.run(
    odd.length === 0
      ? `CREATE TEMP TABLE url_map (raw VARCHAR, url VARCHAR)`
      : `CREATE TEMP TABLE url_map AS SELECT * FROM read_json(${quoteLiteral(mapFile)}, format = 'newline_delimited', columns = {'raw': 'VARCHAR', 'url': 'VARCHAR'})`,
  );
}

export async function normaliseStaged(
  conn: DuckDBConnection,
  staged: Staged,
  origin: string,
  workDir: string,
): Promise<Normalised> {
  const urlTables = [...staged.tables].filter(([tableId]) => hasUrlColumn(tableId)).map(([, name]) => name);
  await mapUrls(conn, urlTables, origin, workDir);
  const isIdentity = (await countOf(conn, `SELECT count(*) FROM url_map WHERE url IS DISTINCT FROM raw`)) === 0;
  const tables = new Map<StagedTableId, string>();
  const files = new Map<StagedTableId, string>();
  const vendorFiles = new Map<StagedTableId, { hasQuery: boolean }>();
  let rows = 0;
  let skippedRows = 0;
  const mapped = `CASE WHEN m.raw IS NULL THEN s.url ELSE m.url END`;
  for (const [tableId, name] of staged.tables) {
    const hasUrl = hasUrlColumn(tableId);
    const fresh = `new_${tableId}`;
    const isRaw = isRawTableId(tableId);
    if (isRaw && isIdentity) {
      tables.set(tableId, name);
      const file = staged.files?.get(tableId);
      if (file) files.set(tableId, file);
      const vendor = isRawTableId(tableId) && staged.vendorFiles?.get(tableId);
      if (file && vendor) vendorFiles.set(tableId, vendor);
      rows += await countOf(conn, `SELECT count(*) FROM ${quoteIdent(name)}`);
      continue;
    }
    // A row without a URL stays (NULL url); one whose URL does not resolve on the website is skipped and counted.
    const from = hasUrl
      ? `${quoteIdent(name)} s LEFT JOIN url_map m ON m.raw = s.url WHERE m.raw IS NULL OR m.url IS NOT NULL`
      : `${quoteIdent(name)} s`;
    const columns = columnsOf(tableId).map((c) =>
      c.name === 'url' ? `${mapped} AS "url"` : `s.${quoteIdent(c.name)}`,
    );
    if (isRaw) await conn.run(`CREATE TEMP TABLE ${fresh} AS SELECT ${columns.join(', ')} FROM ${from}`);
    else {
      const keys = exportTable(tableId).key.map((k) => (k === 'url' ? mapped : `s.${quoteIdent(k)}`));
      await conn.run(
        `CREATE TEMP TABLE ${fresh} AS SELECT ${summedColumnsOf(tableId, 's', { url: mapped }).join(', ')} FROM ${from} GROUP BY ${keys.join(', ')}`,
      );
    }
    tables.set(tableId, fresh);
    rows += await countOf(conn, `SELECT count(*) FROM ${fresh}`);
    if (hasUrl)
      skippedRows += await countOf(
        conn,
        `SELECT count(*) FROM ${quoteIdent(name)} s JOIN url_map m ON m.raw = s.url WHERE m.url IS NULL`,
      );
  }
  const skippedExamples = (await rowsOf(conn, `SELECT raw FROM url_map WHERE url IS NULL ORDER BY raw LIMIT 3`)).map(
    (r) => textOf(r.raw),
  );
  const urls = isIdentity
    ? 'staged_urls'
    : `(SELECT DISTINCT url FROM (SELECT ${mapped} AS url FROM staged_urls s LEFT JOIN url_map m ON m.raw = s.url) WHERE url IS NOT NULL)`;
  return { tables, files, vendorFiles, rows, skippedRows, skippedExamples, urls };
}
