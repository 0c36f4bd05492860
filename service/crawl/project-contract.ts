/** Builds a SELECT list that matches a contract table exactly: every column, in order, cast to its DuckDB type. */
import { exportTable, type ExportTableId } from '../../catalog/export-contract.ts';
import { quoteIdent } from '../db/duckdb.ts';

export function projectContract(tableId: ExportTableId, expressions: Record<string, string>): string {
  const table = exportTable(tableId);
  const known = new Set(table.columns.map((c) => c.name));
  const extra = Object.keys(expressions).filter((name) => !known.has(name));
  if (extra.length > 0) throw new Error(`${tableId}: expressions for unknown columns ${extra.join(', ')}`);
  return table.columns
    .map((column) => {
      const expr = expressions[column.name];
      if (expr === undefined) throw new Error(`${tableId}: no expression for column ${column.name}`);
      return `CAST(${expr} AS ${column.type}) AS ${quoteIdent(column.name)}`;
    })
    .join(',\n  ');
}
