/**
 * The streaming CSV export of a whole report tab (spec §9): one query over a fresh connection, read chunk by
 * chunk, each chunk encoded to CSV text as it arrives. Cells are written exactly as the browser export writes
 * them (the same display formats and the same CSV cell encoder from catalog/), so both exports are
 * byte-identical for the same rows and columns.
 */
import {
  DuckDBTypeId,
  JSDuckDBValueConverter,
  type DuckDBDataChunk,
  type DuckDBInstance,
  type DuckDBType,
} from '@duckdb/node-api';
import { CSV_BOM, CSV_SEPARATOR } from '../../catalog/constants.ts';
import { columnById } from '../../catalog/index.ts';
import type { CatalogColumn, ReportDefinition } from '../../catalog/schema.ts';
import { cellText } from '../../catalog/cell-format.ts';
import { csvCell, csvFileName, csvLine } from '../../catalog/csv.ts';
import { CHECKLIST_STATE_COLUMN } from '../../catalog/checklist-states.ts';
import { REMOVAL_REASON_COLUMN } from '../../catalog/removal-reasons.ts';
import { compileExport, PACKED_COLUMN, type DifferenceType, type RowsRequest } from '../engine/compile.ts';
import { bindingsOf } from '../engine/execute.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { toPlainValue, valueTypeOf } from '../engine/result.ts';

export { csvFileName };

/** Types whose raw DuckDB values already are JS primitives (bigint for BIGINT), so skip the JS converter. */
const PRIMITIVE_TYPES: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.VARCHAR,
]);

/** Encoded cells kept per number or boolean column: formatting numbers dominates the export otherwise. */
const MAX_CACHED_CELLS = 65_536;

const columnValues = (chunk: DuckDBDataChunk, at: number, type: DuckDBType): readonly unknown[] =>
  PRIMITIVE_TYPES.has(type.typeId) ? chunk.getColumnValues(at) : chunk.convertColumnValues(at, JSDuckDBValueConverter);

/**
 * The report's table columns a CSV carries: its datatable columns, without the checklist and AI suggestions, then
 * the Checklist state when the rows carry it, and on the Removed tab the removal reason.
 */
export function exportColumns(
  report: ReportDefinition,
  differenceType: DifferenceType = 'all',
  hasChecklistState = false,
): CatalogColumn[] {
  const carried = new Set(shapeOf(report).columns.map((c) => c.id));
  const reason = differenceType === 'removed' ? columnById(REMOVAL_REASON_COLUMN) : undefined;
  const state = hasChecklistState ? columnById(CHECKLIST_STATE_COLUMN) : undefined;
  return report.datatableColumns
    .map((id) => columnById(id))
    .filter(
      (c): c is CatalogColumn =>
        c !== undefined && c.id !== 'checked' && c.format !== 'ai-suggestion' && carried.has(c.id),
    )
    .concat(state ? [state] : [], reason ? [reason] : []);
}

/**
 * The CSV text of every row of the request's tab, in pieces: the BOM and header first, then one piece per result
 * chunk. The connection is closed when the iteration ends, also when the consumer stops early.
 */
export async function* exportCsv(db: DuckDBInstance, req: RowsRequest, total: number): AsyncGenerator<string> {
  const columns = exportColumns(req.report, req.differenceType, req.checklistState !== undefined);
  // Text columns travel NUL-joined in one value: decoding a string from DuckDB costs the same whatever its length.
  const carried = new Set(shapeOf(req.report).columns.map((c) => c.id));
  const textIds = columns.filter((c) => c.type === 'string' && carried.has(c.id)).map((c) => c.id);
  const packed = textIds.length >= 2 ? textIds : [];
  // Compiled before the first piece, so that a refused request fails the first step of the iteration.
  const query = compileExport(req, total, packed);
  yield `${CSV_BOM}${csvLine(columns.map((c) => c.title))}\r\n`;
  if (!query) return;
  const { values, types } = bindingsOf(query);
  const conn = await db.connect();
  let next: Promise<DuckDBDataChunk | null> | undefined;
  try {
    const result = await conn.stream(query.sql, values, types as DuckDBType[]);
    const names = result.columnNames();
    const resultTypes = result.columnTypes();
    next = result.fetchChunk();
    const packedAt = names.indexOf(PACKED_COLUMN);
    const readers = columns.map((column) => {
      const at = names.indexOf(column.id);
      if (at < 0) throw new Error(`the export query has no column ${column.id}`);
      const duckType = resultTypes[at]!;
      const type = valueTypeOf(duckType);
      const isCached = type.kind === 'boolean' || type.kind === 'int32' || type.kind === 'float64';
      const cache = isCached ? new Map<unknown, string>() : undefined;
      return { at, format: column.format, type, duckType, cache, slot: packedAt < 0 ? -1 : packed.indexOf(column.id) };
    });
    const cells: string[] = new Array<string>(readers.length);
    for (;;) {
      const chunk = await next;
      if (!chunk || chunk.rowCount === 0) break;
      // DuckDB makes the next chunk on its own thread while this one is encoded.
      next = result.fetchChunk();
      const data = readers.map((r) => (r.slot < 0 ? columnValues(chunk, r.at, r.duckType) : undefined));
      const packedValues = packedAt < 0 ? undefined : (chunk.getColumnValues(packedAt) as (string | null)[]);
      // Read once: each read of rowCount is a call into DuckDB's binding.
      const rowCount = chunk.rowCount;
      const lines: string[] = new Array<string>(rowCount);
      for (let row = 0; row < rowCount; row++) {
        let parts = packedValues?.[row]?.split('\u0000');
        // A value holding NUL itself: read this row's text columns one by one.
        if (parts && parts.length !== packed.length) parts = undefined;
        for (let i = 0; i < readers.length; i++) {
          const { type, format, cache, slot, at, duckType } = readers[i]!;
          const value =
            slot < 0 ? data[i]![row] : parts ? parts[slot] : (data[i] ??= columnValues(chunk, at, duckType))[row];
          let cell = cache?.get(value);
          if (cell === undefined) {
            cell = csvCell(cellText(toPlainValue(value, type), format));
            if (cache && cache.size < MAX_CACHED_CELLS) cache.set(value, cell);
          }
          cells[i] = cell;
        }
        lines[row] = cells.join(CSV_SEPARATOR);
      }
      yield `${lines.join('\r\n')}\r\n`;
    }
  } finally {
    // A consumer that stops early leaves a chunk being made: the connection closes after it.
    await next?.catch(() => undefined);
    conn.closeSync();
  }
}
