/**
 * A crawl loaded before the contract gained a source table (search_console_site) stays on the dashboard: served
 * without that table (the query report falls back to the pages' sums), named stale, and given the table, empty, by
 * `load-crawl --refresh`. Real loads, a real crawl database made old by dropping the table from it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteLiteral, textOf, withConnection } from '../db/duckdb.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { findStaleCrawls, refreshStaleCrawls } from '../load/refresh.ts';
import { queryReport } from '../query-report/query-report.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';
import { readCurrentLoad } from '../store/layout.ts';
import { makeExport } from './helpers/make-export.ts';

const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `thc-contract-added-${prefix}`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

async function tablesOf(dbFile: string): Promise<string[]> {
  const db = await openDatabase();
  try {
    return await withConnection(db, async (conn) => {
      await conn.run(`ATTACH ${quoteLiteral(dbFile)} AS c (READ_ONLY)`);
      const reader = await conn.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'c' ORDER BY table_name",
      );
      return reader.getRowsJS().map((row) => textOf(row[0]));
    });
  } finally {
    db.closeSync();
  }
}

describe('a crawl loaded before the contract had search_console_site', () => {
  it('is served, falls back to the pages’ sums, is named stale and gets the table at its refresh', async () => {
    const dataDir = tempDir('data-');
    const { websiteId, crawlId, dbFile } = await loadCrawl({
      dataDir,
      exportDir: (await makeExport({ dir: tempDir('export-'), tables: { search_console: {} } })).dir,
    });
    const writer = await openDatabase(dbFile);
    await withConnection(writer, (conn) => conn.run('DROP TABLE search_console_site'));
    writer.closeSync();
    expect(await tablesOf(dbFile)).not.toContain('search_console_site');

    const db = await openDatabase();
    try {
      const registry = await openCrawlRegistry(dataDir, db);
      expect(registry.unreadable()).toEqual([]);
      const served = registry.crawls(websiteId);
      expect(served.map((c) => [c.crawlId, c.missingTables])).toEqual([[crawlId, ['search_console_site']]]);
      const report = await queryReport(db, served[0]!, 'anything', { start: '2024-01-01', end: '2024-12-31' });
      expect(report.searchConsole.figures).toBe('pages');
    } finally {
      db.closeSync();
    }

    expect(await findStaleCrawls(dataDir)).toEqual([
      { websiteId, crawlId, reason: 'loaded before the contract had search_console_site' },
    ]);
    expect(await refreshStaleCrawls({ dataDir })).toHaveLength(1);
    expect(await findStaleCrawls(dataDir)).toEqual([]);
    const refreshed = readCurrentLoad(dataDir, websiteId, crawlId)!;
    expect(await tablesOf(refreshed.dbFile)).toContain('search_console_site');
    const after = await openDatabase();
    try {
      const registry = await openCrawlRegistry(dataDir, after);
      expect(registry.crawls(websiteId).map((c) => [c.crawlId, c.missingTables])).toEqual([[crawlId, []]]);
    } finally {
      after.closeSync();
    }
  });
});
