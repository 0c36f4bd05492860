/**
 * From normalised staged rows (normalise-staged.ts) to a new version of a source, merged with the live version's
 * rows: keyed rows added where new, refused where they contradict imported rows; raw rows (raw-rows.ts) day by day,
 * added on days without them, refused on days that hold other raw rows; unless --replace, which first drops the live
 * rows on the dates the new files cover (a period file's whole period) and every row of a period import whose period
 * meets those dates. A day holds raw rows or keyed rows, never both. A key column may be NULL (a
 * Google Ads search term has no landing URL, a Keyword Planner export no customer id): keys are compared NULL-safely.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { dataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, parquetFileOf, type ExportTableId } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { ImportError, REPLACE_HINT } from './import-error.ts';
import type { Coverage, StagedTableId } from './importer.ts';
import { changedRowsOf, rawRowsAdded, refuseMixedDays } from './merge-raw.ts';
import {
  columnsOf,
  isRawTableId,
  RAW_PARQUET,
  rawFeedsOf,
  rawTableOf,
  rawTablesOf,
  type VendorFile,
} from '../source-data/raw-rows.ts';
import { IMPORT_COLUMN, type SourceVersion } from '../source-data/source-store.ts';

const rowsOf = async (conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> =>
  (await conn.runAndReadAll(sql)).getRowObjectsJS();
const countOf = async (conn: DuckDBConnection, sql: string): Promise<number> =>
  Number((await conn.runAndReadAll(sql)).getRowsJS()[0]?.[0] ?? 0);

export interface Merged {
  /** Rows per table of the new version. */
  tables: Record<string, number>;
  /** Rows the new version adds, drops or changes. */
  changedRows: number;
  /** Raw tables of the new version whose file is the vendor's own (source.json's vendorFiles). */
  vendorFiles: Record<string, VendorFile>;
  /** With --replace, the period imports taken out whole because their span meets the new files' dates. */
  replacedPeriods: ReplacedPeriod[];
}

export interface ReplacedPeriod {
  importId: string;
  start: string;
  end: string;
}

/** The rows of a version's table, raw or keyed, with the import each came from (versionRowsOf). */
export async function versionTableRowsOf(
  conn: DuckDBConnection,
  version: SourceVersion,
  tableId: string,
  columns: string,
): Promise<string> {
  const vendor = version.meta.vendorFiles?.[tableId];
  if (vendor) return `(SELECT ${columns}, ${quoteIdent(IMPORT_COLUMN)} FROM ${version.rowsOf(tableId)!})`;
  return versionRowsOf(conn, version.fileOf(tableId)!, columns);
}

/** The rows of a version's table file with the import each came from (NULL in files written before imports had ids). */
export async function versionRowsOf(conn: DuckDBConnection, file: string, columns: string): Promise<string> {
  const described = await rowsOf(conn, `DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(file)})`);
  const hasImport = described.some((r) => r.column_name === IMPORT_COLUMN);
  const provenance = hasImport ? quoteIdent(IMPORT_COLUMN) : `NULL::VARCHAR AS ${quoteIdent(IMPORT_COLUMN)}`;
  return `(SELECT ${columns}, ${provenance} FROM read_parquet(${quoteLiteral(file)}))`;
}

export interface MergeOptions {
  isReplace: boolean;
  partialDir: string;
  fileNames: string;
  importId: string;
  /** Raw tables staged as a version's file already (with the import's id): moved in when taken whole. */
  files?: ReadonlyMap<StagedTableId, string>;
  /** Those of `files` that are the vendor's own file (without the import's id), and whether they have a query. */
  vendorFiles?: ReadonlyMap<StagedTableId, { hasQuery: boolean }>;
}

/**
 * Writes the new version's Parquet files into `partialDir`; `changedRows` 0 means the import changes nothing. Each
 * row keeps the id of the import that brought it (IMPORT_COLUMN), so one import can be removed again.
 */
