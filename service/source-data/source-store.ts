/**
 * Imported marketing data in the store, per website and source, replaced atomically as crawls are:
 *
 *   store/<websiteId>/sources/<source>/CURRENT                 the live version id (write + rename)
 *   store/<websiteId>/sources/<source>/<versionId>/            <table>.parquet per contract table, source.json
 *   store/<websiteId>/sources/<source>/<versionId>.partial/    an import in progress; removed by the next one
 *
 * Each version holds all of the source's rows (by date), so a crash leaves the previous version or the new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { dataSourceIds, type DataSourceId } from '../../catalog/data-sources.ts';
import { parquetFileOf } from '../../catalog/export-contract.ts';
import {
  CURRENT_FILE,
  listLiveCrawls,
  PARTIAL_SUFFIX,
  readCurrent,
  SOURCES_DIR,
  websiteDir,
  writeFileAtomic,
} from '../store/layout.ts';
import { fsyncDir, fsyncFile } from '../store/fsync.ts';
import { quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { isRawTableId, vendorSelectOf, type RawTableId, type VendorFile } from './raw-rows.ts';

export const SOURCE_META_FILE = 'source.json';
/** A column of each version's tables beyond the contract's: the id of the import that brought the row. */
export const IMPORT_COLUMN = '__thc_import';

const coverageSchema = z.object({
  start: z.iso.date(),
  end: z.iso.date(),
  granularity: z.enum(['day', 'week', 'month', 'period']),
});

const importRecordSchema = z.object({
  /** The version the import made; its rows carry it in IMPORT_COLUMN. Absent in versions written before ids. */
  id: z.string().min(1).optional(),
  at: z.iso.datetime({ offset: true }),
  /** Who made it: the user's email, or "cli" for npm run import-data. */
  by: z.string().optional(),
  files: z.array(z.object({ name: z.string(), sha256: z.string() })),
  format: z.string(),
  rows: z.number().int().nonnegative(),
  coverage: coverageSchema,
  isReplace: z.boolean(),
});

export const sourceMetaSchema = z.object({
  layout: z.literal(1),
  source: z.enum(dataSourceIds),
  versionId: z.string().min(1),
  importedAt: z.iso.datetime({ offset: true }),
  /** Rows per contract table held by this version. */
  tables: z.record(z.string(), z.number().int().nonnegative()),
  /** Every import that made this version, oldest first. */
  imports: z.array(importRecordSchema),
  /** Raw tables whose file is the vendor's own Parquet file, read through a projection (raw-rows.ts VendorFile). */
  vendorFiles: z.record(z.string(), z.object({ import: z.string().min(1), hasQuery: z.boolean() })).optional(),
});
export type SourceMeta = z.infer<typeof sourceMetaSchema>;
export type ImportRecord = z.infer<typeof importRecordSchema>;

export interface SourceVersion {
  source: DataSourceId;
  dir: string;
  meta: SourceMeta;
  /** The Parquet file of a contract table in this version, if it holds that table. */
  fileOf(table: string): string | undefined;
  /** A table's rows as a relation, if the version holds it: its file, or a vendor's own file through its projection. */
  rowsOf(table: string): string | undefined;
}

export const sourcesDir = (dataDir: string, websiteId: string): string =>
  path.join(websiteDir(dataDir, websiteId), SOURCES_DIR);
export const sourceDir = (dataDir: string, websiteId: string, source: DataSourceId): string =>
  path.join(sourcesDir(dataDir, websiteId), source);

/** The live version of a website's source, or undefined when the source is not connected. */
export function readSourceVersion(dataDir: string, websiteId: string, source: DataSourceId): SourceVersion | undefined {
  const dir = sourceDir(dataDir, websiteId, source);
  const versionId = readCurrent(dir);
  if (versionId === undefined) return undefined;
  const versionDir = path.join(dir, versionId);
  const meta = sourceMetaSchema.parse(JSON.parse(fs.readFileSync(path.join(versionDir, SOURCE_META_FILE), 'utf8')));
  const fileOf = (table: string): string | undefined =>
    table in meta.tables ? path.join(versionDir, parquetFileOf(table)) : undefined;
  return {
    source,
    dir: versionDir,
    meta,
    fileOf,
    rowsOf: (table) => {
      const file = fileOf(table);
      const vendor = meta.vendorFiles?.[table];
      if (!file || !vendor || !isRawTableId(table)) return file && `read_parquet(${quoteLiteral(file)})`;
      return vendorRowsOf(table, file, vendor);
    },
  };
}

/** A vendor's own file as the raw table's rows, each with the id of the import that brought the file. */
export const vendorRowsOf = (table: RawTableId, file: string, vendor: VendorFile): string =>
  `(SELECT ${vendorSelectOf(table, vendor.hasQuery)}, ${quoteLiteral(vendor.import)} AS ${quoteIdent(IMPORT_COLUMN)} FROM read_parquet(${quoteLiteral(file)}))`;

/** A version without imports (the last one was removed) leaves the source not connected. */
export const isConnectedVersion = (version: SourceVersion | undefined): version is SourceVersion =>
  version !== undefined && version.meta.imports.length > 0;

export function readConnectedSources(dataDir: string, websiteId: string): SourceVersion[] {
  return dataSourceIds.flatMap((id) => readSourceVersion(dataDir, websiteId, id) ?? []).filter(isConnectedVersion);
}

/**
 * Removes partial versions and versions neither CURRENT names nor a live crawl of the website joined (a crawl not yet
 * refreshed still reads its version's source.json: period-days.ts); only under the website's import lock.
 */
export function cleanupSourceLeftovers(dataDir: string, websiteId: string, source: DataSourceId): void {
  const dir = sourceDir(dataDir, websiteId, source);
  if (!fs.existsSync(dir)) return;
  const current = readCurrent(dir);
  const joined = new Set(
    listLiveCrawls(dataDir).flatMap((c) => (c.websiteId === websiteId ? (c.meta.sources?.[source] ?? []) : [])),
  );
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== current && !joined.has(entry.name))
      fs.rmSync(target, { recursive: true, force: true });
    else if (entry.isFile() && entry.name.endsWith('.tmp')) fs.rmSync(target, { force: true });
  }
}

export function startPartialVersion(dir: string, versionId: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, `${versionId}${PARTIAL_SUFFIX}`);
  fs.mkdirSync(partial);
  return partial;
}

/** Renames the finished version into place and names it in CURRENT: from here it is live. */
export function publishVersion(dir: string, partial: string, meta: SourceMeta): string {
  writeFileAtomic(path.join(partial, SOURCE_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
  for (const file of fs.readdirSync(partial)) fsyncFile(path.join(partial, file));
  fsyncDir(partial);
  const versionDir = path.join(dir, meta.versionId);
  fs.renameSync(partial, versionDir);
  fsyncDir(dir);
  writeFileAtomic(path.join(dir, CURRENT_FILE), meta.versionId);
  fsyncDir(dir);
  return versionDir;
}
