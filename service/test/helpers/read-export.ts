/** Test helper: rows of one table of a crawl export, read from its Parquet file by DuckDB (`$table` in the SQL). */
import path from 'node:path';
import { parquetFileOf } from '../../../catalog/export-contract.ts';
import { openDatabase, quoteLiteral } from '../../db/duckdb.ts';

export async function readExportRows(dir: string, table: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    const source = `read_parquet(${quoteLiteral(path.join(dir, parquetFileOf(table)))})`;
    return (await conn.runAndReadAll(sql.replace('$table', source))).getRowObjectsJson();
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
