/**
 * get-rows (spec §7): one server-sorted page as an Arrow IPC stream (total in x-total-count). The decoded table is
 * kept as it is; a row is an index into its vectors, and a cell reads its column's vector at that index.
 */
import { DataType, tableFromIPC, type Table, type Vector } from 'apache-arrow';
import { request } from './client.ts';
import type { FilterMatches, RowsRequest } from '../../../catalog/api.ts';

export type { RowsRequest };

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

/** One row of a page: its values read by column id. */
export interface ReportRow {
  get(columnId: string): unknown;
}

export interface RowsPage {
  rows: RowsTable;
  total: number;
  /** On reports of links filtered by 'URLs containing': where the text was found. */
  filterMatches?: FilterMatches;
}

function filterMatchesOf(header: string | null): FilterMatches | undefined {
  if (header === null) return undefined;
  try {
    const { linking, target } = JSON.parse(header) as Partial<FilterMatches>;
    return typeof linking === 'number' && typeof target === 'number' ? { linking, target } : undefined;
  } catch {
    return undefined;
  }
}

/** A nested Arrow value (list or struct) as plain arrays and objects. */
function plainNested(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainNested);
  const nested = value as { toJSON?: () => unknown };
  if (typeof nested.toJSON === 'function') return plainNested(nested.toJSON());
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainNested(v)]));
}

export type ColumnReader = (index: number) => unknown;

/** Reads a column by row index: scalars straight from the vector, lists and structs made plain when read. */
function readerOf(vector: Vector): ColumnReader {
  const isNested = DataType.isList(vector.type) || DataType.isStruct(vector.type);
  return isNested ? (index) => plainNested(vector.get(index)) : (index) => vector.get(index) as unknown;
}

const absent: ColumnReader = () => undefined;

/** A decoded page: its rows as indexes into the Arrow table's vectors. */
export class RowsTable {
  readonly length: number;
  readonly #readers = new Map<string, ColumnReader>();
  #rows: readonly ReportRow[] | undefined;

  constructor(readonly table: Table | null) {
    for (const field of table?.schema.fields ?? [])
      this.#readers.set(field.name, readerOf(table!.getChild(field.name)!));
    this.length = table?.numRows ?? 0;
  }

  /** The rows as handles for the table's row model (made on first use: a CSV chunk reads by column instead). */
  get rows(): readonly ReportRow[] {
    return (this.#rows ??= Array.from({ length: this.length }, (_, index) => new TableRow(this, index)));
  }

  value(index: number, columnId: string): unknown {
    return this.column(columnId)(index);
  }

  /** A column's reader by row index (undefined for every row of a column the page lacks). */
  column(columnId: string): ColumnReader {
    return this.#readers.get(columnId) ?? absent;
  }
}

class TableRow implements ReportRow {
  constructor(
    readonly page: RowsTable,
    readonly index: number,
  ) {}

  get(columnId: string): unknown {
    return this.page.value(this.index, columnId);
  }
}

/** A row from plain values (tests, and rows made outside a page). */
export function plainRow(values: Record<string, unknown>): ReportRow {
  return { get: (columnId) => values[columnId] };
}

export const NO_ROWS = new RowsTable(null);

export async function fetchRows(body: RowsRequest, signal?: AbortSignal): Promise<RowsPage> {
  const response = await request('POST', '/api/technical-health-check/report/get-rows', body, {
    signal,
    accept: ARROW_STREAM,
  });
  const buffer = new Uint8Array(await response.arrayBuffer());
  const header = response.headers.get('x-total-count');
  const filterMatches = filterMatchesOf(response.headers.get('x-filter-matches'));
  const found = filterMatches ? { filterMatches } : {};
  if (buffer.byteLength === 0) return { rows: NO_ROWS, total: header === null ? 0 : Number(header) || 0, ...found };
  const table = tableFromIPC(buffer);
  const total = header === null ? table.numRows : Number(header);
  return { rows: new RowsTable(table), total: Number.isFinite(total) ? total : table.numRows, ...found };
}