export async function mergeVersion(
  conn: DuckDBConnection,
  source: DataSourceId,
  live: SourceVersion | undefined,
  fresh: Map<StagedTableId, string>,
  coverage: Coverage,
  options: MergeOptions,
): Promise<Merged> {
  const tables: Record<string, number> = {};
  const vendorFiles: Record<string, VendorFile> = {};
  let changedRows = 0;
  const { dateColumn } = dataSource(source);
  const inRange = `${quoteIdent(dateColumn)} BETWEEN ${quoteLiteral(coverage.start)}::DATE AND ${quoteLiteral(coverage.end)}::DATE`;
  const replacedPeriods = options.isReplace ? periodsMeeting(live, coverage) : [];
  const replaced = replacedOn(inRange, replacedPeriods);
  const periodsTaken = new Set<string>();
  const ids: StagedTableId[] = [...dataSource(source).tables, ...rawTablesOf(source).map((r) => r.id)];
  if (!options.isReplace) await refuseMixedDays(conn, source, live, fresh, coverage, options.fileNames);
  for (const tableId of ids) {
    const columns = columnsOf(tableId)
      .map((c) => quoteIdent(c.name))
      .join(', ');
    const old = live?.fileOf(tableId) ? await versionTableRowsOf(conn, live, tableId, columns) : undefined;
    const neu = fresh.get(tableId);
    const tagged =
      neu && `(SELECT ${columns}, ${quoteLiteral(options.importId)} AS ${quoteIdent(IMPORT_COLUMN)} FROM ${neu})`;
    const file = path.join(options.partialDir, parquetFileOf(tableId));
    let merged: string | undefined = old;
    if (options.isReplace && isReplacedBy(tableId, fresh)) {
      const kept = old ? `SELECT * FROM ${old} WHERE NOT (${replaced})` : undefined;
      const parts = [kept, tagged && `SELECT * FROM ${tagged}`].filter(Boolean);
      merged = parts.length > 0 ? `(${parts.join(' UNION ALL ')})` : undefined;
      const dropped = old ? `(SELECT ${columns} FROM ${old} WHERE ${replaced})` : undefined;
      if (old && replacedPeriods.length > 0) await periodsHeld(conn, old, replacedPeriods, periodsTaken);
      changedRows += await changedRowsOf(conn, tableId, dropped, neu, columns, dateColumn);
      if (!kept && tagged && (await moveStaged(options.files?.get(tableId), file))) {
        merged = undefined;
        vendorFileOf(tableId, options, vendorFiles);
      }
    } else if (tagged && isRawTableId(tableId)) {
      const added = old
        ? await rawRowsAdded(conn, tableId, old, tagged, inRange, dateColumn, options.fileNames)
        : tagged;
      changedRows += await countOf(conn, `SELECT count(*) FROM ${added}`);
      merged = old ? `(SELECT * FROM ${old} UNION ALL SELECT * FROM ${added})` : added;
      if (!old && (await moveStaged(options.files?.get(tableId), file))) {
        merged = undefined;
        vendorFileOf(tableId, options, vendorFiles);
      }
    } else if (tagged && neu) {
      const table = exportTable(tableId as ExportTableId);
      if (old) await refuseContradictions(conn, table.id as ExportTableId, old, neu, options.fileNames);
      const added = old ? `(SELECT * FROM ${tagged} n ANTI JOIN ${old} o ON ${sameKey(table.key)})` : tagged;
      changedRows += await countOf(conn, `SELECT count(*) FROM ${added}`);
      merged = old ? `(SELECT * FROM ${old} UNION ALL SELECT * FROM ${added})` : added;
    }
    if (merged !== undefined && merged === old && isRawTableId(tableId)) {
      // A version's files never change: the raw rows no import touched are the live file itself, linked.
      await linkOrCopy(live!.fileOf(tableId)!, file);
      const vendor = live!.meta.vendorFiles?.[tableId];
      if (vendor) vendorFiles[tableId] = vendor;
    } else if (merged !== undefined) {
      if (isRawTableId(tableId))
        await conn.run(`COPY (SELECT * FROM ${merged}) TO ${quoteLiteral(file)} (${RAW_PARQUET})`);
      // By day, so a crawl's join reads only the row groups of its window; sorting by the whole key cost half as
      // much again (measured on 3M rows) for an order nothing reads: the join sorts its slice by key itself.
      else
        await conn.run(
          `COPY (SELECT * FROM ${merged} ORDER BY ${quoteIdent(dateColumn)}) TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION zstd)`,
        );
    }
    if (fs.existsSync(file))
      tables[tableId] = await countOf(conn, `SELECT count(*) FROM read_parquet(${quoteLiteral(file)})`);
  }
  return {
    tables,
    changedRows,
    vendorFiles,
    replacedPeriods: replacedPeriods.filter((p) => periodsTaken.has(p.importId)),
  };
}

