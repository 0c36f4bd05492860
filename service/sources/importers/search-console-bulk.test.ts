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
const SITE_CSV = path.join(path.dirname(BULK_CSV), 'searchdata_site_impression.csv');
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

  it("reads the site table's property totals per day and query from CSV, NDJSON and Parquet alike", async () => {
    // By hand from the file: 2026-11-02 "alpine travel" is three rows (150 + 100 + 20 impressions, 16 + 10 + 0
    // clicks, top positions summed 90 + 80 + 110, zero-based), so position 280 / 270 + 1.
    const expected = [
      { date: '2026-11-02', query: 'alpine travel', clicks: 26n, impressions: 270n, position: 280 / 270 + 1 },
      { date: '2026-11-02', query: 'berchtesgaden urlaub', clicks: 2n, impressions: 50n, position: 8 },
      { date: '2026-11-03', query: 'alpine travel', clicks: 12n, impressions: 130n, position: 1.5 },
      { date: '2026-11-03', query: 'urlaub, deutschland', clicks: 1n, impressions: 70n, position: 9 },
    ];
    const note = '2 site table rows of anonymized queries (2 clicks, 42 impressions) left out: they have no query text';
    const byKey = (rows: Record<string, unknown>[]) =>
      [...rows].sort((a, b) =>
        `${String(a.date)}${String(a.query)}`.localeCompare(`${String(b.date)}${String(b.query)}`),
      );
    for (const file of [SITE_CSV, SITE_CSV.replace(/csv$/, 'ndjson'), await asParquet(SITE_CSV, 'site.parquet')]) {
      expect(searchConsoleBulk.detect(openSourceFile(file, file))).toBe(true);
      const staged = await stageFiles(searchConsoleBulk, [file]);
      expect(Object.keys(staged.tables)).toEqual(['search_console_site']);
      expect(byKey(staged.tables.search_console_site!)).toEqual(expected);
      expect(staged.coverage).toEqual({ start: '2026-11-02', end: '2026-11-03', granularity: 'day' });
      expect(staged.notes).toEqual([note]);
    }
    // Given together, each table goes to its own place.
    const both = await stageFiles(searchConsoleBulk, [BULK_CSV, SITE_CSV]);
    expect(Object.keys(both.tables).sort()).toEqual(['search_console_site', 'searchdata_url_impression']);
  });

  it('leaves out a near miss of the site table, and names bad cells of it by line and column', async () => {
    const lines = fs.readFileSync(SITE_CSV, 'utf8').split('\n');
    const near = path.join(work, 'near.csv');
    fs.writeFileSync(near, [lines[0]!.replace('sum_top_position', 'sum_top_positions'), ...lines.slice(1)].join('\n'));
    expect(searchConsoleBulk.detect(openSourceFile(near, near))).toBe(false);
    const bad = (line: number, column: string, value: string): string => {
      const copy = [...lines];
      const header = copy[0]!.split(',');
      const cells = copy[line - 1]!.split(',');
      cells[header.indexOf(column)] = value;
      copy[line - 1] = cells.join(',');
      const file = path.join(work, `site-bad-${column}.csv`);
      fs.writeFileSync(file, copy.join('\n'));
      return file;
    };
    const clicks = bad(3, 'clicks', 'ten');
    await expect(stageFiles(searchConsoleBulk, [clicks])).rejects.toThrow(
      `${clicks}:3:9: clicks "ten" is not a whole number`,
    );
    const top = bad(4, 'sum_top_position', '-1');
    await expect(stageFiles(searchConsoleBulk, [top])).rejects.toThrow(
      `${top}:4:10: sum_top_position "-1" is negative`,
    );
    const noTop = path.join(work, 'site-no-clicks.ndjson');
    fs.writeFileSync(
      noTop,
      fs.readFileSync(SITE_CSV.replace(/csv$/, 'ndjson'), 'utf8').replace('"clicks": "10", ', ''),
    );
    await expect(stageFiles(searchConsoleBulk, [noTop])).rejects.toThrow(`${noTop}: row 2, column clicks empty`);
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
