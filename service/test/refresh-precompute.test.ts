/**
 * Precomputed reports stay right when the store changes under them: an older crawl loaded after a newer one, a
 * data dir precomputed by an older engine build, and a crawl precomputed under the previous PRECOMPUTE_VERSION. Real generated exports, the real loader, the CLI and the engine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { copyOfGeneratedSite } from './helpers/demo-fixtures.ts';
import { openDatabase, quoteLiteral, textOf } from '../db/duckdb.ts';
import { tabRequest, ReportEngine } from '../engine/engine.ts';
import { precomputeCrawl } from '../engine/precompute.ts';
import { PRECOMPUTE_INFO_TABLE, PRECOMPUTE_VERSION, REPORT_COUNTS_TABLE } from '../engine/stored-precompute.ts';
import { loadCrawl, refreshCrawl } from '../load/load-crawl.ts';
import { findStaleCrawls } from '../load/refresh.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import { readCrawlMeta, readCurrentLoad } from '../store/layout.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const SITE = 'alpine-travel';
const temps: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

let exportDirs: string[];
/** Crawls 1, 2 and 3 loaded in order: the reference every other order must match. */
let inOrder: string;

type CountRow = [string, number, number | null, number | null, number | null];

async function reportCounts(dataDir: string, crawlId: number): Promise<CountRow[]> {
  const live = readCurrentLoad(dataDir, SITE, crawlId)!;
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    await conn.run(`ATTACH ${quoteLiteral(live.dbFile)} AS c (READ_ONLY)`);
    const reader = await conn.runAndReadAll(
      `SELECT report_id, row_count, added_count, removed_count, previous_crawl_id FROM c.${REPORT_COUNTS_TABLE} ORDER BY report_id`,
    );
    return reader
      .getRowsJS()
      .map((r) => [textOf(r[0]), ...r.slice(1).map((v) => (v === null ? null : Number(v)))]) as CountRow[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

const metaOf = (dataDir: string, crawlId: number) => readCrawlMeta(readCurrentLoad(dataDir, SITE, crawlId)!.dir);

const copyOf = (dataDir: string): string => {
  const copy = tempDir('thc-refresh-copy-');
  fs.cpSync(dataDir, copy, { recursive: true });
  return copy;
};

beforeAll(async () => {
  const out = tempDir('thc-refresh-exports-');
  exportDirs = (await copyOfGeneratedSite({ outDir: out, site: SITE, urls: 300, crawls: 3 })).crawlDirs;
  inOrder = tempDir('thc-refresh-in-order-');
  for (const dir of exportDirs) await loadCrawl({ dataDir: inOrder, exportDir: dir });
}, 180_000);

afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('an older crawl loaded after a newer one', () => {
  it('precomputes the newer crawl again against it, as if loaded in order', async () => {
    const dataDir = tempDir('thc-refresh-late-');
    const first = await loadCrawl({ dataDir, exportDir: exportDirs[0]! });
    const third = await loadCrawl({ dataDir, exportDir: exportDirs[2]! });
    expect([first.refreshedCrawlId, third.refreshedCrawlId, third.previousCrawlId]).toEqual([null, null, 1]);
    const second = await loadCrawl({ dataDir, exportDir: exportDirs[1]! });
    expect(second.refreshedCrawlId).toBe(3);

    const expected = await reportCounts(inOrder, 3);
    expect(expected.some(([, , added, removed]) => (added ?? 0) + (removed ?? 0) > 0)).toBe(true);
    expect(await reportCounts(dataDir, 3)).toEqual(expected);
    expect(readCurrentLoad(dataDir, SITE, 3)!.loadId).not.toBe(third.loadId);
    expect(metaOf(dataDir, 3)).toMatchObject({ previousCrawlId: 2, dataId: third.loadId });
    expect(await findStaleCrawls(dataDir)).toEqual([]);
  }, 120_000);
});

describe('a data dir precomputed by an older engine build', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = copyOf(inOrder);
    // What the previous build left: no version table, and report_counts without today's columns.
    const db = await openDatabase(readCurrentLoad(dataDir, SITE, 2)!.dbFile);
    const conn = await db.connect();
    try {
      await conn.run(`DROP TABLE ${PRECOMPUTE_INFO_TABLE}`);
      await conn.run(`ALTER TABLE ${REPORT_COUNTS_TABLE} DROP COLUMN previous_data_id`);
      await conn.run(`ALTER TABLE ${REPORT_COUNTS_TABLE} DROP COLUMN removed_table`);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('names the stale crawl and why', async () => {
    expect(await findStaleCrawls(dataDir)).toEqual([
      {
        websiteId: SITE,
        crawlId: 2,
        reason: `precomputed by engine version before 2, this build uses ${PRECOMPUTE_VERSION}`,
      },
    ]);
  });

  it('serves it with live queries that give the precomputed figures', async () => {
    const expected = new Map((await reportCounts(inOrder, 2)).map((r) => [r[0], r]));
    const db = await openDatabase();
    const registry = await openCrawlRegistry(dataDir, db);
    const engine = new ReportEngine(db, registry);
    try {
      const current = await engine.target(registry.crawl(SITE, 2)!);
      const previous = await engine.target(registry.crawl(SITE, 1)!);
      expect(current.precomputed.size).toBe(0);
      for (const report of catalog.reports.filter((r) => ['urls', 'links'].includes(r.tableId)).slice(0, 12)) {
        const stats = await engine.stats(report, current, previous);
        const [, rows, added, removed] = expected.get(report.id)!;
        expect([report.id, stats.rowCount, stats.added, stats.removed]).toEqual([report.id, rows, added, removed]);
        const page = await engine.rows(tabRequest(report, current, previous, 'removed'));
        expect(page.total).toBe(removed);
      }
    } finally {
      engine.dispose();
      db.closeSync();
    }
  }, 120_000);

  it('`npm run load-crawl -- --refresh` precomputes it again and leaves the others alone', () => {
    const before2 = readCurrentLoad(dataDir, SITE, 2)!;
    const before3 = readCurrentLoad(dataDir, SITE, 3)!;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--refresh'], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `load-crawl: refreshing crawl 2 of website "${SITE}": precomputed by engine version`,
    );
    expect(result.stdout).toContain('load-crawl: refreshed 1 crawls');
    const after2 = readCurrentLoad(dataDir, SITE, 2)!;
    expect(after2.loadId).not.toBe(before2.loadId);
    expect(fs.existsSync(before2.dir)).toBe(false);
    expect(dataIdOf(metaOf(dataDir, 2))).toBe(before2.loadId);
    expect(readCurrentLoad(dataDir, SITE, 3)!.loadId).toBe(before3.loadId);
  }, 120_000);

  it('then matches a fresh load and leaves nothing stale', async () => {
    expect(await reportCounts(dataDir, 2)).toEqual(await reportCounts(inOrder, 2));
    expect(await findStaleCrawls(dataDir)).toEqual([]);
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--refresh'], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect([again.status, again.stdout.trim()]).toEqual([0, 'load-crawl: every crawl is up to date']);
  });
});

describe('a crawl precomputed under the previous PRECOMPUTE_VERSION', () => {
  it('is stale by that version alone, and served live until refreshed', async () => {
    const dataDir = copyOf(inOrder);
    // Everything else as this build writes it: only the recorded version differs.
    const db = await openDatabase(readCurrentLoad(dataDir, SITE, 3)!.dbFile);
    const conn = await db.connect();
    try {
      await conn.run(`UPDATE ${PRECOMPUTE_INFO_TABLE} SET version = ${PRECOMPUTE_VERSION - 1}`);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    expect(await findStaleCrawls(dataDir)).toEqual([
      {
        websiteId: SITE,
        crawlId: 3,
        reason: `precomputed by engine version ${PRECOMPUTE_VERSION - 1}, this build uses ${PRECOMPUTE_VERSION}`,
      },
    ]);
    const engineDb = await openDatabase();
    const registry = await openCrawlRegistry(dataDir, engineDb);
    const engine = new ReportEngine(engineDb, registry);
    try {
      expect((await engine.target(registry.crawl(SITE, 3)!)).precomputed.size).toBe(0);
      expect((await engine.target(registry.crawl(SITE, 2)!)).precomputed.size).toBe(catalog.reports.length);
    } finally {
      engine.dispose();
      engineDb.closeSync();
    }
  }, 120_000);
});

describe('a refresh after report definitions changed', () => {
  it('precomputes only the changed reports and keeps the rest as they were', async () => {
    const dataDir = copyOf(inOrder);
    const live = readCurrentLoad(dataDir, SITE, 2)!;
    const previous = readCurrentLoad(dataDir, SITE, 1)!;
    const changed = ['internal/all', 'links/internal-broken'];
    const db = await openDatabase(live.dbFile);
    const conn = await db.connect();
    const computed: string[] = [];
    try {
      // What an older catalogue left: other fingerprints for two reports, and a report this one no longer has.
      await conn.run(
        `UPDATE ${REPORT_COUNTS_TABLE} SET fingerprint = 'older' WHERE report_id IN ('${changed.join("', '")}')`,
      );
      await conn.run(`CREATE TABLE rr_retired__report AS SELECT 1 AS x`);
      await conn.run(`INSERT INTO ${REPORT_COUNTS_TABLE} SELECT * REPLACE ('retired/report' AS report_id,
        'rr_retired__report' AS row_table) FROM ${REPORT_COUNTS_TABLE} LIMIT 1`);
      await precomputeCrawl(
        conn,
        { manifest: metaOf(dataDir, 2).manifest, previous: { crawlId: 1, dbFile: previous.dbFile } },
        { onReport: (id) => computed.push(id) },
      );
      const tables = (
        await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'rr_retired%'`)
      ).getRowsJS();
      expect(tables).toEqual([]);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    expect(computed.sort()).toEqual(changed);
    expect(await reportCounts(dataDir, 2)).toEqual(await reportCounts(inOrder, 2));
  }, 120_000);
});

describe('bad refresh requests', () => {
  const cli = (args: string[], dataDir: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', ...args], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });

  it('refuses --refresh with an export dir, with --replace, and --website without --refresh: exit 2, one line, nothing written', () => {
    const dataDir = copyOf(inOrder);
    const before = fs.readdirSync(path.join(dataDir, 'store', SITE, '2'));
    for (const [args, problem] of [
      [['--refresh', 'some/export'], '--refresh takes no EXPORT_DIR (got some/export)'],
      [['--refresh', '--replace'], '--refresh and --replace do not go together'],
      [['some/export', '--website', SITE], '--website goes with --refresh'],
    ] as const) {
      const result = cli([...args], dataDir);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`load-crawl: ${problem} (usage:`)]);
    }
    expect(fs.readdirSync(path.join(dataDir, 'store', SITE, '2'))).toEqual(before);
  });

  it('refuses to refresh a crawl that is not loaded, naming it', async () => {
    const dataDir = copyOf(inOrder);
    await expect(refreshCrawl({ dataDir, websiteId: SITE, crawlId: 9 })).rejects.toMatchObject({
      kind: 'not-loaded',
      message: `${path.join(dataDir, 'store', SITE, '9')}: crawl 9 of website "${SITE}" is not loaded`,
    });
    expect(await findStaleCrawls(dataDir)).toEqual([]);
  });
});