/**
 * The period imports of the live version whose span meets the new files' dates: their totals stand for every day of
 * their period and cannot be split by day, so --replace takes each of them out whole.
 */
function periodsMeeting(live: SourceVersion | undefined, coverage: Coverage): ReplacedPeriod[] {
  return (live?.meta.imports ?? []).flatMap((i) =>
    i.id !== undefined &&
    i.coverage.granularity === 'period' &&
    i.coverage.start <= coverage.end &&
    i.coverage.end >= coverage.start
      ? [{ importId: i.id, start: i.coverage.start, end: i.coverage.end }]
      : [],
  );
}

/** Adds to `into` the ids of those periods whose rows `old` holds. */
async function periodsHeld(
  conn: DuckDBConnection,
  old: string,
  periods: readonly ReplacedPeriod[],
  into: Set<string>,
): Promise<void> {
  const ids = periods.map((p) => quoteLiteral(p.importId)).join(', ');
  const held = await rowsOf(
    conn,
    `SELECT DISTINCT ${quoteIdent(IMPORT_COLUMN)} AS id FROM ${old} WHERE ${quoteIdent(IMPORT_COLUMN)} IN (${ids}) ORDER BY id`,
  );
  for (const { id } of held) into.add(textOf(id));
}

/** The live rows --replace drops: those on the new files' dates, and every row of a period import meeting them. */
function replacedOn(inRange: string, periods: readonly ReplacedPeriod[]): string {
  if (periods.length === 0) return inRange;
  const ids = periods.map((p) => quoteLiteral(p.importId)).join(', ');
  return `(${inRange} OR COALESCE(${quoteIdent(IMPORT_COLUMN)} IN (${ids}), FALSE))`;
}

function vendorFileOf(tableId: StagedTableId, options: MergeOptions, into: Record<string, VendorFile>): void {
  const vendor = options.vendorFiles?.get(tableId);
  if (vendor) into[tableId] = { import: options.importId, hasQuery: vendor.hasQuery };
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    fs.linkSync(from, to);
  } catch {
    await fs.promises.copyFile(from, to);
  }
}

/** With --replace, a table loses its rows on the new files' dates when they fill it or (raw or keyed) its days. */
function isReplacedBy(tableId: StagedTableId, fresh: Map<StagedTableId, string>): boolean {
  if (fresh.has(tableId)) return true;
  const raw = rawTableOf(tableId);
  if (raw) return raw.feeds.some((f) => fresh.has(f.table));
  return rawFeedsOf(tableId).some(({ raw: r }) => fresh.has(r.id));
}

/** A raw file staged whole becomes the version's file as it is (a rename; a copy across file systems). */
async function moveStaged(staged: string | undefined, file: string): Promise<boolean> {
  if (!staged) return false;
  try {
    fs.renameSync(staged, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.promises.copyFile(staged, file);
  }
  return true;
}

const sameKey = (key: readonly string[]): string =>
  key.map((k) => `n.${quoteIdent(k)} IS NOT DISTINCT FROM o.${quoteIdent(k)}`).join(' AND ');

/** Without --replace, a row whose key was imported before must carry the same values. */
async function refuseContradictions(
  conn: DuckDBConnection,
  tableId: ExportTableId,
  old: string,
  neu: string,
  fileNames: string,
): Promise<void> {
  const table = exportTable(tableId);
  const values = table.columns.filter((c) => !table.key.includes(c.name));
  const differs = values.map((c) => `n.${quoteIdent(c.name)} IS DISTINCT FROM o.${quoteIdent(c.name)}`).join(' OR ');
  const keys = table.key.map((k) => `CAST(n.${quoteIdent(k)} AS VARCHAR) AS ${quoteIdent(k)}`).join(', ');
  const [row] = await rowsOf(
    conn,
    `SELECT ${keys}, count(*) OVER () AS n_rows FROM ${neu} n JOIN ${old} o ON ${sameKey(table.key)}
     WHERE ${differs} ORDER BY ALL LIMIT 1`,
  );
  if (!row) return;
  const first = table.key.map((k) => `${k} ${textOf(row[k])}`).join(', ');
  throw new ImportError(
    `${fileNames}: ${Number(row.n_rows)} rows differ from ${tableId} rows imported before (first: ${first}); ${REPLACE_HINT.cli}`,
    'conflict',
  );
}
