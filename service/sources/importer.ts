/**
 * What every vendor-format importer provides: a test of a file's content (never its name) and a way to stage its
 * rows as the contract's source tables, URLs still as the vendor wrote them. import-data.ts does the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, type ExportTableId } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral } from '../db/duckdb.ts';

/** Dates a file covers: day by day, or one total over a period (placed on the period's last day). */
export interface Coverage {
  start: string;
  end: string;
  granularity: 'day' | 'period';
}

export interface SourceFile {
  /** As given on the command line, for messages. */
  name: string;
  path: string;
  /** The first bytes, for detection. */
  head: Buffer;
}

export interface StageContext {
  conn: DuckDBConnection;
  /** A scratch folder of this import, removed afterwards. */
  workDir: string;
  /** --start/--end, for files without dates of their own. */
  range: { start: string; end: string } | undefined;
}

export interface Staged {
  /** The contract tables filled, each by a staging table with its columns (url as the vendor wrote it). */
  tables: Map<ExportTableId, string>;
  coverage: Coverage;
  /** What the files held that the contract has no place for, said in the summary. */
  notes: string[];
}

export interface Importer {
  source: DataSourceId;
  /** The vendor format, as messages name it. */
  format: string;
  detect(file: SourceFile): boolean;
  /** Files of this format given together are staged together (a report's CSVs complete each other). */
  stage(files: SourceFile[], ctx: StageContext): Promise<Staged>;
}

export type Row = Record<string, string | number | null>;

let staged = 0;

/** Rows into a new temp table with the contract table's columns, through newline-delimited JSON. */
export async function stageRows(ctx: StageContext, tableId: ExportTableId, rows: readonly Row[]): Promise<string> {
  const name = `stage_${tableId}_${++staged}`;
  const file = path.join(ctx.workDir, `${name}.ndjson`);
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
  const columns = exportTable(tableId)
    .columns.map((c) => `${quoteLiteral(c.name)}: ${quoteLiteral(c.type)}`)
    .join(', ');
  await ctx.conn.run(
    rows.length === 0
      ? `CREATE TEMP TABLE ${quoteIdent(name)} (${exportTable(tableId)
          .columns.map((c) => `${quoteIdent(c.name)} ${c.type}`)
          .join(', ')})`
      : `CREATE TEMP TABLE ${quoteIdent(name)} AS SELECT * FROM read_json(${quoteLiteral(file)}, format = 'newline_delimited', columns = {${columns}})`,
  );
  return name;
}

/** The first line of a text file's head that is neither blank nor a `#` comment. */
export function firstDataLine(head: Buffer): string {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  return text.split(/\r?\n/).find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
}

export const readText = (file: SourceFile): string => fs.readFileSync(file.path, 'utf8');
