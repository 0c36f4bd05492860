import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBInstance } from '@duckdb/node-api';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { report } from '../test/helpers/sample-store.ts';
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

  it('is a range read without a sort that returns its rows in rowid order', async () => {
    const plan: PagePlan = {
      req: { offset: 100_000, limit: 250_000, orderBy: [] } as unknown as RowsRequest,
      shape: shapeOf(report('internal/all')),
      source: {
        relation: raw('"rows"'),
        alias: 'main',
        isPrecomputed: true,
        tiebreak: ['_ord'],
        stored: { table: raw('"rows"'), where: raw('TRUE'), isContiguous: true },
        knownTotal: ROWS,
      },
      filters: [],
      order: [],
      isDefaultOrder: true,
      output: raw('"r"."url", "r"."_ord" AS "__ordinal"'),
      rowTableOutput: sql`"r"."url", ${ROW_ID} AS "__ordinal"`,
    };
    const page = pageQuery(plan, ROWS)!;
    expect(page.sql).not.toMatch(/ORDER BY/);
    for (let run = 0; run < 5; run++) {
      const found = await withConnection(db, (conn) => queryChunks(conn, page));
      const ordinals = found.chunks.flatMap((chunk) => chunk.getColumnValues(1).map(Number));
      expect(ordinals.length).toBe(250_000);
      expect(ordinals.every((ordinal, i) => ordinal === 100_000 + i)).toBe(true);
    }
  });
});
