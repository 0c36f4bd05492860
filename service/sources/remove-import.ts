/**
 * Removes one import from a website's source: a new version without the rows that import brought (rows it replaced
 * or that an earlier import had brought stay as they are), published as an import is, then the crawls that joined
 * the old version are refreshed. Removing the last import leaves the source not connected.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportStep } from '../../catalog/data-source-calls.ts';
import { dataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, parquetFileOf, type ExportTableId } from '../../catalog/export-contract.ts';
import { openDatabase, quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { newLoadId } from '../load/store-files.ts';
import { ImportError } from './import-error.ts';
import { publishUnderLoadLock, refreshJoins, underImportLock } from './import-data.ts';
import { versionTableRowsOf } from './merge-version.ts';
import { columnsOf, isRawTableId, RAW_PARQUET } from '../source-data/raw-rows.ts';
import {
  IMPORT_COLUMN,
  cleanupSourceLeftovers,
  readSourceVersion,
  sourceDir,
  startPartialVersion,
  type SourceMeta,
} from '../source-data/source-store.ts';

export interface RemoveImportOptions {
  dataDir: string;
  websiteId: string;
  source: DataSourceId;
  /** The id of the import (its ImportRecord's id). */
  importId: string;
  databaseUrl?: string | undefined;
  onProgress?: (step: ImportStep) => void;
}

export interface RemoveImportResult {
  versionId: string;
  /** Rows the source held that the removed import had brought. */
  removedRows: number;
  refreshedCrawlIds: number[];
  refreshFailure: string | null;
}

export async function removeImport(options: RemoveImportOptions): Promise<RemoveImportResult> {
  const dataDir = path.resolve(options.dataDir);
  const removed = await underImportLock(
    dataDir,
    options.websiteId,
    () => removeLocked(dataDir, options),
    options.databaseUrl,
  );
  return { ...removed, ...(await refreshJoins(dataDir, options)) };
}

async function removeLocked(
  dataDir: string,
  options: RemoveImportOptions,
): Promise<{ versionId: string; removedRows: number }> {
  const dir = sourceDir(dataDir, options.websiteId, options.source);
  cleanupSourceLeftovers(dataDir, options.websiteId, options.source);
  const live = readSourceVersion(dataDir, options.websiteId, options.source);
  const record = live?.meta.imports.find((i) => i.id === options.importId);
  if (!live || !record)
    throw new ImportError(`${dataSource(options.source).title} has no import "${options.importId}"`, 'not-found');
  options.onProgress?.({ phase: 'writing' });
  const versionId = newLoadId();
  const partialDir = startPartialVersion(dir, versionId);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'remove-import-'));
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  const tables: Record<string, number> = {};
  let removedRows = 0;
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(workDir)}`);
    for (const [tableId, before] of Object.entries(live.meta.tables)) {
      const columns = columnsOf(tableId)
        .map((c) => quoteIdent(c.name))
        .join(', ');
      const rows = await versionTableRowsOf(conn, live, tableId, columns);
      const file = path.join(partialDir, parquetFileOf(tableId));
      const order = isRawTableId(tableId)
        ? ''
        : `ORDER BY ${exportTable(tableId as ExportTableId)
            .key.map(quoteIdent)
            .join(', ')}`;
      await conn.run(
        `COPY (SELECT * FROM ${rows} WHERE ${quoteIdent(IMPORT_COLUMN)} IS DISTINCT FROM ${quoteLiteral(options.importId)}
           ${order}) TO ${quoteLiteral(file)} (${isRawTableId(tableId) ? RAW_PARQUET : 'FORMAT parquet, COMPRESSION zstd'})`,
      );
      const reader = await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${quoteLiteral(file)})`);
      tables[tableId] = Number(reader.getRowsJS()[0]?.[0] ?? 0);
      removedRows += before - tables[tableId];
    }
  } catch (error) {
    fs.rmSync(partialDir, { recursive: true, force: true });
    throw error;
  } finally {
    conn.closeSync();
    db.closeSync();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const { vendorFiles: _written, ...kept } = live.meta;
  const meta: SourceMeta = {
    ...kept,
    versionId,
    importedAt: new Date().toISOString(),
    tables,
    imports: live.meta.imports.filter((i) => i !== record),
  };
  await publishUnderLoadLock(dataDir, options.websiteId, dir, partialDir, meta, options.databaseUrl);
  return { versionId, removedRows };
}
