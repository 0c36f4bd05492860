import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteLiteral } from '../../db/duckdb.ts';
import { stageFiles } from '../stage-files.ts';
import { searchConsoleBulk } from './search-console-bulk.ts';

const BULK_CSV = path.resolve(
  import.meta.dirname,
  '../../../fixtures/sources/search-console/bulk/searchdata_url_impression.csv',
);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-bulk-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function asParquet(csv: string, name: string): Promise<string> {
  const file = path.join(work, name);
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  await conn.run(
    `COPY (SELECT * FROM read_csv(${quoteLiteral(csv)}, header = true, auto_detect = true)) TO ${quoteLiteral(file)} (FORMAT parquet)`,
  );
  conn.closeSync();
  db.closeSync();
  return file;
}

describe('the Search Console bulk export', () => {
  it('reads the same rows from CSV and Parquet, summed per day and URL and per day, URL and query', async () => {
    const fromCsv = await stageFiles(searchConsoleBulk, [BULK_CSV]);
    const fromParquet = await stageFiles(searchConsoleBulk, [await asParquet(BULK_CSV, 'bulk.parquet')]);
    expect(fromCsv.tables.search_console!.length).toBeGreaterThan(0);
    expect(fromCsv.tables.search_console_queries!.length).toBeGreaterThan(0);
    const sorted = (rows: Record<string, unknown>[]) =>
      rows.map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))).sort();
    for (const table of ['search_console', 'search_console_queries'])
      expect(sorted(fromParquet.tables[table]!)).toEqual(sorted(fromCsv.tables[table]!));
    expect(fromParquet.coverage).toEqual(fromCsv.coverage);
  });

  it('names the first bad cell by line and column, found by reading the file again only then', async () => {
    const lines = fs.readFileSync(BULK_CSV, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const cells = lines[3]!.split(',');
    cells[header.indexOf('clicks')] = 'nine';
    lines[3] = cells.join(',');
    const bad = path.join(work, 'bad.csv');
    fs.writeFileSync(bad, lines.join('\n'));
    await expect(stageFiles(searchConsoleBulk, [bad])).rejects.toThrow(
      `${bad}:4:${header.indexOf('clicks') + 1}: clicks "nine" is not a whole number`,
    );
  });
});
