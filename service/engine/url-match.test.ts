import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, textOf } from '../db/duckdb.ts';
import { raw } from './sql.ts';
import { codedUrlSql, urlMatchCondition, urlMatchPrefixOf } from './url-match.ts';

const PREFIX = 'https://www.shop.example';
const urls = [
  'https://www.shop.example/',
  'https://www.shop.example/Products/Red-Shoe?x=1',
  'https://www.shop.example',
  'https://www.shop.example.evil/phish',
  'https://www.shop.exampl/typo',
  'http://www.shop.example/plain-http',
  'https://cdn.example/www.shop.example/asset.png',
  'https://www.shop.example/https://www.shop.example/twice',
  'mailto:x@www.shop.example',
];

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await openDatabase();
  conn = await db.connect();
  await conn.run(`CREATE TABLE u (_lc VARCHAR)`);
  for (const url of urls) await conn.run(`INSERT INTO u VALUES (lower(?))`, [url]);
  await conn.run(`CREATE TABLE c AS SELECT _lc, ${codedUrlSql(PREFIX)} AS _um FROM u`);
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

const matched = async (text: string): Promise<{ plain: string[]; coded: string[] }> => {
  const condition = urlMatchCondition(raw('"_um"'), PREFIX, text)!;
  const reader = await conn.runAndReadAll(`SELECT _lc FROM c WHERE ${condition.sql} ORDER BY _lc`, [
    ...condition.params,
  ] as never);
  return {
    plain: urls
      .map((u) => u.toLowerCase())
      .filter((u) => u.includes(text.toLowerCase()))
      .sort(),
    coded: reader.getRowsJS().map((r) => textOf(r[0])),
  };
};

describe('URL-match coding', () => {
  it('codes the prefix of URLs that begin with it, and no other', async () => {
    const rows = (await conn.runAndReadAll('SELECT _lc, _um FROM c ORDER BY _lc')).getRowsJS();
    for (const [lc, um] of rows) {
      const text = textOf(lc);
      expect(um).toBe(text.startsWith(PREFIX) ? `\u0001${text.slice(PREFIX.length)}` : text);
    }
    expect(urlMatchPrefixOf('https://WWW.Shop.example/start?x')).toBe(PREFIX);
  });

  it('matches what contains() on the lower-case URL matches, for every substring near the prefix end', async () => {
    const texts = new Set<string>(['zzz', 'https://www.shop.example/https', 'E/', 'SHOP.EXAMPLE/P']);
    for (const url of urls)
      for (let i = 0; i < Math.min(url.length, PREFIX.length + 4); i++)
        for (let j = i + 1; j <= Math.min(url.length, i + 12, PREFIX.length + 8); j++) texts.add(url.slice(i, j));
    let across = 0;
    for (const text of texts) {
      const { plain, coded } = await matched(text);
      expect(coded, text).toEqual(plain);
      if (urlMatchCondition(raw('"_um"'), PREFIX, text)!.params.length > 1) across++;
    }
    // The near miss: texts across the prefix's end, where contains() on the coded rest alone would miss rows.
    expect(across).toBeGreaterThan(100);
    expect((await matched('.example/p')).plain).toContain('https://www.shop.example/products/red-shoe?x=1');
  }, 60_000);

  it('leaves text other than printable ASCII to the scan of the URLs', () => {
    expect(urlMatchCondition(raw('"_um"'), PREFIX, 'café')).toBeUndefined();
    expect(urlMatchCondition(raw('"_um"'), PREFIX, '\u0001/p')).toBeUndefined();
  });

  it("pages in the copy's order without ORDER BY, as page-query.ts relies on, across many row groups", async () => {
    await conn.run('SET threads = 2');
    await conn.run(
      `CREATE TABLE big AS SELECT ${codedUrlSql(PREFIX, "'https://www.shop.example/p/' || (i * 7919 % 1000003)")} AS _um
       FROM range(600000) t(i) ORDER BY i`,
    );
    const ids = async (query: string, text: string) =>
      (await conn.runAndReadAll(query, [text])).getRowsJS().map((r) => Number(r[0]));
    for (const offset of [0, 100, 20_000, 60_000])
      for (const text of ['/p/1', '9']) {
        const page = `SELECT rowid AS _rid FROM big WHERE contains(_um, ?) LIMIT 100 OFFSET ${offset}`;
        const want = `SELECT rowid FROM big WHERE contains(_um, ?) ORDER BY rowid LIMIT 100 OFFSET ${offset}`;
        const expected = await ids(want, text);
        expect(expected.length, `${text} ${offset}`).toBe(100);
        expect(
          await ids(`SELECT b.rowid FROM big b SEMI JOIN (${page}) p ON b.rowid = p._rid ORDER BY b.rowid`, text),
          `${text} ${offset}`,
        ).toEqual(expected);
      }
  }, 60_000);
});
