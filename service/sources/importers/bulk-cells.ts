/**
 * Reading and checking the bulk export's files, both of its tables (searchdata_url_impression, with a url and
 * sum_position, and searchdata_site_impression, with sum_top_position and no url): each file is read once, cast
 * column by column, and its Parquet statistics say whether every cell fitted; only when one did not is the file read
 * again with its lines numbered, to name the first bad cell.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral, textOf } from '../../db/duckdb.ts';
import { firstLine } from '../../error-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import type { SourceFile } from '../importer.ts';

export type Shape = 'parquet' | 'ndjson' | 'csv';

/** Counts and positions: a negative one is refused, as no search has one. The two tables' names for them. */
export const COUNTS = ['clicks', 'impressions', 'sum_position', 'sum_top_position'];

/** One of the export's tables, told by its columns: the ones it needs, and its position column. */
export interface BulkTable {
  id: 'searchdata_url_impression' | 'searchdata_site_impression';
  /** query may be absent where every row is anonymized (BigQuery's JSON export leaves NULL fields out). */
  required: readonly string[];
  position: 'sum_position' | 'sum_top_position';
}

export const URL_TABLE: BulkTable = {
  id: 'searchdata_url_impression',
  required: ['data_date', 'url', 'impressions', 'clicks', 'sum_position'],
  position: 'sum_position',
};
export const SITE_TABLE: BulkTable = {
  id: 'searchdata_site_impression',
  required: ['data_date', 'impressions', 'clicks', 'sum_top_position'],
  position: 'sum_top_position',
};

/** The table whose columns `has` tells: the site table has sum_top_position and no url. */
export const bulkTableOf = (has: (column: string) => boolean): BulkTable | undefined =>
  [URL_TABLE, SITE_TABLE].find((t) => t.required.every(has) && (t === URL_TABLE || !has('url')));

export function readerOf(file: SourceFile, shape: Shape): string {
  const at = quoteLiteral(file.path);
  if (shape === 'parquet') return `read_parquet(${at})`;
  if (shape === 'ndjson') return `read_json(${at}, format = 'newline_delimited', sample_size = -1)`;
  return `read_csv(${at}, header = true, all_varchar = true, auto_detect = true, strict_mode = true)`;
}

const unreadable = (file: SourceFile, shape: Shape, error: unknown): ImportError =>
  new ImportError(`${file.name}: not a readable ${shape} file (${firstLine(error)})`, 'invalid-input', {
    cause: error,
  });

/** Runs `sql` reading `file`, its failure said as the file being unreadable. */
export async function runReading(conn: DuckDBConnection, file: SourceFile, shape: Shape, sql: string) {
  try {
    return await conn.runAndReadAll(sql);
  } catch (error) {
    throw unreadable(file, shape, error);
  }
}

/** The file's columns and their types, without reading its rows. */
export async function describe(conn: DuckDBConnection, file: SourceFile, shape: Shape): Promise<Map<string, string>> {
  const described = (
    await runReading(conn, file, shape, `DESCRIBE SELECT * FROM ${readerOf(file, shape)}`)
  ).getRowObjectsJS();
  return new Map(described.map((r) => [textOf(r.column_name), textOf(r.column_type)]));
}

