import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../catalog/export-contract.ts';
import { openDatabase } from '../db/duckdb.ts';
import { addSourceOnlyUrls } from './join-sources.ts';

const manifest = { startUrl: 'https://www.example.com/' } as Manifest;
let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeEach(async () => {
  db = await openDatabase(':memory:');
  conn = await db.connect();
  await conn.run('SET preserve_insertion_order = true');
  await conn.run(`CREATE TABLE urls (url VARCHAR, internal BOOLEAN, found_in_web_crawl BOOLEAN,
    found_in_sitemap BOOLEAN, http_status_code INTEGER, found_at_url VARCHAR)`);
  await conn.run(`INSERT INTO urls VALUES
    ('https://www.example.com/', TRUE, TRUE, FALSE, 200, NULL),
    ('https://www.example.com/gone', TRUE, FALSE, FALSE, NULL, NULL),
    ('https://www.example.com/listed', TRUE, FALSE, TRUE, NULL, NULL),
    ('https://www.example.com/z', TRUE, TRUE, FALSE, 404, 'https://www.example.com/')`);
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
  it('drops the source-only URLs no source names any more and adds the new ones, in URL order', async () => {
    await conn.run(`INSERT INTO search_console VALUES ('https://www.example.com/'), ('https://www.example.com/new')`);
    await conn.run(`INSERT INTO analytics VALUES ('https://other.example.com/a')`);
    await addSourceOnlyUrls(conn, manifest);
    expect(await rows()).toEqual([
      ['https://other.example.com/a', false, false, null],
      ['https://www.example.com/', true, true, 200],
      ['https://www.example.com/listed', true, false, null],
      ['https://www.example.com/new', true, false, null],
      ['https://www.example.com/z', true, true, 404],
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
