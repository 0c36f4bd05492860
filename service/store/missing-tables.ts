import type { DuckDBConnection } from '@duckdb/node-api';
import { exportTables } from '../../catalog/export-contract.ts';
import { quoteLiteral, textOf } from '../db/duckdb.ts';

/**
 * The contract's tables a crawl database (attached as `database`, else the connection's own) lacks: a crawl loaded
 * before the contract gained them.
 */
export async function missingTables(conn: DuckDBConnection, database?: string): Promise<string[]> {
  const name = database === undefined ? 'current_database()' : quoteLiteral(database);
  const reader = await conn.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE database_name = ${name} AND schema_name = 'main'`,
  );
  const tables = new Set(reader.getRowsJS().map((row) => textOf(row[0])));
  return exportTables.filter((t) => !tables.has(t.id)).map((t) => t.id);
}