export function refuseMissing(file: SourceFile, table: BulkTable, has: (column: string) => boolean): void {
  const missing = table.required.filter((c) => !has(c));
  if (missing.length > 0)
    throw new ImportError(`${file.name}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** A column as `type`, NULL where a cell does not fit: a typed column cast directly, any other through its text. */
export function castOf(column: string, type: string, types: ReadonlyMap<string, string>): string {
  const from = types.get(column)!;
  const isSame =
    from === type ||
    (type === 'BIGINT' && /INT/.test(from)) ||
    (type === 'DOUBLE' && /INT|DOUBLE|FLOAT|DECIMAL/.test(from));
  return isSame
    ? `TRY_CAST(${quoteIdent(column)} AS ${type})`
    : `TRY_CAST(CAST(${quoteIdent(column)} AS VARCHAR) AS ${type})`;
}

/**
 * A text column without its surrounding spaces, NULL when empty or absent. Trimming only the cells that have such
 * spaces took 3.8 s of CPU instead of 4.7 to stage 3M rows from CSV (trimming every cell cost as much as the casts).
 */
export function trimmedOf(column: string, types: ReadonlyMap<string, string>): string {
  if (!types.has(column)) return 'NULL::VARCHAR';
  const text = types.get(column) === 'VARCHAR' ? quoteIdent(column) : `CAST(${quoteIdent(column)} AS VARCHAR)`;
  return `CASE WHEN ${text} = '' THEN NULL WHEN starts_with(${text}, ' ') OR ends_with(${text}, ' ') THEN NULLIF(trim(${text}), '') ELSE ${text} END`;
}

/**
 * Every row group of the Parquet file `file` has statistics showing no cell of `whole` missing, no negative count
 * and no empty `nonEmpty` text (a file without rows has no groups, and fits).
 */
export async function hasFittingCells(
  conn: DuckDBConnection,
  file: string,
  whole: readonly string[],
  nonEmpty?: string,
): Promise<boolean> {
  const reader = await conn.runAndReadAll(
    `SELECT path_in_schema AS col, count(*) AS groups, count(*) FILTER (WHERE stats_null_count = 0) AS whole,
       count(*) FILTER (WHERE TRY_CAST(stats_min_value AS DOUBLE) >= 0) AS non_negative,
       count(*) FILTER (WHERE left(stats_min_value, 1) > ' ') AS non_empty
     FROM parquet_metadata(${quoteLiteral(file)}) WHERE path_in_schema IN (${whole.map(quoteLiteral).join(', ')})
     GROUP BY path_in_schema ORDER BY path_in_schema`,
  );
  const stats = new Map(reader.getRowObjectsJS().map((r) => [textOf(r.col), r]));
  return whole.every((column) => {
    const s = stats.get(column);
    if (!s) return stats.size === 0;
    if (s.whole !== s.groups) return false;
    if (COUNTS.includes(column)) return s.non_negative === s.groups;
    return column !== nonEmpty || s.non_empty === s.groups;
  });
}

/** The checks of a table's cells, in the order they are named: the first failing names the cell. */
const checksOf = (table: BulkTable): [column: string, type: string, what: string][] => [
  ['data_date', 'DATE', 'is not a date (YYYY-MM-DD)'],
  ['impressions', 'BIGINT', 'is not a whole number'],
  ['clicks', 'BIGINT', 'is not a whole number'],
  [table.position, 'DOUBLE', 'is not a number'],
];

/** The import's setting (import-data.ts), which the other importers' line numbers rely on. */
export const IN_ORDER = 'SET preserve_insertion_order = true';

/**
 * Reads the file again with its lines numbered (CSV: the header is line 1; otherwise the row number) and refuses it
 * naming its first bad cell; a file without one passes.
 */
export async function refuseBadCell(conn: DuckDBConnection, file: SourceFile, shape: Shape, table: BulkTable) {
  await conn.run(IN_ORDER);
  const name = quoteIdent(`bulk_lines_${table.id}`);
  await runReading(
    conn,
    file,
    shape,
    `CREATE OR REPLACE TEMP TABLE ${name} AS SELECT *, row_number() OVER () + ${shape === 'csv' ? 1 : 0} AS _line FROM ${readerOf(file, shape)}`,
  );
  const columns = (await conn.runAndReadAll(`SELECT * FROM ${name} LIMIT 0`)).columnNames();
  refuseMissing(file, table, (c) => columns.includes(c));
  const at = (line: unknown, column: string, problem: string): ImportError =>
    shape === 'csv'
      ? cellError(file.name, Number(line), columns.indexOf(column) + 1, problem)
      : new ImportError(`${file.name}: row ${Number(line)}, column ${problem}`);
  for (const [column, type, what] of checksOf(table)) {
    const col = quoteIdent(column);
    const value = `TRY_CAST(CAST(${col} AS VARCHAR) AS ${type})`;
    const isNegative = COUNTS.includes(column) ? `${value} < 0` : 'FALSE';
    const bad = (
      await conn.runAndReadAll(
        `SELECT _line, CAST(${col} AS VARCHAR) AS v, ${isNegative} AS is_negative FROM ${name}
         WHERE ${col} IS NULL OR ${value} IS NULL OR ${isNegative} ORDER BY _line LIMIT 1`,
      )
    ).getRowObjectsJS()[0];
    if (!bad) continue;
    const text = bad.v === null ? 'empty' : `"${textOf(bad.v)}"`;
    throw at(bad._line, column, `${column} ${text} ${bad.is_negative === true ? 'is negative' : what}`);
  }
  if (table !== URL_TABLE) return;
  const line = (
    await conn.runAndReadAll(
      `SELECT _line FROM ${name} WHERE url IS NULL OR trim(CAST(url AS VARCHAR)) = '' ORDER BY _line LIMIT 1`,
    )
  ).getRowsJS()[0]?.[0];
  if (line !== undefined) throw shape === 'csv' ? at(line, 'url', 'url is empty') : at(line, 'url', 'url: empty');
}
