/**
 * Test helper: writes crawls into a DATA_DIR in the store layout (crawl.duckdb with every export-contract table,
 * crawl.json, CURRENT, website.json), from a handful of rows per table, precomputed like a real load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { exportTables, type ExportTableId, type Manifest } from '../../../catalog/export-contract.ts';

import { openDatabase, quoteIdent, quoteLiteral } from '../../db/duckdb.ts';
import { precomputeCrawl, type PrecomputeOptions } from '../../engine/precompute.ts';
import type { CrawlMeta, ModuleState } from '../../store/crawl-meta.ts';
import {
  CRAWL_DB_FILE,
  CRAWL_META_FILE,
  CURRENT_FILE,
  WEBSITE_FILE,
  crawlDir,
  listLiveCrawls,
  websiteDir,
  writeFileAtomic,
  type LiveCrawl,
} from '../../store/layout.ts';

export type FixtureRow = Record<string, unknown>;
export type FixtureTables = Partial<Record<ExportTableId, readonly FixtureRow[]>>;

export interface CrawlFixture {
  websiteId: string;
  crawlId: number;
  crawledAt?: string;
  dataStart?: string;
  dataEnd?: string;
  moduleState?: ModuleState;
  /** A partial crawl's reason, as its export's manifest records it. */
  partialReason?: Manifest['partialReason'];
  tables: FixtureTables;
  /** Run precompute like the loader does (default true). */
  isPrecomputed?: boolean;
  loadId?: string;
}

export function makeTempDataDir(prefix = 'thc-engine-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A JS value as a DuckDB literal; test data only. */
export function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoteLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${quoteLiteral(k)}: ${literalOf(v)}`)
      .join(', ')}}`;
  throw new Error(`unsupported fixture value of type ${typeof value}`);
}

/** Creates every export-contract table (with exactly its columns and types) and inserts the given rows. */
export async function createCrawlTables(conn: DuckDBConnection, tables: FixtureTables): Promise<void> {
  for (const table of exportTables) {
    const name = quoteIdent(table.id);
    await conn.run(`CREATE TABLE ${name} (${table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`);
    const rows = tables[table.id] ?? [];
    if (rows.length === 0) continue;
    const known = new Set(table.columns.map((c) => c.name));
    for (const row of rows)
      for (const key of Object.keys(row))
        if (!known.has(key)) throw new Error(`fixture column ${table.id}.${key} is not in the export contract`);
    const values = rows.map(
      (row) => `(${table.columns.map((c) => `CAST(${literalOf(row[c.name])} AS ${c.type})`).join(', ')})`,
    );
    await conn.run(`INSERT INTO ${name} VALUES ${values.join(',\n')}`);
  }
}

export function manifestOf(fixture: CrawlFixture): Manifest {
  return {
    websiteId: fixture.websiteId,
    crawlId: fixture.crawlId,
    crawledAt: fixture.crawledAt ?? `2025-01-${String(fixture.crawlId).padStart(2, '0')}T09:00:00.000Z`,
    dataStart: fixture.dataStart ?? '2025-01-01',
    dataEnd: fixture.dataEnd ?? '2025-01-28',
    startUrl: `https://${fixture.websiteId}.example/`,
    crawler: { name: 'test', version: '1' },
    ...(fixture.partialReason && {
      stoppedEarly: fixture.partialReason !== 'max-urls',
      partialReason: fixture.partialReason,
    }),
  };
}

const friendly = (iso: string): string => {
  const day = new Date(iso);
  return `${day.getUTCDate()} ${day.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${day.getUTCFullYear()}`;
};

/**
 * Writes one crawl into the store, diffed against the next older live crawl of the same website (write crawls
 * oldest first, as loads happen).
 */
export async function writeCrawlToStore(
  dataDir: string,
  fixture: CrawlFixture,
  options: Pick<PrecomputeOptions, 'reports' | 'urlMatchCopyMinRows' | 'sortedCopyMinRows'> = {},
): Promise<LiveCrawl> {
  const { websiteId, crawlId } = fixture;
  const manifest = manifestOf(fixture);
  fs.mkdirSync(websiteDir(dataDir, websiteId), { recursive: true });
  const websiteFile = path.join(websiteDir(dataDir, websiteId), WEBSITE_FILE);
  if (!fs.existsSync(websiteFile))
    writeFileAtomic(
      websiteFile,
      JSON.stringify({ id: websiteId, name: `Site ${websiteId}`, domain: `${websiteId}.example` }),
    );
  const previous = listLiveCrawls(dataDir).find((c) => c.websiteId === websiteId && c.crawlId < crawlId);
  const loadId = fixture.loadId ?? `load-${crawlId}`;
  const loadDir = path.join(crawlDir(dataDir, websiteId, crawlId), loadId);
  fs.mkdirSync(loadDir, { recursive: true });
  const dbFile = path.join(loadDir, CRAWL_DB_FILE);
  const db = await openDatabase(dbFile);
  const conn = await db.connect();
  const counts: Record<string, number> = {};
  try {
    await createCrawlTables(conn, fixture.tables);
    for (const table of exportTables) counts[table.id] = fixture.tables[table.id]?.length ?? 0;
    if (fixture.isPrecomputed !== false)
      await precomputeCrawl(
        conn,
        { manifest, previous: previous ? { crawlId: previous.crawlId, dbFile: previous.dbFile } : undefined },
        options,
      );
    await conn.run('CHECKPOINT');
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  const meta: CrawlMeta = {
    manifest,
    loadId,
    loadedAt: manifest.crawledAt,
    crawledFriendly: friendly(manifest.crawledAt),
    moduleState: fixture.moduleState ?? 'APPROVED',
    tables: counts,
    previousCrawlId: previous?.crawlId ?? null,
  };
  writeFileAtomic(path.join(loadDir, CRAWL_META_FILE), JSON.stringify(meta));
  writeFileAtomic(path.join(crawlDir(dataDir, websiteId, crawlId), CURRENT_FILE), loadId);
  return { websiteId, crawlId, loadId, dir: loadDir, dbFile, meta };
}
