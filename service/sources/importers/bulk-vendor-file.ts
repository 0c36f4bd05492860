/**
 * The bulk export's Parquet file kept as it is, as a version's raw file (raw-rows.ts VendorFile): rewriting 30M rows
 * cost 93 s of DuckDB's bare copy, the import's whole budget many times over. It is kept when its columns have the
 * raw table's types and its statistics show every cell fits (none missing, no negative number, no empty URL);
 * otherwise the file is read and rewritten (search-console-bulk.ts), which names a bad cell.
 */
import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceFile } from '../importer.ts';
import { hasFittingCells } from './bulk-cells.ts';

/** Those BIGINT holds whole (a UBIGINT or HUGEINT could overflow where a crawl reads it: rewritten instead). */
const INTEGER = /^(BIGINT|U?INTEGER|U?SMALLINT|U?TINYINT)$/;
const NUMBER = /^(U?BIGINT|U?INTEGER|U?SMALLINT|U?TINYINT|HUGEINT|DOUBLE|FLOAT|DECIMAL\(\d+,\d+\))$/;

/** The types the projection (raw-rows.ts vendorSelectOf) reads without a cast that could fail. */
const TYPES: Record<string, RegExp> = {
  data_date: /^DATE$/,
  url: /^VARCHAR$/,
  query: /^VARCHAR$/,
  clicks: INTEGER,
  impressions: INTEGER,
  sum_position: NUMBER,
};
const WHOLE = Object.keys(TYPES).filter((c) => c !== 'query');

export const hasVendorTypes = (types: ReadonlyMap<string, string>): boolean =>
  Object.entries(TYPES).every(
    ([column, type]) => (column === 'query' && !types.has(column)) || type.test(types.get(column) ?? ''),
  );

/**
 * Copies the vendor's Parquet file to `out` (by the kernel, or a reflink) and checks the copy: true when it can be
 * kept as it is, else false (the copy removed).
 */
export async function keepVendorFile(conn: DuckDBConnection, file: SourceFile, out: string): Promise<boolean> {
  await fs.promises.copyFile(file.path, out, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
  if (await hasFittingCells(conn, out, WHOLE, 'url')) return true;
  fs.rmSync(out, { force: true });
  return false;
}
