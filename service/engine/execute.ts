/**
 * Runs compiled queries on connections borrowed from the engine's pool (connection-pool.ts), each to a materialized
 * result. A page's chunks become Arrow columns (arrow-columns.ts); counts and look-ups are plain values.
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBTypeId,
  FLOAT,
  INTEGER,
  JSDuckDBValueConverter,
  LIST,
  SMALLINT,
  TINYINT,
  UBIGINT,
  UINTEGER,
  USMALLINT,
  UTINYINT,
  VARCHAR,
  listValue,
  type DuckDBConnection,
  type DuckDBInstance,
  type DuckDBMaterializedResult,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { makeVector } from 'apache-arrow';
import { columnById } from '../../catalog/index.ts';
import { textOf, withConnection } from '../db/duckdb.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { arrowColumns, valueAt, type ResultChunks } from './arrow-columns.ts';
import { LruCache } from './cache.ts';
import { CHECKED_COLUMN, ORDINAL_COLUMN, SUB_ROWS_COLUMN, TOTAL_COLUMN, type CompiledRows } from './compile.ts';
import {
  byteSizeOf,
  emptyColumns,
  pageResult,
  jsonValue,
  toPlainValue,
  valueTypeOf,
  type ResultColumn,
  type RowsResult,
  type ValueType,
} from './result.ts';
import { fragmentKey, type SqlFragment } from './sql.ts';
import { StatementCache, type Bindings } from './statement-cache.ts';

/**
 * Above the largest page (the 1000-row CSV chunk), so that a page's row ids reach the table scan as a list and
 * only their vectors are read (with DuckDB's default of 50, a 100-row page of a 20M-row table read 1.5 s instead
 * of 75 ms). A GLOBAL setting in DuckDB, applied once per instance.
 */
export const DYNAMIC_OR_FILTER_THRESHOLD = 1100;

/**
 * Tunes the service's DuckDB instance for the engine's queries; idempotent. Insertion order is DuckDB's default, set
 * here because a default-order page of a row table relies on it: its range read returns rows in rowid order unsorted.
 */
export async function tuneInstance(db: DuckDBInstance): Promise<void> {
  await withConnection(db, (conn) =>
    conn.run(
      `SET GLOBAL dynamic_or_filter_threshold = ${DYNAMIC_OR_FILTER_THRESHOLD}; SET GLOBAL preserve_insertion_order = true`,
    ),
  );
}

export function bindingsOf(fragment: SqlFragment): Bindings {
  const values: DuckDBValue[] = [];
  const types: (DuckDBType | undefined)[] = [];
  for (const value of fragment.params) {
    if (Array.isArray(value)) {
      values.push(listValue(value as string[]));
      types.push(LIST(VARCHAR));
    } else {
      values.push(value as DuckDBValue);
      types.push(undefined);
    }
  }
  return { values, types };
}

/**
 * Runs one compiled statement to a materialized result in as few worker-thread round trips as DuckDB allows: one
 * (parse, plan and run together) without bound values, two (prepare, then run) with them, not the three of
 * `conn.run(sql, values)`, which first splits the text into statements. Each round trip is a thread wake-up. On a
 * pooled connection's statements, a statement run before runs from its kept prepared statement (statement-cache.ts).
 */
export async function runStatement(
  on: DuckDBConnection | StatementCache,
  fragment: SqlFragment,
): Promise<DuckDBMaterializedResult> {
  const bindings = fragment.params.length > 0 ? bindingsOf(fragment) : undefined;
  if (on instanceof StatementCache) return on.run(fragment.sql, bindings);
  const conn = on;
  if (!bindings) return conn.run(fragment.sql);
  const prepared = await conn.prepare(fragment.sql);
  try {
    prepared.bind(bindings.values, bindings.types as DuckDBType[]);
    return await prepared.run();
  } finally {
    prepared.destroySync();
  }
}

export async function query(
  on: DuckDBConnection | StatementCache,
  fragment: SqlFragment,
): Promise<{
  columns: ResultColumn[];
  values: unknown[][];
}> {
  const { names, types, chunks } = await queryChunks(on, fragment);
  const columnTypes = types.map(valueTypeOf);
  const columns = names.map((id, i) => ({ id, type: columnTypes[i]! }));
  const values = columns.map((_, at) =>
    chunks.flatMap((chunk) =>
      chunk.convertColumnValues(at, JSDuckDBValueConverter).map((v) => toPlainValue(v, columnTypes[at]!)),
    ),
  );
  return { columns, values };
}

/** Column types that their type id says all of: taken as they are, without reading a logical type per column. */
const PLAIN_TYPES: Partial<Record<DuckDBTypeId, DuckDBType>> = Object.fromEntries(
  [BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, UTINYINT, USMALLINT, UINTEGER, UBIGINT, FLOAT, DOUBLE, VARCHAR].map(
    (type) => [type.typeId, type],
  ),
);

