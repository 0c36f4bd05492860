/**
 * The bulk export's Parquet file kept as it is, as a version's raw file (raw-rows.ts VendorFile): rewriting 30M rows
 * cost 93 s of DuckDB's bare copy, the import's whole budget many times over. It is kept when its columns have the
 * raw table's types and its statistics show every cell fits (none missing, no negative number, no empty URL);
 * otherwise the file is read and rewritten (search-console-bulk.ts), which names a bad cell.
 */
import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral, textOf } from '../../db/duckdb.ts';
import type { SourceFile } from '../importer.ts';

/** Those BIGINT holds whole (a UBIGINT or HUGEINT could overflow where a crawl reads it: rewritten instead). */
const INTEGER = /^(BIGINT|U?INTEGER|U?SMALLINT|U?TINYINT)$/;
const NUMBER = /^(U?BIGINT|U?INTEGER|U?SMALLINT|U?TINYINT|HUGEINT|DOUBLE|FLOAT|DECIMAL\(\d+,\d+\))$/;

/** The types the projection (raw-rows.ts vendorColumns) reads without a cast that could fail. */
const TYPES: Record<string, RegExp> = {
  data_date: /^DATE$/,
  url: /^VARCHAR$/,
  query: /^VARCHAR$/,
  clicks: INTEGER,
  impressions: INTEGER,
  sum_position: NUMBER,
};
const COUNTS = ['clicks', 'impressions', 'sum_position'];
const WHOLE = ['data_date', 'url', ...COUNTS];

export const hasVendorTypes = (types: ReadonlyMap<string, string>): boolean =>
  Object.entries(TYPES).every(
    ([column, type]) => (column === 'query' && !types.has(column)) || type.test(types.get(column) ?? ''),
  );

/** Every row group of `file` has statistics showing no cell missing, no negative number and no empty URL. */
async function hasFittingCells(conn: DuckDBConnection, file: string): Promise<boolean> {
  const reader = await conn.runAndReadAll(
    `SELECT path_in_schema AS col, count(*) AS groups, count(*) FILTER (WHERE stats_null_count = 0) AS whole,
       count(*) FILTER (WHERE TRY_CAST(stats_min_value AS DOUBLE) >= 0) AS non_negative,
       count(*) FILTER (WHERE left(stats_min_value, 1) > ' ') AS non_empty
     FROM parquet_metadata(${quoteLiteral(file)}) WHERE path_in_schema IN (${WHOLE.map(quoteLiteral).join(', ')})
     GROUP BY path_in_schema ORDER BY path_in_schema`,
  );
  const stats = new Map(reader.getRowObjectsJS().map((r) => [textOf(r.col), r]));
  return WHOLE.every((column) => {
    const s = stats.get(column);
    if (!s || Number(s.groups) === 0 || s.whole !== s.groups) return false;
    if (COUNTS.includes(column)) return s.non_negative === s.groups;
    return column !== 'url' || s.non_empty === s.groups;
  });
}

/**
 * Copies the vendor's Parquet file to `out` (by the kernel, or a reflink) and checks the copy: true when it can be
 * kept as it is, else false (the copy removed).
 */
export async function keepVendorFile(conn: DuckDBConnection, file: SourceFile, out: string): Promise<boolean> {
  await fs.promises.copyFile(file.path, out, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
  if (await hasFittingCells(conn, out)) return true;
  fs.rmSync(out, { force: true });
  return false;
}
