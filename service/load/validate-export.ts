/**
 * Checks a crawl export against the contract without writing anything: the manifest, then per table the
 * file, its Parquet footer (column names and types) and one aggregate pass over the key columns. The result
 * is the plan the loader turns into CREATE TABLE statements.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import {
  MANIFEST_FILE,
  exportTables,
  manifestSchema,
  parquetFileOf,
  type ExportTable,
  type Manifest,
} from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { hasTimeZone, matchType, resolveTypes } from './column-types.ts';
import { firstLine } from '../error-text.ts';
import { LoadError } from './load-error.ts';

export interface ColumnPlan {
  name: string;
  /** The contract type; for an extra column, the file's own type. */
  type: string;
  /** exact / widening: read from the file (widening with a CAST); absent: NULL; extra: kept as the file has it. */
  source: 'exact' | 'widening' | 'absent' | 'extra';
}

export interface TablePlan {
  table: ExportTable;
  file: string;
  /** False for an optional table whose file is absent: it is created empty. */
  isPresent: boolean;
  rowCount: number;
  /** Contract columns in contract order, then extra columns in file order. */
  columns: ColumnPlan[];
  /** A widening reads TIMESTAMP WITH TIME ZONE, which converts in the session time zone. */
  needsUtc: boolean;
}

export interface ExportPlan {
  exportDir: string;
  manifest: Manifest;
  tables: TablePlan[];
}

