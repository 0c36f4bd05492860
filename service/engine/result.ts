/**
 * A page of rows as Arrow columns (built from DuckDB's column vectors by arrow-columns.ts) and its two encodings:
 * the Arrow IPC stream written from the columns' buffers, and JSON rows keyed by column id read from the same columns.
 * Column types are explicit (BIGINT and DOUBLE as Float64, so the browser reads plain numbers).
 */
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import {
  Bool,
  Field,
  Float64,
  Int32,
  List,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  DataType,
  type Data,
  type Vector,
} from 'apache-arrow';
import { textOf } from '../db/duckdb.ts';
import { encodeArrowStream } from './arrow-ipc.ts';

export type ValueType =
  | { kind: 'boolean' }
  | { kind: 'int32' }
  | { kind: 'float64' }
  | { kind: 'string' }
  | { kind: 'list'; item: ValueType }
  | { kind: 'struct'; fields: readonly { name: string; type: ValueType }[] };

export interface ResultColumn {
  id: string;
  type: ValueType;
}

/** A page's columns in order, keyed by column id, each one Arrow column. */
export type PageColumns = Readonly<Record<string, Data>>;

export interface RowsResult {
  /** The page's columns in order. No Arrow table is made of them: the stream and JSON rows read them directly. */
  columns: PageColumns;
  /** Rows on this page. */
  numRows: number;
  /** Rows of the whole tab, not of this page. */
  total: number;
  /** When the page is full: the `after` that continues in key order (key values, then an ordinal hint). */
  nextCursor?: readonly string[] | null;
}

export function valueTypeOf(type: DuckDBType): ValueType {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return { kind: 'boolean' };
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
      return { kind: 'int32' };
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return { kind: 'float64' };
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return { kind: 'list', item: valueTypeOf(type.valueType) };
    case DuckDBTypeId.STRUCT:
      return {
        kind: 'struct',
        fields: type.entryNames.map((name, i) => ({ name, type: valueTypeOf(type.entryTypes[i]!) })),
      };
    default:
      // VARCHAR, and anything else (dates, NULL-typed columns) as text.
      return { kind: 'string' };
  }
}

/** A DuckDB JS value as JSON-safe data: bigint as number, dates as ISO text, nested values converted too. */
export function toPlainValue(value: unknown, type: ValueType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'boolean':
      return Boolean(value);
    case 'int32':
    case 'float64':
      return typeof value === 'bigint' ? Number(value) : Number(value);
    case 'string':
      if (typeof value === 'string') return value;
      if (value instanceof Date) return value.toISOString().replace(/T00:00:00\.000Z$/, '');
      return textOf(value);
    case 'list':
      return Array.isArray(value) ? value.map((v) => toPlainValue(v, type.item)) : null;
    case 'struct': {
      const source = value as Record<string, unknown>;
      return Object.fromEntries(type.fields.map((f) => [f.name, toPlainValue(source[f.name], f.type)]));
    }
  }
}

/** A vector's value at a row as JSON-safe data: lists as arrays, structs as objects. */
export function jsonValue(vector: Vector, row: number): unknown {
  const value: unknown = vector.get(row);
  return value !== null && typeof value === 'object' ? plainJson((value as { toJSON(): unknown }).toJSON()) : value;
}

function plainJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value ?? null;
  if (Array.isArray(value)) return value.map(plainJson);
  const nested = value as { toJSON?: () => unknown };
  if (typeof nested.toJSON === 'function') return plainJson(nested.toJSON());
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
}

/** JSON rows (for API callers who ask for JSON), read column by column from the page's columns. */
export function rowsOf(result: RowsResult): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = Array.from({ length: result.numRows }, () => ({}));
  for (const [id, data] of Object.entries(result.columns)) {
    const vector = makeVector(data);
    const isNested = DataType.isList(data.type) || DataType.isStruct(data.type);
    for (let i = 0; i < rows.length; i++) rows[i]![id] = isNested ? jsonValue(vector, i) : vector.get(i);
  }
  return rows;
}

/** A page's rows and the rest of its answer. */
export const pageResult = (columns: PageColumns, rest: Omit<RowsResult, 'columns' | 'numRows'>): RowsResult => ({
  columns,
  numRows: Object.values(columns)[0]?.length ?? 0,
  ...rest,
});

/**
 * A one-batch Arrow table of equally long columns, keyed by column id in order, for readers that want one. Built
 * directly: `new Table(vectors)` infers the schema and redistributes the columns into batches, which took longer than
 * building the columns.
 */
export function tableOf(columns: PageColumns): Table {
  const children = Object.values(columns);
  const fields = Object.keys(columns).map((id, i) => new Field(id, children[i]!.type, true));
  const schema = new Schema(fields);
  const data = makeData({ type: new Struct(fields), length: children[0]?.length ?? 0, nullCount: 0, children });
  return new Table(schema, [new RecordBatch(schema, data)]);
}

/** The columns of an empty page. */
export function emptyColumns(columns: readonly ResultColumn[]): PageColumns {
  return Object.fromEntries(columns.map((c) => [c.id, vectorFromArray([], arrowTypeOf(c.type)).data[0] as Data]));
}

/** Approximate bytes a page holds (its Arrow buffers), for the result cache. */
export function byteSizeOf(columns: PageColumns): number {
  interface Buffers {
    values?: ArrayBufferView | undefined;
    valueOffsets?: ArrayBufferView | undefined;
    nullBitmap?: ArrayBufferView | undefined;
    children?: readonly Buffers[];
  }
  const sizeOf = (data: Buffers): number =>
    (data.values?.byteLength ?? 0) +
    (data.valueOffsets?.byteLength ?? 0) +
    (data.nullBitmap?.byteLength ?? 0) +
    (data.children ?? []).reduce((n, child) => n + sizeOf(child), 0);
  return Object.values(columns).reduce((n, data) => n + sizeOf(data as unknown as Buffers), 0);
}

export function arrowTypeOf(type: ValueType): DataType {
  switch (type.kind) {
    case 'boolean':
      return new Bool();
    case 'int32':
      return new Int32();
    case 'float64':
      return new Float64();
    case 'string':
      return new Utf8();
    case 'list':
      return new List(new Field('item', arrowTypeOf(type.item), true));
    case 'struct':
      return new Struct(type.fields.map((f) => new Field(f.name, arrowTypeOf(f.type), true)));
  }
}

export const ARROW_TOTAL_METADATA = 'total';

/** An Arrow IPC stream of the rows, the total and `metadata` in the schema metadata. */
export function toArrowStream(result: RowsResult, metadata: Record<string, string> = {}): Uint8Array {
  const entries = Object.entries(result.columns);
  return encodeArrowStream(
    entries.map(([name, data]) => ({ name, type: data.type, nullable: true })),
    [{ length: result.numRows, columns: entries.map(([, data]) => data) }],
    new Map([[ARROW_TOTAL_METADATA, String(result.total)], ...Object.entries(metadata)]),
  );
}
