import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../catalog/export-contract.ts';
import { openDatabase } from '../db/duckdb.ts';
import { addSourceOnlyUrls, joinTable } from './join-sources.ts';
import type { SourceVersion } from './source-store.ts';

const manifest = { startUrl: 'https://www.example.com/' } as Manifest;
let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeEach(async () => {
  db = await openDatabase(':memory:');
  conn = await db.connect();
  await conn.run('SET preserve_insertion_order = true');
  await conn.run(`CREATE TABLE urls (url VARCHAR, internal BOOLEAN, found_in_web_crawl BOOLEAN,
    found_in_sitemap BOOLEAN, http_status_code INTEGER, found_at_url VARCHAR)`);
  // In crawl order, not URL order, as an export holds them.
  await conn.run(`INSERT INTO urls VALUES
    ('https://www.example.com/z', TRUE, TRUE, FALSE, 404, 'https://www.example.com/'),
    ('https://www.example.com/', TRUE, TRUE, FALSE, 200, NULL),
    ('https://www.example.com/gone', TRUE, FALSE, FALSE, NULL, NULL),
    ('https://www.example.com/listed', TRUE, FALSE, TRUE, NULL, NULL)`);
  await conn.run('CREATE TABLE search_console (url VARCHAR)');
  await conn.run('CREATE TABLE analytics (url VARCHAR)');
});

afterEach(() => {
  conn.closeSync();
  db.closeSync();
});

const rows = async (): Promise<unknown[][]> =>
  (await conn.runAndReadAll('SELECT url, internal, found_in_web_crawl, http_status_code FROM urls')).getRowsJS();
const tableOid = async (): Promise<unknown> =>
  (await conn.runAndReadAll(`SELECT table_oid FROM duckdb_tables() WHERE table_name = 'urls'`)).getRowsJS()[0]?.[0];

describe('addSourceOnlyUrls', () => {
  it('drops the source-only URLs no source names any more and adds the new ones after the crawl’s, in URL order', async () => {
    await conn.run(`INSERT INTO search_console VALUES ('https://www.example.com/'), ('https://www.example.com/new')`);
    await conn.run(`INSERT INTO analytics VALUES ('https://other.example.com/a')`);
    await addSourceOnlyUrls(conn, manifest);
    expect(await rows()).toEqual([
      ['https://www.example.com/z', true, true, 404],
      ['https://www.example.com/', true, true, 200],
      ['https://www.example.com/listed', true, false, null],
      ['https://other.example.com/a', false, false, null],
      ['https://www.example.com/new', true, false, null],
    ]);
  });

  it('leaves the table as it is when the sources name the source-only URLs it holds already', async () => {
    await conn.run(`INSERT INTO search_console VALUES ('https://www.example.com/gone'), ('https://www.example.com/z')`);
    const before = { rows: await rows(), oid: await tableOid() };
    await addSourceOnlyUrls(conn, manifest);
    expect({ rows: await rows(), oid: await tableOid() }).toEqual(before);
    // The same call with one URL more writes the table again.
    await conn.run(`INSERT INTO analytics VALUES ('https://www.example.com/more')`);
    await addSourceOnlyUrls(conn, manifest);
    expect(await tableOid()).not.toEqual(before.oid);
    expect((await rows()).map((r) => r[0])).toContain('https://www.example.com/more');
  });
});

describe('joinTable', () => {
  /** A version whose search_console rows are the table sc_version. */
  const version = { rowsOf: (id: string) => (id === 'search_console' ? 'sc_version' : undefined) } as SourceVersion;
  const inWindow = `"date" BETWEEN '2026-11-01' AND '2026-11-30'`;
  const scRows = async (): Promise<unknown[][]> =>
    (await conn.runAndReadAll('SELECT url, clicks FROM search_console')).getRowsJS();
  const oid = async (): Promise<unknown> =>
    (await conn.runAndReadAll(`SELECT table_oid FROM duckdb_tables() WHERE table_name = 'search_console'`)).getRowsJS();

  beforeEach(async () => {
    await conn.run('DROP TABLE search_console');
    await conn.run(`CREATE TABLE search_console AS SELECT * FROM (VALUES
      (DATE '2026-11-02', 'https://www.example.com/a', 5::BIGINT, 50::BIGINT, 3.0::DOUBLE),
      (DATE '2026-11-02', 'https://www.example.com/b', 1::BIGINT, 20::BIGINT, 8.0::DOUBLE))
      AS t("date", url, clicks, impressions, position)`);
  });

  it('keeps the table when the window holds the same rows, in any order', async () => {
    await conn.run(`CREATE TABLE sc_version AS SELECT * FROM search_console ORDER BY url DESC`);
    const before = await oid();
    expect(await joinTable(conn, 'search_console', version, inWindow)).toEqual({ rows: 2, isChanged: false });
    expect(await oid()).toEqual(before);
  });

  it('takes the rows of the window when one value differs, as when a row more or less', async () => {
    await conn.run(`CREATE TABLE sc_version AS SELECT "date", url, clicks + (url LIKE '%b')::INT AS clicks,
      impressions, position FROM search_console`);
    expect(await joinTable(conn, 'search_console', version, inWindow)).toEqual({ rows: 2, isChanged: true });
    expect(await scRows()).toEqual([
      ['https://www.example.com/a', 5n],
      ['https://www.example.com/b', 2n],
    ]);
    await conn.run(`DELETE FROM sc_version WHERE url LIKE '%a'`);
    expect(await joinTable(conn, 'search_console', version, inWindow)).toEqual({ rows: 1, isChanged: true });
    expect(await scRows()).toEqual([['https://www.example.com/b', 2n]]);
  });

  it('joins a table the crawl was loaded without (added to the contract since)', async () => {
    await conn.run(`CREATE TABLE sc_version AS SELECT * FROM search_console`);
    await conn.run('DROP TABLE search_console');
    expect(await joinTable(conn, 'search_console', version, inWindow)).toEqual({ rows: 2, isChanged: true });
    expect(await scRows()).toEqual([
      ['https://www.example.com/a', 5n],
      ['https://www.example.com/b', 1n],
    ]);
  });
});
