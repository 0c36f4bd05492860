import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportById } from '../../catalog/index.ts';
import { openDatabase } from '../db/duckdb.ts';
import { shapeOf } from './report-shape.ts';
import { reportStakeSql, stakeUrlRelation } from './stakes.ts';
import { raw, type SqlFragment } from './sql.ts';

let db: DuckDBInstance;
let conn: DuckDBConnection;
const range = { start: '2025-01-01', end: '2025-01-28' };

async function rowOf(fragment: SqlFragment): Promise<number[]> {
  const reader = await conn.runAndReadAll(fragment.sql, fragment.params as never);
  return (reader.getRowsJS()[0] ?? []).map(Number);
}

beforeAll(async () => {
  db = await openDatabase();
  conn = await db.connect();
  await conn.run(`
    CREATE TABLE search_console AS SELECT * FROM (VALUES
      (DATE '2025-01-01', 'https://a.example/x', 10, 100), (DATE '2025-01-28', 'https://a.example/x', 5, 50),
      (DATE '2025-01-29', 'https://a.example/x', 1000, 1000), (DATE '2025-01-05', 'https://a.example/y', 2, 20)
    ) t("date", url, clicks, impressions);
    CREATE TABLE analytics AS SELECT * FROM (VALUES
      (DATE '2025-01-02', 'https://a.example/x', 'organic', 7, 1, 30.5),
      (DATE '2025-01-02', 'https://a.example/x', 'paid', 3, 0, 0.0)
    ) t("date", url, channel, sessions, conversions, revenue);
    CREATE TABLE ads_one AS SELECT * FROM (VALUES (DATE '2025-01-03', 'https://a.example/x', 1.25)) t("date", url, costs);
    CREATE TABLE ads_two AS SELECT * FROM (VALUES
      (DATE '2025-01-03', 'https://a.example/x', 2.5), (DATE '2024-12-31', 'https://a.example/x', 99.0)
    ) t("date", url, costs);
    -- Two links to /x and one to /y: /x is at stake once.
    CREATE TABLE rows_of_links AS SELECT * FROM (VALUES
      ('https://a.example/x', 'https://a.example/p'), ('https://a.example/x', 'https://a.example/q'),
      ('https://a.example/y', 'https://a.example/p')
    ) t(url_to, url_from);`);
});

afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
});

describe('stakes', () => {
  it("sum the window's rows of every source over a report's distinct URLs", async () => {
    const tables = new Set(['search_console', 'analytics', 'ads_one', 'ads_two']);
    const shape = shapeOf(reportById('links/internal-broken')!);
    const stake = reportStakeSql(shape, raw('SELECT * FROM rows_of_links'), stakeUrlRelation('memory', tables, range));
    // clicks 10 + 5 (/x, 29 January is outside) + 2 (/y); impressions 100 + 50 + 20; sessions 7 + 3; conversions 1;
    // revenue 30.5; ad spend 1.25 + 2.5 (31 December is outside).
    expect(await rowOf(stake)).toEqual([17, 170, 10, 1, 30.5, 3.75]);
  });

  it('are 0 for every figure when the crawl has no source table', async () => {
    const shape = shapeOf(reportById('links/internal-broken')!);
    const stake = reportStakeSql(
      shape,
      raw('SELECT * FROM rows_of_links'),
      stakeUrlRelation('memory', new Set(), range),
    );
    expect(await rowOf(stake)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