export function readManifest(exportDir: string): Manifest {
  if (!fs.statSync(exportDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new LoadError(`${exportDir}: export directory not found`);
  }
  const file = path.join(exportDir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const isMissing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new LoadError(`${file}: ${isMissing ? 'not found' : `unreadable (${firstLine(error)})`}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LoadError(`${file}: not valid JSON (${firstLine(error)})`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const [issue, ...more] = parsed.error.issues;
    const where = issue && issue.path.length > 0 ? `field "${issue.path.map(String).join('.')}"` : 'manifest';
    const rest = more.length > 0 ? ` (and ${more.length} more)` : '';
    throw new LoadError(`${file}: ${where}: ${issue?.message ?? 'invalid'}${rest}`);
  }
  return parsed.data;
}

export interface ValidateHooks {
  /** Called before each table is checked. */
  onTable?: (table: ExportTable) => void;
}

export async function validateExport(
  conn: DuckDBConnection,
  exportDir: string,
  manifest: Manifest,
  hooks: ValidateHooks = {},
): Promise<ExportPlan> {
  const contractTypes = await resolveTypes(
    conn,
    exportTables.flatMap((t) => t.columns.map((c) => c.type)),
  );
  const tables: TablePlan[] = [];
  for (const table of exportTables) {
    hooks.onTable?.(table);
    tables.push(await validateTable(conn, path.join(exportDir, parquetFileOf(table.id)), table, contractTypes));
  }
  return { exportDir, manifest, tables };
}

async function validateTable(
  conn: DuckDBConnection,
  file: string,
  table: ExportTable,
  contractTypes: ReadonlyMap<string, DuckDBType>,
): Promise<TablePlan> {
  if (!fs.existsSync(file)) {
    if (table.required) throw new LoadError(`${file}: required table file is missing`);
    const columns = table.columns.map((c): ColumnPlan => ({ name: c.name, type: c.type, source: 'absent' }));
    return { table, file, isPresent: false, rowCount: 0, columns, needsUtc: false };
  }

  let fileColumns: { name: string; type: DuckDBType }[];
  try {
    const result = await conn.run(`SELECT * FROM read_parquet(${quoteLiteral(file)}) LIMIT 0`);
    const types = result.columnTypes();
    fileColumns = result.columnNames().flatMap((name, i) => {
      const type = types[i];
      return type ? [{ name, type }] : [];
    });
  } catch (error) {
    throw new LoadError(`${file}: not a readable Parquet file (${firstLine(error)})`, 'invalid-export', {
      cause: error,
    });
  }

  const contractByLowerName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  for (const column of fileColumns) {
    const contractColumn = contractByLowerName.get(column.name.toLowerCase());
    if (contractColumn && contractColumn.name !== column.name) {
      throw new LoadError(
        `${file}: column "${column.name}" differs only in case from contract column "${contractColumn.name}"`,
      );
    }
  }

  const fileByName = new Map(fileColumns.map((c) => [c.name, c.type]));
  const columns: ColumnPlan[] = [];
  let needsUtc = false;
  for (const column of table.columns) {
    const actual = fileByName.get(column.name);
    if (!actual) {
      if (column.required) throw new LoadError(`${file}: missing required column "${column.name}" (${column.type})`);
      columns.push({ name: column.name, type: column.type, source: 'absent' });
      continue;
    }
    const expected = contractTypes.get(column.type);
    if (!expected) throw new Error(`contract type ${column.type} of ${table.id}.${column.name} did not resolve`);
    const match = matchType(expected, actual);
    if (match === 'mismatch') {
      throw new LoadError(`${file}: column "${column.name}" has type ${actual.toString()}, expected ${column.type}`);
    }
    if (match === 'widening' && hasTimeZone(actual)) needsUtc = true;
    columns.push({ name: column.name, type: column.type, source: match });
  }
  for (const column of fileColumns) {
    if (!contractByLowerName.has(column.name.toLowerCase())) {
      columns.push({ name: column.name, type: column.type.toString(), source: 'extra' });
    }
  }

  const rowCount = await checkKeys(conn, file, table.key);
  for (const column of table.columns)
    if (column.values && fileByName.has(column.name)) await checkValues(conn, file, column.name, column.values);
  return { table, file, isPresent: true, rowCount, columns, needsUtc };
}

/** One pass for the row count and NULL keys, one hash aggregate for duplicates; returns the row count. */
async function checkKeys(conn: DuckDBConnection, file: string, key: readonly string[]): Promise<number> {
  const source = quoteLiteral(file);
  const keyList = key.map(quoteIdent).join(', ');
  const firstNulls = key.map((k, i) => `min(file_row_number) FILTER (WHERE ${quoteIdent(k)} IS NULL) AS null_${i}`);
  const reader = await conn.runAndReadAll(
    `SELECT count(*) AS row_count, ${firstNulls.join(', ')},
       (SELECT count(*) FROM (SELECT hash(${keyList}) AS h FROM read_parquet(${source}) GROUP BY h HAVING count(*) > 1))
         AS shared_hashes
     FROM read_parquet(${source}, file_row_number = true)`,
  );
  const row = reader.getRowObjectsJS()[0] ?? {};
  let nullRow: { column: string; row: number } | undefined;
  key.forEach((column, i) => {
    const value = row[`null_${i}`];
    if (value === null || value === undefined) return;
    const rowNumber = Number(value) + 1;
    if (!nullRow || rowNumber < nullRow.row) nullRow = { column, row: rowNumber };
  });
  if (nullRow) throw new LoadError(`${file}: NULL in key column "${nullRow.column}" at row ${nullRow.row}`);

  if (Number(row.shared_hashes) > 0) {
    const duplicate = await firstDuplicate(conn, file, key);
    if (duplicate) {
      const values = duplicate.values.map(showValue).join(', ');
      throw new LoadError(
        `${file}: duplicate key (${key.join(', ')}) = (${values}) at row ${duplicate.row}, first seen at row ${duplicate.firstRow}`,
      );
    }
  }
  return Number(row.row_count);
}

/** Refuses the first non-NULL value, in file order, that the contract does not allow in an enum column. */
async function checkValues(
  conn: DuckDBConnection,
  file: string,
  column: string,
  values: readonly string[],
): Promise<void> {
  const name = quoteIdent(column);
  const reader = await conn.runAndReadAll(
    `SELECT file_row_number AS rn, CAST(${name} AS VARCHAR) AS value
     FROM read_parquet(${quoteLiteral(file)}, file_row_number = true)
     WHERE ${name} IS NOT NULL AND ${name} NOT IN (${values.map(quoteLiteral).join(', ')})
     ORDER BY file_row_number LIMIT 1`,
  );
  const row = reader.getRowObjectsJS()[0];
  if (!row) return;
  throw new LoadError(
    `${file}: column "${column}" has value ${showValue(textOf(row.value))} at row ${Number(row.rn) + 1}, expected one of ${values.join(', ')}`,
  );
}

/** The first row, in file order, whose key repeats an earlier row's; only rows whose key hash is shared are compared. */
async function firstDuplicate(
  conn: DuckDBConnection,
  file: string,
  key: readonly string[],
): Promise<{ row: number; firstRow: number; values: string[] } | undefined> {
  const source = quoteLiteral(file);
  const keyList = key.map(quoteIdent).join(', ');
  const reader = await conn.runAndReadAll(
    `WITH shared AS (
       SELECT hash(${keyList}) AS h FROM read_parquet(${source}) GROUP BY h HAVING count(*) > 1
     ), candidates AS (
       SELECT file_row_number AS rn, ${keyList}, min(file_row_number) OVER (PARTITION BY ${keyList}) AS first_rn
       FROM read_parquet(${source}, file_row_number = true)
       WHERE hash(${keyList}) IN (SELECT h FROM shared)
     )
     SELECT rn, first_rn, ${key.map((k, i) => `CAST(${quoteIdent(k)} AS VARCHAR) AS k_${i}`).join(', ')}
     FROM candidates WHERE rn > first_rn ORDER BY rn LIMIT 1`,
  );
  const row = reader.getRowObjectsJS()[0];
  if (!row) return undefined;
  return {
    row: Number(row.rn) + 1,
    firstRow: Number(row.first_rn) + 1,
    values: key.map((_, i) => {
      const value = row[`k_${i}`];
      return typeof value === 'string' ? value : 'NULL';
    }),
  };
}

const MAX_SHOWN = 120;
const showValue = (value: string): string =>
  JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);