/** A query's result chunks as DuckDB produced them, for reading column by column. */
export async function queryChunks(on: DuckDBConnection | StatementCache, fragment: SqlFragment): Promise<ResultChunks> {
  const result = await runStatement(on, fragment);
  // A materialized result's chunks are read synchronously, without a round trip per chunk.
  const chunks = Array.from({ length: result.chunkCount }, (_, i) => result.getChunk(i));
  const types = Array.from(
    { length: result.columnCount },
    (_, i) => PLAIN_TYPES[result.columnTypeId(i)] ?? result.columnType(i),
  );
  return { names: result.columnNames(), types, chunks };
}

export async function queryNumber(on: DuckDBConnection | StatementCache, fragment: SqlFragment): Promise<number> {
  const found = await queryChunks(on, fragment);
  const first = found.chunks[0];
  const value =
    first && first.rowCount > 0 && first.columnCount > 0
      ? first.convertColumnValues(0, JSDuckDBValueConverter)[0]
      : null;
  return Number(value ?? 0);
}

/** The value type a column has when no query ran (an empty page), from its catalogue type. */
function catalogValueType(id: string): ValueType {
  if (id === CHECKED_COLUMN) return { kind: 'boolean' };
  if (id === SUB_ROWS_COLUMN) return { kind: 'list', item: { kind: 'string' } };
  switch (columnById(id)?.type) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'integer':
    case 'number':
      return { kind: 'float64' };
    case 'string-list':
      return { kind: 'list', item: { kind: 'string' } };
    default:
      return { kind: 'string' };
  }
}

/** The page's row columns as Arrow columns; the last row's keys and ordinal become the cursor of the next page. */
function pageOf(chunks: ResultChunks, compiled: CompiledRows, total: number): RowsResult {
  const { [ORDINAL_COLUMN]: ordinals, ...columns } = arrowColumns(chunks, (name) => name !== TOTAL_COLUMN);
  const page = pageResult(columns, { total, nextCursor: null });
  const rows = page.numRows;
  if (rows < compiled.limit || rows === 0 || compiled.isStakeOrder) return page;
  const keys = compiled.shape.keyColumns.map((key) => {
    const column = columns[key];
    return textOf((column ? jsonValue(makeVector(column), rows - 1) : null) ?? '');
  });
  // Ordinals are never null; read as Float64 like every BIGINT, exact below 2^53.
  page.nextCursor = ordinals ? [...keys, String((ordinals.values as Float64Array)[rows - 1])] : keys;
  return page;
}

export interface RunOptions {
  /** Skip cached results (refresh, skipCache); fresh results are still stored. */
  bypassCache?: boolean;
}

export type CachedValue = RowsResult | number;

export const createResultCache = (maxEntries = 2000, maxBytes = 64 * 1024 * 1024): LruCache<CachedValue> =>
  new LruCache<CachedValue>({ maxEntries, maxBytes }, (value, key) =>
    typeof value === 'number' ? key.length * 2 + 8 : key.length * 2 + byteSizeOf(value.columns),
  );

/** Runs a count with the cache. */
export function runCount(
  pool: ConnectionPool,
  cache: LruCache<CachedValue>,
  count: SqlFragment,
  options: RunOptions = {},
): Promise<number> {
  return cache.getOrCompute(
    `count\u0000${fragmentKey(count)}`,
    () => pool.use((statements) => queryNumber(statements, count)),
    options.bypassCache,
  ) as Promise<number>;
}

/** The total, then the page for it as Arrow columns. */
export async function runRows(
  pool: ConnectionPool,
  cache: LruCache<CachedValue>,
  compiled: CompiledRows,
  options: RunOptions = {},
): Promise<RowsResult> {
  return cache.getOrCompute(
    `rows\u0000${compiled.cacheKey}`,
    async () => {
      if (compiled.combined) {
        const combined = compiled.combined;
        const found = await pool.use((statements) => queryChunks(statements, combined));
        const first = valueAt(found, TOTAL_COLUMN, 0);
        // An empty page past the first says nothing about the total.
        if (first !== undefined || compiled.count === undefined || compiled.offset === 0) {
          const total = Number(first ?? 0);
          if (compiled.count) cache.set(`count\u0000${fragmentKey(compiled.count)}`, total);
          return pageOf(found, compiled, total);
        }
      }
      const total = compiled.count ? await runCount(pool, cache, compiled.count, options) : (compiled.knownTotal ?? 0);
      return pool.use(async (statements) => {
        let cursorOrdinal: number | undefined;
        for (const lookup of compiled.cursorLookups) {
          const value = (await query(statements, lookup)).values[0]?.[0];
          if (value === undefined || value === null) continue;
          cursorOrdinal = Number(value);
          break;
        }
        const page = compiled.page(total, cursorOrdinal);
        if (!page)
          return pageResult(emptyColumns(compiled.columns.map((id) => ({ id, type: catalogValueType(id) }))), {
            total,
            nextCursor: null,
          });
        return pageOf(await queryChunks(statements, page), compiled, total);
      });
    },
    options.bypassCache,
  ) as Promise<RowsResult>;
}
