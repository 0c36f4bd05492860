import { describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDatabase } from '../db/duckdb.ts';
import { ConnectionPool } from './connection-pool.ts';
import { queryChunks, queryNumber } from './execute.ts';
import { raw, sql } from './sql.ts';

describe('ConnectionPool', () => {
  it('gives a connection back for the next query, closes one whose work failed, and closes the idle ones', async () => {
    const db = await openDatabase();
    const pool = new ConnectionPool(db, 2);
    try {
      const first = await pool.use(({ conn }) => Promise.resolve(conn));
      expect(pool.idleCount).toBe(1);
      expect(await pool.use(({ conn }) => Promise.resolve(conn))).toBe(first);

      // Two at once: the second borrower gets a connection of its own, and both come back.
      let inner: DuckDBConnection | undefined;
      const outer = await pool.use(async ({ conn }) => {
        inner = await pool.use(({ conn: other }) => Promise.resolve(other));
        return conn;
      });
      expect(inner).not.toBe(outer);
      expect(pool.idleCount).toBe(2);

      await expect(pool.use(({ conn }) => conn.run('SELECT * FROM no_such_table'))).rejects.toThrow(/no_such_table/);
      expect(pool.idleCount).toBe(1);

      pool.close();
      expect(pool.idleCount).toBe(0);
      // After close, work still runs, on a connection that is closed after it.
      expect(await pool.use(({ conn }) => queryNumber(conn, raw('SELECT 42')))).toBe(42);
      expect(pool.idleCount).toBe(0);
    } finally {
      pool.close();
      db.closeSync();
    }
  });

  it('runs statements with and without bound values to the same results', async () => {
    const db = await openDatabase();
    const pool = new ConnectionPool(db);
    try {
      const plain = await pool.use(({ conn }) => queryChunks(conn, raw(`SELECT 'a' AS s, 2 AS n`)));
      const bound = await pool.use(({ conn }) => queryChunks(conn, sql`SELECT ${'a'} AS s, ${2} AS n`));
      expect(plain.names).toEqual(['s', 'n']);
      expect(bound.names).toEqual(['s', 'n']);
      expect(bound.chunks[0]!.getColumnVector(0).getItem(0)).toBe('a');
      expect(Number(bound.chunks[0]!.getColumnVector(1).getItem(0))).toBe(2);
      expect(await pool.use(({ conn }) => queryNumber(conn, sql`SELECT count(*) FROM range(${10})`))).toBe(10);
      expect(await pool.use(({ conn }) => queryNumber(conn, raw('SELECT 12.5::DECIMAL(10, 2)')))).toBe(12.5);
      expect(await pool.use(({ conn }) => queryNumber(conn, raw('SELECT 1 WHERE FALSE')))).toBe(0);
    } finally {
      pool.close();
      db.closeSync();
    }
  });
});
