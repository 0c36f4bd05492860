/**
 * DuckDB result chunks to Arrow vectors, one column at a time: numbers and booleans go from each chunk's vector into
 * one typed array, text into one UTF-8 buffer with its offsets; only nested values (lists, structs) pass through JS
 * values. No row objects are made.
 */
import {
  DuckDBTypeId,
  JSDuckDBValueConverter,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { Bool, Float64, Int32, Utf8, makeData, makeVector, vectorFromArray, type Vector } from 'apache-arrow';
import { arrowTypeOf, toPlainValue, valueTypeOf, type ValueType } from './result.ts';

/** A Uint8Array validity bitmap (1 = valid) and its null count, as Arrow lays them out. */
class Validity {
  readonly bits: Uint8Array;
  nullCount = 0;
  constructor(length: number) {
    this.bits = new Uint8Array(Math.ceil(length / 8));
  }
  set(index: number, isValid: boolean): void {
    if (isValid) this.bits[index >> 3]! |= 1 << (index & 7);
    else this.nullCount++;
  }
}

const asNumber = (value: unknown): number => {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const decimal = value as { toDouble?: () => number };
  return typeof decimal.toDouble === 'function' ? decimal.toDouble() : Number(String(value));
};

const encoder = new TextEncoder();

/** Visits a column's non-null items across the chunks with their row in the whole result; marks nulls invalid. */
function eachItem(
  chunks: readonly DuckDBDataChunk[],
  at: number,
  validity: Validity,
  visit: (item: NonNullable<DuckDBValue>, row: number) => void,
): void {
  let row = 0;
  for (const chunk of chunks) {
    const vector = chunk.getColumnVector(at);
    for (let i = 0; i < chunk.rowCount; i++, row++) {
      const item = vector.getItem(i);
      validity.set(row, item !== null);
      if (item !== null) visit(item, row);
    }
  }
}

/** A column's values read straight from each chunk's vector into an Arrow vector of `type`. */
function vectorOf(chunks: readonly DuckDBDataChunk[], at: number, duckType: DuckDBType, type: ValueType): Vector {
  const length = chunks.reduce((n, c) => n + c.rowCount, 0);
  const validity = new Validity(length);
  const props = (): { length: number; nullCount: number; nullBitmap: Uint8Array } => ({
    length,
    nullCount: validity.nullCount,
    nullBitmap: validity.bits,
  });
  switch (type.kind) {
    case 'float64': {
      const values = new Float64Array(length);
      eachItem(chunks, at, validity, (item, row) => (values[row] = asNumber(item)));
      return makeVector(makeData({ ...props(), type: new Float64(), data: values }));
    }
    case 'int32': {
      const values = new Int32Array(length);
      eachItem(chunks, at, validity, (item, row) => (values[row] = asNumber(item)));
      return makeVector(makeData({ ...props(), type: new Int32(), data: values }));
    }
    case 'boolean': {
      const values = new Uint8Array(Math.ceil(length / 8));
      eachItem(chunks, at, validity, (item, row) => {
        if (item === true) values[row >> 3]! |= 1 << (row & 7);
      });
      return makeVector(makeData({ ...props(), type: new Bool(), data: values }));
    }
    case 'string': {
      const isText = duckType.typeId === DuckDBTypeId.VARCHAR;
      const offsets = new Int32Array(length + 1);
      let bytes = new Uint8Array(Math.max(64, length * 32));
      let used = 0;
      let filled = 0;
      eachItem(chunks, at, validity, (item, row) => {
        // Dates and other non-text values as the JSON rows show them.
        const text = isText
          ? (item as string)
          : (toPlainValue(JSDuckDBValueConverter(item, duckType, JSDuckDBValueConverter), type) as string);
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (used + text.length * 3 > bytes.length) {
          const grown = new Uint8Array(Math.max(bytes.length * 2, used + text.length * 3));
          grown.set(bytes.subarray(0, used));
          bytes = grown;
        }
        // Null rows before this one end where the last value ended.
        offsets.fill(used, filled + 1, row + 1);
        used += encoder.encodeInto(text, bytes.subarray(used)).written;
        offsets[row + 1] = used;
        filled = row + 1;
      });
      offsets.fill(used, filled + 1);
      return makeVector(
        makeData({ ...props(), type: new Utf8(), valueOffsets: offsets, data: bytes.subarray(0, used) }),
      );
    }
    case 'list':
    case 'struct': {
      const values: unknown[] = [];
      for (const chunk of chunks)
        for (const value of chunk.convertColumnValues(at, JSDuckDBValueConverter))
          values.push(toPlainValue(value, type));
      return vectorFromArray(values, arrowTypeOf(type));
    }
  }
}

export interface ResultChunks {
  names: readonly string[];
  types: readonly DuckDBType[];
  chunks: readonly DuckDBDataChunk[];
}

/** The named columns of a result as Arrow vectors, keyed by column name in result order. */
export function arrowColumns(result: ResultChunks, wanted: (name: string) => boolean): Record<string, Vector> {
  const vectors: Record<string, Vector> = {};
  result.names.forEach((name, at) => {
    if (!wanted(name)) return;
    const duckType = result.types[at]!;
    vectors[name] = vectorOf(result.chunks, at, duckType, valueTypeOf(duckType));
  });
  return vectors;
}

/** The DuckDB value of a result column at a row (negative: from the end), or undefined past the rows. */
export function valueAt(result: ResultChunks, name: string, row: number): unknown {
  const at = result.names.indexOf(name);
  if (at < 0) return undefined;
  let index = row < 0 ? result.chunks.reduce((n, c) => n + c.rowCount, 0) + row : row;
  for (const chunk of result.chunks) {
    if (index >= 0 && index < chunk.rowCount) return chunk.getColumnVector(at).getItem(index);
    index -= chunk.rowCount;
  }
  return undefined;
}
