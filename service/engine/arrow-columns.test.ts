import { describe, expect, it } from 'vitest';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { arrowColumns } from './arrow-columns.ts';
import { queryChunks } from './execute.ts';
import { tableOf } from './result.ts';
import { raw } from './sql.ts';

describe('arrowColumns', () => {
  it("reads every column type from the chunks' memory to the values DuckDB itself returns, nulls included", async () => {
    const n = 5000;
    // Several chunks; nulls at rows that do not fall on chunk or byte boundaries; inline (≤12 bytes) and pointed-to
    // strings, multi-byte UTF-8, every integer width and both float widths.
    const select = `SELECT
        CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1.5 END::DOUBLE AS d,
        CASE WHEN i % 11 = 5 THEN NULL ELSE i / 4 END::FLOAT AS f,
        CASE WHEN i % 5 = 1 THEN NULL ELSE i * 1000000007 END::BIGINT AS big,
        (i * 3)::UBIGINT AS ubig,
        CASE WHEN i % 3 = 2 THEN NULL ELSE i - 2500 END::INTEGER AS int,
        i::UINTEGER AS uint,
        (i % 30000 - 15000)::SMALLINT AS small,
        (i % 60000)::USMALLINT AS usmall,
        (i % 200 - 100)::TINYINT AS tiny,
        (i % 250)::UTINYINT AS utiny,
        CASE WHEN i % 13 = 4 THEN NULL ELSE i % 2 = 0 END AS flag,
        CASE WHEN i % 9 = 8 THEN NULL WHEN i % 2 = 0 THEN 'p' || i ELSE 'https://example.com/päge/' || i || '/✓' END AS s,
        CASE WHEN i % 4 = 0 THEN '' ELSE repeat('x', (i % 20)::INTEGER) END AS edge
      FROM range(${n}) t(i) ORDER BY i`;
    const db = await openDatabase();
    try {
      const chunks = await withConnection(db, (conn) => queryChunks(conn, raw(select)));
      expect(chunks.chunks.length).toBeGreaterThan(2);
      const table = tableOf(arrowColumns(chunks, () => true));
      const expected = await withConnection(db, async (conn) => (await conn.runAndReadAll(select)).getColumnsJS());
      expect(table.numRows).toBe(n);
      chunks.names.forEach((name, at) => {
        const vector = table.getChild(name)!;
        const want = expected[at]!.map((v) => (typeof v === 'bigint' ? Number(v) : v));
        expect(vector.length, name).toBe(n);
        expect(
          Array.from({ length: n }, (_, i) => vector.get(i) as unknown),
          name,
        ).toEqual(want);
        expect(vector.nullCount, name).toBe(want.filter((v) => v === null).length);
      });
    } finally {
      db.closeSync();
    }
  });

  it("gives each column DuckDB's own type, plain or not", async () => {
    const select = `SELECT 1::TINYINT AS a, 2::UBIGINT AS b, 1.5::FLOAT AS c, 'x' AS d, true AS e, DATE '2025-01-02' AS f,
        1.25::DECIMAL(10, 2) AS g, ['p', 'q'] AS h, {'k': 1} AS i, '{}'::JSON AS j, TIMESTAMP '2025-01-02 03:04:05' AS k`;
    const db = await openDatabase();
    try {
      const { names, types } = await withConnection(db, (conn) => queryChunks(conn, raw(select)));
      const own = await withConnection(db, async (conn) => (await conn.run(select)).columnTypes());
      expect(names).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']);
      expect(types.map((t) => t.typeId)).toEqual(own.map((t) => t.typeId));
      expect(types.map(String)).toEqual(own.map(String));
    } finally {
      db.closeSync();
    }
  });
});
