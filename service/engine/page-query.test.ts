import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBInstance } from '@duckdb/node-api';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { report } from '../test/helpers/sample-store.ts';
import type { ResultChunks } from './arrow-columns.ts';
import { ConnectionPool } from './connection-pool.ts';
import { queryChunks, tuneInstance } from './execute.ts';
import { ROW_ID, pageQuery, type PagePlan } from './page-query.ts';
import { shapeOf } from './report-shape.ts';
import type { RowsRequest } from './rows-request.ts';
import { raw, sql } from './sql.ts';

describe('a default-order page of a whole row table', () => {
  /** Over three of DuckDB's row groups (122,880 rows each), which its two threads may scan side by side. */
  const ROWS = 400_000;
  let db: DuckDBInstance;
  beforeAll(async () => {
    db = await openDatabase(':memory:', { threads: 2 });
    await withConnection(db, async (conn) => {
      await conn.run(`CREATE TABLE "rows" AS SELECT 'u' || range AS url FROM range(${ROWS})`);
      // Without insertion order, DuckDB returns such a range out of order most of the time; tuning sets it back.
      await conn.run('SET GLOBAL preserve_insertion_order = false');
    });
    await tuneInstance(db);
  });
  afterAll(() => db.closeSync());

  const planOf = (offset: number, limit: number): PagePlan => ({
    req: { offset, limit, orderBy: [] } as unknown as RowsRequest,
    shape: shapeOf(report('internal/all')),
    source: {
      relation: raw('"rows"'),
      alias: 'main',
      isPrecomputed: true,
      tiebreak: ['_ord'],
      stored: { table: raw('"rows"'), where: raw('TRUE'), isContiguous: true, isStakeOrdered: false },
      knownTotal: ROWS,
    },
    filters: [],
    order: [],
    isDefaultOrder: true,
    isStoredOrder: true,
    output: raw('"r"."url", "r"."_ord" AS "__ordinal"'),
    rowTableOutput: sql`"r"."url", ${ROW_ID} AS "__ordinal"`,
  });
  const ordinalsOf = (found: ResultChunks): number[] =>
    found.chunks.flatMap((chunk) => chunk.getColumnValues(1).map(Number));

  it('is a range read without a sort that returns its rows in rowid order', async () => {
    const page = pageQuery(planOf(100_000, 250_000), ROWS)!;
    expect(page.sql).not.toMatch(/ORDER BY/);
    for (let run = 0; run < 5; run++) {
      const found = await withConnection(db, (conn) => queryChunks(conn, page));
      const ordinals = ordinalsOf(found);
      expect(ordinals.length).toBe(250_000);
      expect(ordinals.every((ordinal, i) => ordinal === 100_000 + i)).toBe(true);
    }
  });

  it('reads the range at any offset, from a kept statement when asked again, with its bounds in the scan', async () => {
    const offsets = [0, 122_800, 399_950, 250_000, 0];
    const pages = offsets.map((offset) => pageQuery(planOf(offset, 100), ROWS)!);
    expect(pages[1]!.sql).toMatch(/rowid >= 122800 AND "r"\.rowid < 122900$/);
    const pool = new ConnectionPool(db, 1);
    try {
      for (const [i, page] of pages.entries()) {
        const found = await pool.use((statements) => queryChunks(statements, page));
        const expected = Array.from({ length: Math.min(100, ROWS - offsets[i]!) }, (_, k) => offsets[i]! + k);
        expect(ordinalsOf(found)).toEqual(expected);
      }
      expect(await pool.use((statements) => Promise.resolve(statements.has(pages[0]!.sql)))).toBe(true);
      const plan = await withConnection(db, (conn) => conn.runAndReadAll(`EXPLAIN ANALYZE ${pages[3]!.sql}`));
      const text = String(plan.getRows()[0]?.[1]);
      // The bounds reach the table scan: no FILTER operator over a scan of every row.
      expect(text).toMatch(/TABLE_SCAN[\s\S]*Filters:[\s\S]*rowid/);
      expect(text).not.toMatch(/│\s+FILTER\s+│/);
    } finally {
      pool.close();
    }
  });
});
