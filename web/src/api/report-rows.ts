/**
 * get-rows (spec §7): one server-sorted page, requested as an Arrow IPC stream (total in x-total-count) and
 * decoded here. A JSON answer ({rows, total}) is accepted as well.
 */
import { tableFromIPC, type Table } from 'apache-arrow';
import { request } from './client.ts';
import type { RowsRequest } from '../../../catalog/api.ts';

export type { RowsRequest };

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

export type ReportRow = Record<string, unknown>;

export interface RowsPage {
  rows: ReportRow[];
  total: number;
}

/** Arrow values as plain JS: bigint → number, lists → arrays, structs → objects. Timestamps stay epoch ms. */
export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return value.getTime();
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>, plainValue);
  const candidate = value as { toArray?: () => unknown; toJSON?: () => unknown; [Symbol.iterator]?: unknown };
  if (typeof candidate.toJSON === 'function' && typeof candidate.toArray === 'function' && !Array.isArray(value)) {
    const json = candidate.toJSON();
    if (Array.isArray(json)) return json.map(plainValue);
    if (json && typeof json === 'object') return plainObject(json as Record<string, unknown>);
  }
  if (Array.isArray(value)) return value.map(plainValue);
  return plainObject(value as Record<string, unknown>);
}

function plainObject(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = plainValue(inner);
  return out;
}

/** Reads a decoded table column by column (the columnar layout), building one object per row. */
export function rowsOfTable(table: Table): ReportRow[] {
  const names = table.schema.fields.map((f) => f.name);
  const vectors = names.map((name) => table.getChild(name));
  const rows: ReportRow[] = new Array<ReportRow>(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: ReportRow = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = plainValue(vectors[c]?.get(i));
    rows[i] = row;
  }
  return rows;
}

export async function fetchRows(body: RowsRequest, signal?: AbortSignal): Promise<RowsPage> {
  const response = await request('POST', '/api/technical-health-check/report/get-rows', body, {
    signal,
    accept: `${ARROW_STREAM}, application/json;q=0.5`,
  });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    const json = (await response.json()) as { rows: ReportRow[]; total: number };
    return { rows: json.rows.map((r) => plainObject(r)), total: Number(json.total) };
  }
  const buffer = new Uint8Array(await response.arrayBuffer());
  const header = response.headers.get('x-total-count');
  if (buffer.byteLength === 0) return { rows: [], total: header === null ? 0 : Number(header) || 0 };
  const table = tableFromIPC(buffer);
  const total = header === null ? table.numRows : Number(header);
  return { rows: rowsOfTable(table), total: Number.isFinite(total) ? total : table.numRows };
}
