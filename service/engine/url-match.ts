/**
 * URL-match copies, for 'URLs containing' on large row tables. Beside each row table of at least
 * URL_MATCH_COPY_MIN_ROWS rows, in the table's own order (so a copy's rowid is the row's), its lower-case URLs with the
 * crawl's origin (URL_MATCH_PREFIX_TABLE) replaced by one control character, stored uncompressed.
 *
 * At 10M URLs the scan of a compressed `_lc` spent most of its time decompressing strings of which the origin was
 * nearly half: 160 ms for 7.9M URLs, against 60 ms coded and uncompressed (bench/history.md). The coding is exact:
 * urlMatchCondition matches what `contains(lower(url), lower(text))` matches, the origin included.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { LOWER_URL_COLUMN } from './report-shape.ts';
import { joinSql, raw, sql, type SqlFragment } from './sql.ts';
import { largeRowTables, scalar, type StoredPrecompute } from './stored-precompute.ts';

/** Below this, a scan of the row table's `_lc` takes a few milliseconds and no copy is written. */
export const URL_MATCH_COPY_MIN_ROWS = 100_000;
/** The one-row table holding the origin the copies code (its `prefix`). */
export const URL_MATCH_PREFIX_TABLE = 'url_match_prefix';
/** A URL-match copy's one column. */
export const URL_MATCH_COLUMN = '_um';
export const urlMatchTableOf = (table: string): string => `${table}__url_match`;
/** A report's row tables with their URL-match copies. */
export const rowTablesOf = (r: { rowTable: string; removedTable: string }): string[] =>
  [r.rowTable, r.removedTable].flatMap((t) => [t, urlMatchTableOf(t)]);
/** Copies of `_lc` in key order with row ids, written before the URL-match copies; a refresh drops them. */
const legacyCopyOf = (table: string): string => `${table}_lc`;
/** Stands for the prefix: a URL holds no control character, so the coding can be undone and never matches text. */
const MARK = '\u0001';

/** The origin of a crawl's start URL, lower-cased: what most of its URLs begin with. */
export const urlMatchPrefixOf = (startUrl: string): string => new URL(startUrl).origin.toLowerCase();

/**
 * Whether `text` lower-cased occurs in a URL whose coded form is `column`: in the coded rest, in the prefix itself, or
 * across the prefix's end. Undefined for text other than printable ASCII, whose lower case JavaScript and DuckDB may
 * not agree on: the caller scans `_lc` instead.
 */
export function urlMatchCondition(column: SqlFragment, prefix: string, text: string): SqlFragment | undefined {
  if (!/^[\x20-\x7e]+$/.test(text)) return undefined;
  const needle = text.toLowerCase();
  const terms = [sql`contains(${column}, ${needle})`];
  if (prefix.includes(needle)) terms.push(sql`starts_with(${column}, ${MARK})`);
  else
    for (let k = Math.min(needle.length - 1, prefix.length); k >= 1; k--)
      if (prefix.endsWith(needle.slice(0, k))) terms.push(sql`starts_with(${column}, ${MARK + needle.slice(k)})`);
  return terms.length === 1 ? terms[0] : sql`(${joinSql(terms, ' OR ')})`;
}

/** The coded form of a lower-case URL column under `prefix`, as the copies store it. */
export const codedUrlSql = (prefix: string, lc = quoteIdent(LOWER_URL_COLUMN)): string =>
  `CASE WHEN starts_with(${lc}, ${quoteLiteral(prefix)}) THEN chr(1) || substr(${lc}, ${prefix.length + 1}) ELSE ${lc} END`;

/** The large row tables of a crawl's precomputed reports without their URL-match copy. */
export function lackingUrlMatchCopies(stored: StoredPrecompute, minRows = URL_MATCH_COPY_MIN_ROWS): string[] {
  return largeRowTables(stored, minRows)
    .map(({ table }) => table)
    .filter((table) => !stored.tables.has(urlMatchTableOf(table)) || !stored.tables.has(URL_MATCH_PREFIX_TABLE));
}

/**
 * Writes the URL-match copy each large row table lacks, coding `prefix`, and drops the copies of an older layout.
 * After the precompute's commit: inside its transaction, a new table's rowids are not yet its positions.
 */
export async function writeUrlMatchCopies(
  conn: DuckDBConnection,
  stored: StoredPrecompute,
  prefix: string,
  minRows = URL_MATCH_COPY_MIN_ROWS,
): Promise<void> {
  const storedPrefix = stored.tables.has(URL_MATCH_PREFIX_TABLE)
    ? textOf(await scalar(conn, raw(`SELECT prefix FROM ${URL_MATCH_PREFIX_TABLE}`)))
    : undefined;
  // Copies coding another prefix would match wrongly: they are all written again.
  const isNewPrefix = storedPrefix !== prefix;
  if (isNewPrefix)
    await conn.run(`CREATE OR REPLACE TABLE ${URL_MATCH_PREFIX_TABLE} AS SELECT ${quoteLiteral(prefix)} AS prefix`);
  for (const table of stored.tables)
    if (stored.tables.has(legacyCopyOf(table))) await conn.run(`DROP TABLE ${quoteIdent(legacyCopyOf(table))}`);
  for (const { table } of largeRowTables(stored, minRows)) {
    const copy = urlMatchTableOf(table);
    if (stored.tables.has(copy) && !isNewPrefix) continue;
    await conn.run(
      `CREATE OR REPLACE TABLE ${quoteIdent(copy)} (${quoteIdent(URL_MATCH_COLUMN)} VARCHAR USING COMPRESSION uncompressed)`,
    );
    await conn.run(
      `INSERT INTO ${quoteIdent(copy)} SELECT ${codedUrlSql(prefix)} FROM ${quoteIdent(table)} ORDER BY rowid`,
    );
  }
}
