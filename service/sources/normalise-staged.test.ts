import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, quoteIdent } from '../db/duckdb.ts';
import { openSourceFile } from './detect-format.ts';
import { searchConsoleBulk } from './importers/search-console-bulk.ts';
import { normaliseStaged } from './normalise-staged.ts';
import { fedRowsOf } from '../source-data/raw-rows.ts';

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
    const raw = new Map([['searchdata_url_impression', quoteIdent(result.tables.get('searchdata_url_impression')!)]]);
    // Summed as a crawl's join sums them.
    const rowsOf = async (table: string) =>
      (
        await conn.runAndReadAll(
          `SELECT url, clicks, impressions, position FROM (${fedRowsOf(table, undefined, raw, 'TRUE')}) ORDER BY ALL`,
        )
      )
        .getRowObjectsJS()
        .map((r) => ({ ...r, clicks: Number(r.clicks), impressions: Number(r.impressions) }));
    const urls = await conn.runAndReadAll(`SELECT url FROM ${result.urls} ORDER BY url`);
    return {
      rows: result.rows,
      skippedRows: result.skippedRows,
      isTakenWhole: result.files.size > 0,
      urls: urls.getRowsJS().map((r) => r[0]),
      pages: await rowsOf('search_console'),
      queries: await rowsOf('search_console_queries'),
    };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

describe('normalising staged bulk export rows, kept raw and summed where a crawl joins them', () => {
  const page = { url: `${ORIGIN}/shoes/`, clicks: 3, impressions: 40, position: 2.25 };
  const query = { url: `${ORIGIN}/shoes/`, clicks: 2, impressions: 10, position: 3 };

  it('takes rows whose URLs the crawler would write the same as they are, its staged file whole', async () => {
    const result = await normalised(bulkCsv('canonical.csv', [`${ORIGIN}/shoes/`, `${ORIGIN}/shoes/`]));
    expect(result.pages).toEqual([page]);
    expect(result.queries).toEqual([query]);
    expect(result).toMatchObject({ rows: 2, skippedRows: 0, isTakenWhole: true, urls: [`${ORIGIN}/shoes/`] });
  });

  it.each([
    ['an upper-case host', 'https://WWW.example.com/shoes/'],
    ['a default port', 'https://www.example.com:443/shoes/'],
    ['a dot segment', 'https://www.example.com/bags/../shoes/'],
    ['an escape of an unreserved character', 'https://www.example.com/%73hoes/'],
  ])('normalises a URL with %s, which the crawler writes otherwise', async (_, url) => {
    const result = await normalised(bulkCsv(`odd-${url.length}.csv`, [url, `${ORIGIN}/shoes/`]));
    expect(result.pages).toEqual([page]);
    expect(result).toMatchObject({ isTakenWhole: false, urls: [`${ORIGIN}/shoes/`] });
  });

  it('sums again the rows of two URLs that name one page once normalised (host case, fragment)', async () => {
    const result = await normalised(
      bulkCsv('two-spellings.csv', ['https://WWW.Example.com/shoes/#top', `${ORIGIN}/shoes/`]),
    );
    expect(result.pages).toEqual([page]);
    expect(result.queries).toEqual([query]);
    expect(result).toMatchObject({ rows: 2, skippedRows: 0, isTakenWhole: false });
  });

  it('skips and counts rows whose URL is on no http(s) origin', async () => {
    const result = await normalised(bulkCsv('skipped.csv', ['mailto:shop@example.com', `${ORIGIN}/shoes/`]));
    expect(result.pages).toEqual([{ url: `${ORIGIN}/shoes/`, clicks: 1, impressions: 30, position: 2 }]);
    expect(result.queries).toEqual([]);
    expect(result).toMatchObject({ rows: 1, skippedRows: 1 });
  });
});
