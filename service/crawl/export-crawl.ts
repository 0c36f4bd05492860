/**
 * The end of a crawl: DuckDB reads the row files the crawler streamed and computes what needs the whole crawl
 * (crawl-tables.ts), then writes the contract's Parquet tables (contract-tables.ts) and manifest. Files are built in a side directory and moved into the
 * export directory at the end, manifest last, so a failed export leaves no half-written export behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  MANIFEST_FILE,
  manifestSchema,
  parquetFileOf,
  type Manifest,
  type PartialReason,
  type RecordedSettings,
} from '../../catalog/export-contract.ts';
import { columnSources } from '../../catalog/column-sources.ts';
import { dataWindowBefore } from '../../catalog/data-sources.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { contractTableQueries } from './contract-tables.ts';
import { readCrawlExportMemoryLimit } from './export-memory.ts';
import { buildCrawlTables, type CrawlRows, type SqlRunner } from './crawl-tables.ts';

export type { CrawlRows } from './crawl-tables.ts';

export const CRAWLER_NAME = 'technical-health-check';
/**
 * DuckDB's share of the crawler's memory at the end of a crawl; sorts and joins beyond it spill to the work directory.
 * Some of the export's statements still hold memory by the crawl's size: a 1M-page crawl (the dashboard's largest)
 * failed at 256MB and exported at 768MB with a peak RSS of 1.6 GB (bench/history.md). CRAWL_EXPORT_MEMORY_LIMIT
 * overrides it (tests export small crawls under a tiny limit to prove what no longer holds memory by size).
 */
const exportMemoryLimit = (): string => readCrawlExportMemoryLimit(process.env);
/** Smaller row groups than DuckDB's default keep the Parquet writer's buffers small. */
const ROW_GROUP_SIZE = 16_384;

export interface ExportTarget {
  outDir: string;
  websiteId: string;
  crawlId: number;
  startUrl: string;
  crawledAt: Date;
  /** The data window's days before the crawl date (default DATA_WINDOW_DAYS). */
  dataWindowDays?: number | undefined;
  stoppedEarly: boolean;
  partialReason: PartialReason | undefined;
  /** What the crawl was asked (crawl-options.ts recordedSettingsOf), for the manifest. */
  settings?: RecordedSettings | undefined;
  /** Filled with each path put into place (the export directory when created here, then each file). */
  written: string[];
  /** Called after each step of the export (the tables built, each Parquet file written). */
  onStep?: () => void;
}

/** A connection whose failures say which statement failed (a DuckDB out of memory error names none). */
function namingFailures(connection: DuckDBConnection): SqlRunner & { connection: DuckDBConnection } {
  const named = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      const statement = sql.trim().replace(/\s+/g, ' ').slice(0, 100);
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\nin the export statement: ${statement}`,
        {
          cause: error,
        },
      );
    }
  };
  return {
    connection,
    run: (sql, ...rest) => named(sql, () => connection.run(sql, ...rest)),
    runAndReadAll: (sql, ...rest) => named(sql, () => connection.runAndReadAll(sql, ...rest)),
  };
}

export function crawlerVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

export async function exportCrawl(
  rows: CrawlRows,
  target: ExportTarget,
): Promise<{ manifest: Manifest; tables: Record<string, number> }> {
  const manifest = manifestSchema.parse({
    websiteId: target.websiteId,
    crawlId: target.crawlId,
    crawledAt: target.crawledAt.toISOString(),
    ...dataWindowBefore(target.crawledAt, target.dataWindowDays),
    startUrl: target.startUrl,
    crawler: { name: CRAWLER_NAME, version: crawlerVersion() },
    ...(target.stoppedEarly ? { stoppedEarly: true } : {}),
    ...(target.partialReason ? { partialReason: target.partialReason } : {}),
    ...(target.settings ? { settings: target.settings } : {}),
    ...(target.settings?.renderMode === 'all' ? { columnSources } : {}),
  });
  const side = path.join(rows.workDir, 'export');
  fs.mkdirSync(side, { recursive: true });

  // A database file rather than memory: the crawl's tables then stay on disk beyond the memory limit.
  const db = await openDatabase(path.join(rows.workDir, 'export.duckdb'), {
    threads: 1,
    memoryLimit: exportMemoryLimit(),
  });
  const conn = namingFailures(await db.connect());
  const tables: Record<string, number> = {};
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(path.join(rows.workDir, 'duckdb.tmp'))}`);
    await conn.run('SET preserve_insertion_order = false');
    await buildCrawlTables(conn, rows);
    target.onStep?.();
    // Written to the database file, the tables' blocks can leave memory while the Parquet files are written.
    await conn.run('CHECKPOINT');
    for (const [table, sql] of Object.entries(contractTableQueries())) {
      const file = path.join(side, parquetFileOf(table));
      await conn.run(`COPY (${sql}) TO ${quoteLiteral(file)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
      const reader = await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet(${quoteLiteral(file)})`);
      tables[table] = Number(reader.getRows()[0]?.[0] ?? 0);
      target.onStep?.();
    }
  } finally {
    conn.connection.closeSync();
    db.closeSync();
  }

  if (!fs.existsSync(target.outDir)) {
    fs.mkdirSync(target.outDir, { recursive: true });
    target.written.push(target.outDir);
  }
  const manifestFile = path.join(target.outDir, MANIFEST_FILE);
  fs.rmSync(manifestFile, { force: true });
  for (const table of Object.keys(tables)) {
    const file = path.join(target.outDir, parquetFileOf(table));
    fs.renameSync(path.join(side, parquetFileOf(table)), file);
    target.written.push(file);
  }
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  target.written.push(manifestFile);
  return { manifest, tables };
}
