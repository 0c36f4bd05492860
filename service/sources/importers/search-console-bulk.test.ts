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
  it('reads the same raw rows from CSV and Parquet, one per row of the file, not summed', async () => {
    const fromCsv = await stageFiles(searchConsoleBulk, [BULK_CSV]);
    const fromParquet = await stageFiles(searchConsoleBulk, [await asParquet(BULK_CSV, 'bulk.parquet')]);
    const lines = fs.readFileSync(BULK_CSV, 'utf8').trimEnd().split('\n').length - 1;
    expect(fromCsv.tables.searchdata_url_impression).toHaveLength(lines);
    expect(Object.keys(fromCsv.tables)).toEqual(['searchdata_url_impression']);
    const sorted = (rows: Record<string, unknown>[]) =>
      rows.map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))).sort();
    expect(sorted(fromParquet.tables.searchdata_url_impression!)).toEqual(
      sorted(fromCsv.tables.searchdata_url_impression!),
    );
    expect(fromParquet.coverage).toEqual(fromCsv.coverage);
  });

  // Counted from the statistics of the staged Parquet file; only then is the file read again to name the cell.
  it.each([
    ['clicks', 4, 'nine', 'clicks "nine" is not a whole number'],
    ['url', 3, ' ', 'url is empty'],
  ])('names the first bad cell of column %s by line and column', async (column, line, value, message) => {
    const lines = fs.readFileSync(BULK_CSV, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const cells = lines[line - 1]!.split(',');
    cells[header.indexOf(column)] = value;
    lines[line - 1] = cells.join(',');
    const bad = path.join(work, `bad-${column}.csv`);
    fs.writeFileSync(bad, lines.join('\n'));
    await expect(stageFiles(searchConsoleBulk, [bad])).rejects.toThrow(
      `${bad}:${line}:${header.indexOf(column) + 1}: ${message}`,
    );
  });
});
