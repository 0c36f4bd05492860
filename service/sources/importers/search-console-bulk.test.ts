import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteLiteral } from '../../db/duckdb.ts';
import { openSourceFile } from '../detect-format.ts';
import { stageFiles } from '../stage-files.ts';
import { searchConsoleBulk } from './search-console-bulk.ts';

const BULK_CSV = path.resolve(
  import.meta.dirname,
  '../../../fixtures/sources/search-console/bulk/searchdata_url_impression.csv',
);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-bulk-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function asParquet(csv: string, name: string, select = '*'): Promise<string> {
  const file = path.join(work, name);
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  await conn.run(
    `COPY (SELECT ${select} FROM read_csv(${quoteLiteral(csv)}, header = true, auto_detect = true)) TO ${quoteLiteral(file)} (FORMAT parquet)`,
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

  it("keeps the vendor's Parquet file as it is, hashed while copied, when its types and statistics fit", async () => {
    const parquet = await asParquet(BULK_CSV, 'kept.parquet');
    const staged = await stageFiles(searchConsoleBulk, [parquet]);
    expect(staged.vendorFiles?.get('searchdata_url_impression')).toEqual({ hasQuery: true });
    const sha256 = crypto.createHash('sha256').update(fs.readFileSync(parquet)).digest('hex');
    expect((await staged.hashes)?.get(parquet)).toBe(sha256);
    // The CSV is rewritten, its hash taken while DuckDB reads it.
    const fromCsv = await stageFiles(searchConsoleBulk, [BULK_CSV]);
    expect(fromCsv.vendorFiles).toBeUndefined();
    expect((await fromCsv.hashes)?.get(BULK_CSV)).toBe(
      crypto.createHash('sha256').update(fs.readFileSync(BULK_CSV)).digest('hex'),
    );
  });

  it('rewrites a Parquet file whose statistics do not show every cell fits, and names the bad one', async () => {
    const negative = await asParquet(
      BULK_CSV,
      'negative.parquet',
      `* REPLACE (CASE WHEN clicks = 9 THEN -9 ELSE clicks END AS clicks)`,
    );
    await expect(stageFiles(searchConsoleBulk, [negative])).rejects.toThrow(
      `${negative}: row 2, column clicks "-9" is negative`,
    );
    const noUrl = await asParquet(
      BULK_CSV,
      'no-url.parquet',
      `* REPLACE (CASE WHEN clicks = 9 THEN NULL ELSE url END AS url)`,
    );
    await expect(stageFiles(searchConsoleBulk, [noUrl])).rejects.toThrow(`${noUrl}: row 2, column url: empty`);
    // Without a query column (every query anonymized), still kept.
    const noQuery = await asParquet(BULK_CSV, 'no-query.parquet', '* EXCLUDE (query)');
    const staged = await stageFiles(searchConsoleBulk, [noQuery]);
    expect(staged.vendorFiles?.get('searchdata_url_impression')).toEqual({ hasQuery: false });
    expect(staged.tables.searchdata_url_impression!.every((r) => r.query === null)).toBe(true);
  });

  it("refuses the bulk export's site table by its name, as CSV and as Parquet", async () => {
    const csv = path.join(work, 'site.csv');
    fs.writeFileSync(
      csv,
      'data_date,site_url,query,is_anonymized_query,country,search_type,device,impressions,clicks,sum_top_position\n' +
        '2026-11-02,sc-domain:alpine-travel.eu,alpine travel,false,deu,WEB,DESKTOP,120,14,96\n',
    );
    expect(searchConsoleBulk.detect(openSourceFile(csv, csv))).toBe(true);
    const message =
      "the bulk export's site table (searchdata_site_impression) is not imported: its rows are the whole property's totals";
    await expect(stageFiles(searchConsoleBulk, [csv])).rejects.toThrow(`${csv}: ${message}`);
    const parquet = await asParquet(csv, 'site.parquet');
    await expect(stageFiles(searchConsoleBulk, [parquet])).rejects.toThrow(`${parquet}: ${message}`);
    await expect(stageFiles(searchConsoleBulk, [csv])).rejects.toThrow(
      "Import the same export's URL table, searchdata_url_impression, instead: it feeds the pages and the query report",
    );
  });

  // Counted from the statistics of the staged Parquet file; only then is the file read again to name the cell.
  it.each([
    ['clicks', 4, 'nine', 'clicks "nine" is not a whole number'],
    ['impressions', 5, '-3', 'impressions "-3" is negative'],
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
