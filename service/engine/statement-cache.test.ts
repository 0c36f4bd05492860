import { describe, expect, it } from 'vitest';
import type { DuckDBMaterializedResult } from '@duckdb/node-api';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { ConnectionPool } from './connection-pool.ts';
import { queryChunks, queryNumber } from './execute.ts';
import { sql } from './sql.ts';
import { StatementCache } from './statement-cache.ts';

const firstValue = async (result: DuckDBMaterializedResult): Promise<number> =>
  Number((await result.getRows())[0]?.[0]);

describe('StatementCache', () => {
  it('runs a kept statement against the data as it is now, and plans it again when the table changes', async () => {
    const db = await openDatabase();
    await withConnection(db, async (conn) => {
      await conn.run('CREATE TABLE t AS SELECT range AS n FROM range(10)');
      const statements = new StatementCache(conn);
      const count = 'SELECT count(*) FROM t';
      expect(await firstValue(await statements.run(count))).toBe(10);
      expect(statements.has(count)).toBe(false);
      expect(await firstValue(await statements.run(count))).toBe(10);
      expect(statements.has(count)).toBe(true);
      await conn.run('INSERT INTO t SELECT range FROM range(5)');
      expect(await firstValue(await statements.run(count))).toBe(15);
      expect(statements.size).toBe(1);

      const all = 'SELECT * FROM t ORDER BY ALL LIMIT 1';
      expect((await statements.run(all)).columnNames()).toEqual(['n']);
      expect((await statements.run(all)).columnNames()).toEqual(['n']);
      expect(statements.has(all)).toBe(true);
      await conn.run("CREATE OR REPLACE TABLE t AS SELECT 'x' AS label, 1 AS n");
      const again = await statements.run(all);
      expect(again.columnNames()).toEqual(['label', 'n']);
      expect(await again.getRowsJS()).toEqual([['x', 1]]);
      expect(statements.size).toBe(2);

      for (let i = 0; i < 2; i++)
        await expect(statements.run('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
      expect(statements.has('SELECT * FROM no_such_table')).toBe(false);
    });
  });

  it('keeps the most recently run statements up to its bound', async () => {
    const db = await openDatabase();
    await withConnection(db, async (conn) => {
      const statements = new StatementCache(conn, 2);
      for (const text of ['SELECT 1', 'SELECT 2', 'SELECT 1', 'SELECT 2', 'SELECT 1', 'SELECT 3', 'SELECT 3'])
        await statements.run(text);
      expect(['SELECT 1', 'SELECT 2', 'SELECT 3'].map((text) => statements.has(text))).toEqual([true, false, true]);
      expect(statements.size).toBe(2);
      expect(await firstValue(await statements.run('SELECT 1'))).toBe(1);
    });
  });

  it('keeps its statements while texts run once each come and go', async () => {
    const db = await openDatabase();
    await withConnection(db, async (conn) => {
      const statements = new StatementCache(conn, 2);
      for (let i = 0; i < 2; i++) await statements.run('SELECT 1');
      for (let offset = 0; offset < 10; offset++) await statements.run(`SELECT ${offset + 100}`);
      expect(statements.has('SELECT 1')).toBe(true);
      expect(statements.size).toBe(1);
    });
  });

  it('binds a kept statement with bound values again on every run, so each run returns the rows of its own values', async () => {
    const db = await openDatabase();
    await withConnection(db, async (conn) => {
      await conn.run('CREATE TABLE t AS SELECT range AS n FROM range(1000)');
      const statements = new StatementCache(conn);
      const range = 'SELECT n FROM t WHERE rowid >= ? AND rowid < ?';
      const rowsOf = async (lo: number, hi: number): Promise<number[]> =>
        (await (await statements.run(range, { values: [lo, hi], types: [] })).getRowsJS()).map(([n]) => Number(n));
      expect(await rowsOf(10, 13)).toEqual([10, 11, 12]);
      expect(statements.has(range)).toBe(true);
      const kept = statements.size;
      expect(await rowsOf(500, 502)).toEqual([500, 501]);
      expect(await rowsOf(998, 1005)).toEqual([998, 999]);
      expect(await rowsOf(10, 13)).toEqual([10, 11, 12]);
      expect(await rowsOf(3_000_000_000, 3_000_000_001)).toEqual([]);
      expect(await rowsOf(0, 1)).toEqual([0]);
      expect(statements.size).toBe(kept);
      await expect(
        statements.run('SELECT n FROM no_such_table WHERE n = ?', { values: [1], types: [] }),
      ).rejects.toThrow(/no_such_table/);
      expect(statements.has('SELECT n FROM no_such_table WHERE n = ?')).toBe(false);
    });
  });

  it('serves a pooled connection its own statements, with and without bound values', async () => {
    const db = await openDatabase();
    const pool = new ConnectionPool(db, 1);
    try {
      await pool.use(({ conn }) => conn.run('CREATE TABLE t AS SELECT range AS n FROM range(100)'));
      const page = sql`SELECT n FROM t WHERE n >= 10 AND n < 20`;
      const below = (n: number) => sql`SELECT count(*) FROM t WHERE n < ${n}`;
      const kept = await pool.use(async (statements) => {
        for (let i = 0; i < 2; i++) {
          const found = await queryChunks(statements, page);
          expect(found.chunks[0]?.rowCount).toBe(10);
          expect(await queryNumber(statements, below(30 + i))).toBe(30 + i);
        }
        return statements;
      });
      expect(kept.has(page.sql)).toBe(true);
      expect(kept.has(below(0).sql)).toBe(true);
      expect(await pool.use((statements) => queryNumber(statements, below(7)))).toBe(7);
      expect(await pool.use((statements) => Promise.resolve(statements))).toBe(kept);

      // The store changed: kept statements go, idle ones at once and a borrowed one when it comes back.
      pool.clearStatements();
      expect(kept.size).toBe(0);
      await pool.use(async (statements) => {
        await queryChunks(statements, page);
        await queryChunks(statements, page);
        pool.clearStatements();
        expect(statements.has(page.sql)).toBe(true);
      });
      expect(kept.size).toBe(0);
    } finally {
      pool.close();
    }
  });
});
