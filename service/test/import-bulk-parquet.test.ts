/**
 * The bulk export's Parquet file kept as it is: imported by the real CLI, the version's raw file is the vendor's own
 * (byte for byte, its sha256 in source.json) read through a projection, and the crawl joins the sums DuckDB makes of
 * the same rows; their CSV changes nothing; a file on other days is merged with it; removing the first import leaves
 * the second's rows.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { storeDir } from '../store/layout.ts';
import { removeImport } from '../sources/remove-import.ts';
import { readSourceVersion } from '../source-data/source-store.ts';
import { loadTestCrawl, tempDir } from './auth-fixture.ts';
import { queryCrawl, runImportData } from './helpers/import-cli.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';

const SITE = 'acme-shoes';
const HEADER =
  'data_date,site_url,url,query,is_anonymized_query,country,search_type,device,impressions,clicks,sum_position';
let dataDir: string;
let work: string;

/** Rows on `days` days from `first`, every fifth query anonymized (no text); URLs as the crawler writes them. */
function bulkCsv(file: string, rows: number, first: string, days: number): void {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.parse(first) + (i % days) * 86_400_000).toISOString().slice(0, 10);
    const query = i % 5 === 0 ? '' : `q${i % 7}`;
    lines.push(
      `${day},sc-domain:example.com,https://www.example.com/p${i % 50},${query},${query === ''},gbr,WEB,${i % 2 ? 'MOBILE' : 'DESKTOP'},${1 + (i % 9)},${i % 3},${i % 40}`,
    );
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

async function sql<T>(text: string): Promise<T[]> {
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(text)).getRowObjectsJS() as T[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

async function asParquet(csv: string): Promise<string> {
  const file = csv.replace(/\.csv$/, '.parquet');
  await sql(`COPY (SELECT * FROM read_csv(${quoteLiteral(csv)})) TO ${quoteLiteral(file)} (FORMAT parquet)`);
  return file;
}

const importData = (...args: string[]) => runImportData(dataDir, SITE, ['--source', 'search-console', ...args]);
const perDay = (from: string) =>
  `SELECT date::VARCHAR AS date, url, sum(clicks)::INTEGER AS clicks, sum(impressions)::INTEGER AS impressions ${from} GROUP BY ALL ORDER BY ALL`;
const joined = () => queryCrawl<Record<string, unknown>>(dataDir, SITE, 1, perDay('FROM search_console'));
const expected = (...csvs: string[]) =>
  sql(
    perDay(
      `FROM (SELECT data_date AS date, url, clicks, impressions FROM read_csv([${csvs.map(quoteLiteral).join(', ')}]) WHERE data_date BETWEEN '2024-04-06' AND '2024-05-05')`,
    ),
  );

let csv: string;
let parquet: string;

beforeAll(async () => {
  dataDir = tempDir('thc-bulk-parquet-');
  work = tempDir('thc-bulk-parquet-files-');
  await loadTestCrawl(dataDir, SITE, 1, '2024-05-06T09:30:00Z');
  csv = path.join(work, 'searchdata_url_impression.csv');
  bulkCsv(csv, 400, '2024-04-10', 10);
  parquet = await asParquet(csv);
}, 240_000);

describe("the bulk export's Parquet file kept as it is", () => {
  it('is the version raw file byte for byte, and the crawl joins its sums', async () => {
    const run = importData(parquet);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const version = readSourceVersion(dataDir, SITE, 'search-console')!;
    expect(version.meta.vendorFiles).toEqual({
      searchdata_url_impression: { import: version.meta.versionId, hasQuery: true },
    });
    const bytes = fs.readFileSync(parquet);
    expect(fs.readFileSync(version.fileOf('searchdata_url_impression')!).equals(bytes)).toBe(true);
    expect(version.meta.imports[0]!.files[0]!.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    expect(version.meta.tables).toEqual({ searchdata_url_impression: 400 });
    const rows = await joined();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await expected(csv));
    // Anonymized queries (no text) count for their page, not as queries.
    const [queries] = await queryCrawl<{ n: bigint }>(
      dataDir,
      SITE,
      1,
      'SELECT sum(impressions) AS n FROM search_console_queries',
    );
    const [named] = await sql<{ n: bigint }>(
      `SELECT sum(impressions) AS n FROM read_csv(${quoteLiteral(csv)}) WHERE query IS NOT NULL`,
    );
    expect(queries!.n).toBe(named!.n);
  }, 240_000);

  it('changes nothing when the CSV of the same rows comes', () => {
    const before = snapshotTree(storeDir(dataDir));
    const again = importData(csv);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('nothing changed');
    expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  }, 240_000);

  it('is merged with a file on other days, and removing it leaves the other rows', async () => {
    const later = path.join(work, 'later.csv');
    bulkCsv(later, 120, '2024-04-25', 5);
    const run = importData(await asParquet(later));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const merged = readSourceVersion(dataDir, SITE, 'search-console')!;
    expect(merged.meta.vendorFiles).toBeUndefined();
    expect(merged.meta.tables).toEqual({ searchdata_url_impression: 520 });
    expect(await joined()).toEqual(await expected(csv, later));
    const removed = await removeImport({
      dataDir,
      websiteId: SITE,
      source: 'search-console',
      importId: merged.meta.imports[0]!.id!,
    });
    expect(removed.removedRows).toBe(400);
    expect(removed.refreshFailure).toBeNull();
    expect(await joined()).toEqual(await expected(later));
  }, 240_000);
});
