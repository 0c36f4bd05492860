import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteIdent } from '../db/duckdb.ts';
import { openSourceFile } from './detect-format.ts';
import { searchConsoleBulk } from './importers/search-console-bulk.ts';
import { normaliseStaged } from './merge-version.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-normalise-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const ORIGIN = 'https://www.example.com';
const HEADER =
  'data_date,site_url,url,query,is_anonymized_query,is_anonymized_discover,country,search_type,device,impressions,clicks,sum_position';

/** One page on one day, seen from two countries: 10 and 30 impressions at positions 3 and 2. */
const bulkCsv = (name: string, urls: [string, string]): string => {
  const file = path.join(work, name);
  fs.writeFileSync(
    file,
    [
      HEADER,
      `2026-11-02,sc-domain:example.com,${urls[0]},red shoes,false,false,gbr,WEB,MOBILE,10,2,20`,
      `2026-11-02,sc-domain:example.com,${urls[1]},,true,false,deu,WEB,DESKTOP,30,1,30`,
      '',
    ].join('\n'),
  );
  return file;
};

async function normalised(file: string) {
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  try {
    const staged = await searchConsoleBulk.stage([openSourceFile(file, file)], {
      conn,
      workDir: work,
      range: undefined,
    });
    const result = await normaliseStaged(conn, staged, ORIGIN, work);
    const rowsOf = async (table: string) =>
      (await conn.runAndReadAll(`SELECT url, clicks, impressions, position FROM ${quoteIdent(table)} ORDER BY ALL`))
        .getRowObjectsJS()
        .map((r) => ({ ...r, clicks: Number(r.clicks), impressions: Number(r.impressions) }));
    return {
      rows: result.rows,
      skippedRows: result.skippedRows,
      pages: await rowsOf(result.tables.get('search_console')!),
      queries: await rowsOf(result.tables.get('search_console_queries')!),
    };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

describe('normalising staged bulk export rows', () => {
  const page = { url: `${ORIGIN}/shoes/`, clicks: 3, impressions: 40, position: 2.25 };
  const query = { url: `${ORIGIN}/shoes/`, clicks: 2, impressions: 10, position: 3 };

  it('takes rows whose URLs the crawler would write the same as they are, summed per day and URL', async () => {
    const result = await normalised(bulkCsv('canonical.csv', [`${ORIGIN}/shoes/`, `${ORIGIN}/shoes/`]));
    expect(result.pages).toEqual([page]);
    expect(result.queries).toEqual([query]);
    expect(result).toMatchObject({ rows: 2, skippedRows: 0 });
  });

  it('sums again the rows of two URLs that name one page once normalised (host case, fragment)', async () => {
    const result = await normalised(
      bulkCsv('two-spellings.csv', ['https://WWW.Example.com/shoes/#top', `${ORIGIN}/shoes/`]),
    );
    expect(result.pages).toEqual([page]);
    expect(result.queries).toEqual([query]);
    expect(result).toMatchObject({ rows: 2, skippedRows: 0 });
  });

  it('skips and counts rows whose URL is on no http(s) origin', async () => {
    const result = await normalised(bulkCsv('skipped.csv', ['mailto:shop@example.com', `${ORIGIN}/shoes/`]));
    expect(result.pages).toEqual([{ url: `${ORIGIN}/shoes/`, clicks: 1, impressions: 30, position: 2 }]);
    expect(result.queries).toEqual([]);
    expect(result).toMatchObject({ rows: 1, skippedRows: 2 });
  });
});
