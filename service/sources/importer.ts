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
import { decodeText } from './csv-text.ts';
import type { RawTableId } from '../source-data/raw-rows.ts';

export type StagedTableId = ExportTableId | RawTableId;

/**
 * Dates a file covers: day by day, week by week or month by month (each value on the week's or month's first day),
 * or one total over a period (placed on the period's last day).
 */
export interface Coverage {
  start: string;
  end: string;
  granularity: 'day' | 'week' | 'month' | 'period';
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
  /** The import's id, which raw rows written as a version's file carry (IMPORT_COLUMN). */
  importId?: string;
}

export interface Staged {
  /** The contract or raw tables filled, each by a staging table with its columns (url as the vendor wrote it). */
  tables: Map<StagedTableId, string>;
  coverage: Coverage;
  /** What the files held that the contract has no place for, said in the summary. */
  notes: string[];
  /** Raw tables already written as a version's file (with the import's id), taken as they are if nothing changes. */
  files?: ReadonlyMap<RawTableId, string>;
  /** Those of `files` that are the vendor's own file, read through a projection (raw-rows.ts VendorFile). */
  vendorFiles?: ReadonlyMap<RawTableId, { hasQuery: boolean }>;
  /** The sha256 of input files (by path), hashed while they were read or still being hashed. */
  hashes?: Promise<ReadonlyMap<string, string>>;
  /** Stops hashing still under way: the import ended first (refused, or nothing changed). */
  stopHashing?: () => void;
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
/** A staged value as JSON: Keyword Planner's monthly records are a list of objects. */
export type Cell = string | number | boolean | null | Cell[] | { [key: string]: Cell };

let staged = 0;

/** Rows into a new temp table with the contract table's columns, through newline-delimited JSON. */
export async function stageRows(
  ctx: StageContext,
  tableId: ExportTableId,
  rows: readonly Record<string, Cell>[],
): Promise<string> {
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

/** The lines of a file's head, decoded (UTF-8 or UTF-16); the last may be cut short. */
export const headLines = (file: SourceFile): string[] => decodeText(file.head).split(/\r?\n/);

/** The first line of a text file's head that is neither blank nor a `#` comment. */
export function firstDataLine(head: Buffer): string {
  return (
    decodeText(head)
      .split(/\r?\n/)
      .find((line) => line.trim() !== '' && !line.startsWith('#')) ?? ''
  );
}

export const readText = (file: SourceFile): string => decodeText(fs.readFileSync(file.path));
