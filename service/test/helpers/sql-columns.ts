/**
 * Test helper: the column names a set of SQL statements reads, as DuckDB's own parser sees them
 * (json_serialize_sql), so that a key counts as read only where a statement refers to it as a column, not where
 * the same letters name a table, an alias or a string. Only a SELECT serialises: CREATE TABLE … AS and INSERT INTO
 * are read as their query, an UPDATE as a SELECT of what it sets, and other statements (ALTER) read nothing.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../../db/duckdb.ts';

export async function columnsReadBy(conn: DuckDBConnection, statements: string[]): Promise<Set<string>> {
  const refs: string[][] = [];
  const relations = new Set<string>();
  for (const statement of statements) {
    const query = asQuery(statement);
    if (query === null) continue;
    const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(query)})`);
    const tree = JSON.parse(String(reader.getRows()[0]?.[0])) as { error: boolean; error_message?: string };
    if (tree.error) throw new Error(`DuckDB could not parse ${query.slice(0, 80)}: ${tree.error_message}`);
    walk(tree, refs, relations);
  }
  // `a.b` is column b of relation a, or field b of column a: the names of the relations tell which.
  return new Set(refs.map((names) => (names.length > 1 && relations.has(names[0] ?? '') ? names[1] : names[0]) ?? ''));
}

function asQuery(statement: string): string | null {
  const sql = statement.trim();
  const update = /^UPDATE\s+(\w+)\s+SET\s+\w+\s*=\s*([\s\S]*)$/i.exec(sql);
  if (update) return `SELECT ${update[2]} FROM ${update[1]}`;
  const created = /^(?:CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+\w+\s+AS|INSERT\s+INTO\s+\w+)\s+([\s\S]*)$/i.exec(sql);
  if (created) return created[1] ?? null;
  return /^(SELECT|WITH)\b/i.test(sql) ? sql : null;
}

/** Table references (their alias or table name), besides the names of common table expressions (`key`). */
const TABLE_REFS = new Set(['BASE_TABLE', 'SUBQUERY', 'TABLE_FUNCTION', 'JOIN', 'PIVOT']);

function walk(node: unknown, refs: string[][], relations: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, refs, relations);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) {
    refs.push(record.column_names as string[]);
  }
  const names = TABLE_REFS.has(String(record.type)) ? [record.alias, record.table_name] : [record.key];
  for (const name of names) if (typeof name === 'string' && name !== '') relations.add(name);
  for (const value of Object.values(record)) walk(value, refs, relations);
}
