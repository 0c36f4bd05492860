import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { arrowColumns } from './arrow-columns.ts';
import { queryChunks } from './execute.ts';
import { ARROW_TOTAL_METADATA, pageResult, rowsOf, toArrowStream, type RowsResult } from './result.ts';
import { raw } from './sql.ts';

describe('results', () => {
  it('convert DuckDB values to plain JSON and round-trip through Arrow IPC', async () => {
    const db = await openDatabase();
    try {
      const chunks = await withConnection(db, (conn) =>
        queryChunks(
          conn,
          raw(`SELECT * FROM (VALUES
            (1::INTEGER, 9007199254740000::BIGINT, 2.5::DOUBLE, 'a', TRUE, ['x', 'y'],
             [{'url': 'u1', 'status_code': 301}], DATE '2025-01-02', 12.50::DECIMAL(10, 2)),
            (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
          ) v(i, big, d, s, b, list, hops, day, money)`),
        ),
      );
      const result: RowsResult = pageResult(
        arrowColumns(chunks, () => true),
        { total: 1234 },
      );
      const rows = rowsOf(result);
      expect(rows[0]).toEqual({
        i: 1,
        big: 9007199254740000,
        d: 2.5,
        s: 'a',
        b: true,
        list: ['x', 'y'],
        hops: [{ url: 'u1', status_code: 301 }],
        day: '2025-01-02',
        money: 12.5,
      });
      expect(Object.values(rows[1]!).every((v) => v === null)).toBe(true);
      expect(() => JSON.stringify(rows)).not.toThrow();

      const table = tableFromIPC(toArrowStream(result, { reportId: 'x/y' }));
      expect(table.schema.metadata.get(ARROW_TOTAL_METADATA)).toBe('1234');
      expect(table.schema.metadata.get('reportId')).toBe('x/y');
      expect(table.numRows).toBe(2);
      const decoded = table
        .toArray()
        .map((row: { toJSON(): unknown }) => JSON.parse(JSON.stringify(row.toJSON())) as Record<string, unknown>);
      expect(decoded[0]).toMatchObject({ i: 1, big: 9007199254740000, d: 2.5, s: 'a', b: true, day: '2025-01-02' });
      expect(typeof table.getChild('big')?.get(0)).toBe('number');
      expect(decoded[0]!.list).toEqual(['x', 'y']);
      expect(decoded[0]!.hops).toEqual([{ url: 'u1', status_code: 301 }]);
      expect(decoded[1]!.s).toBeNull();
    } finally {
      db.closeSync();
    }
  });

  it('write every batch of a large result, not only the first', async () => {
    const n = 5000;
    const db = await openDatabase();
    try {
      const chunks = await withConnection(db, (conn) => queryChunks(conn, raw(`SELECT range AS n FROM range(${n})`)));
      expect(chunks.chunks.length).toBeGreaterThan(1);
      const result: RowsResult = pageResult(
        arrowColumns(chunks, () => true),
        { total: n },
      );
      const table = tableFromIPC(toArrowStream(result));
      expect(table.numRows).toBe(n);
      expect(table.getChild('n')?.get(n - 1)).toBe(n - 1);
    } finally {
      db.closeSync();
    }
  });
});
