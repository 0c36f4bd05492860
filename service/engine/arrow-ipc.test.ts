import { RecordBatch, Schema, Table, tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { arrowColumns } from './arrow-columns.ts';
import { encodeArrowStream as encodeColumns } from './arrow-ipc.ts';
import { queryChunks } from './execute.ts';
import { emptyColumns, tableOf } from './result.ts';
import { raw } from './sql.ts';

/** A table's fields and batches through the encoder. */
const encodeArrowStream = (table: Table, metadata: ReadonlyMap<string, string>): Uint8Array =>
  encodeColumns(
    table.schema.fields,
    table.batches.map((batch) => ({ length: batch.numRows, columns: batch.data.children })),
    metadata,
  );

/** What a reader sees: fields, schema metadata and every value, nested ones as plain data. */
const decoded = (bytes: Uint8Array): unknown => seen(tableFromIPC(bytes));

/** What was encoded, as a reader should see it: the table with `metadata` on its schema. */
function source(table: Table, metadata: ReadonlyMap<string, string>): unknown {
  const schema = new Schema(table.schema.fields, new Map(metadata));
  return seen(
    new Table(
      schema,
      table.batches.map((batch) => new RecordBatch(schema, batch.data)),
    ),
  );
}

function seen(table: Table): unknown {
  return {
    fields: table.schema.fields.map((f) => `${f.name}: ${String(f.type)} ${f.nullable}`),
    metadata: [...table.schema.metadata],
    rows: table.numRows,
    batches: table.batches.length,
    values: table.schema.fields.map((f) => {
      const column = table.getChild(f.name)!;
      return Array.from({ length: table.numRows }, (_, i) => JSON.stringify(column.get(i)));
    }),
  };
}

describe('encodeArrowStream', () => {
  const metadata = new Map([
    ['total', '4242'],
    ['reportId', 'internal/all'],
    ['nextCursor', '["https://example.com/ä","17"]'],
  ]);

  it('decodes to the columns it was given for every type a page holds, nulls and several chunks', async () => {
    const db = await openDatabase();
    try {
      const chunks = await withConnection(db, (conn) =>
        queryChunks(
          conn,
          raw(`SELECT
            CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1.5 END::DOUBLE AS d,
            CASE WHEN i % 5 = 1 THEN NULL ELSE i END::BIGINT AS big,
            (i % 200 - 100)::TINYINT AS tiny,
            CASE WHEN i % 13 = 4 THEN NULL ELSE i % 2 = 0 END AS flag,
            i % 3 = 0 AS plain_flag,
            CASE WHEN i % 9 = 8 THEN NULL WHEN i % 2 = 0 THEN 'p' || i ELSE 'https://example.com/päge/' || i END AS s,
            CASE WHEN i % 6 = 0 THEN NULL ELSE ['a' || i, NULL, 'https://example.com/' || i] END AS list,
            CASE WHEN i % 8 = 0 THEN NULL ELSE [{'url': 'u' || i, 'status_code': i::INTEGER}] END AS hops,
            DATE '2025-01-02' + (i % 30)::INTEGER AS day
          FROM range(3000) t(i) ORDER BY i`),
        ),
      );
      expect(chunks.chunks.length).toBeGreaterThan(1);
      const table = tableOf(arrowColumns(chunks, () => true));
      const ours = encodeArrowStream(table, metadata);
      expect(decoded(ours)).toEqual(source(table, metadata));
      // Several batches become several record batch messages.
      const twice = new Table([...table.batches, ...table.batches]);
      expect(decoded(encodeArrowStream(twice, metadata))).toEqual(source(twice, metadata));
    } finally {
      db.closeSync();
    }
  });

  it('writes an empty page with its columns, and a table without batches as its schema alone', () => {
    const empty = tableOf(
      emptyColumns([
        { id: 'url', type: { kind: 'string' } },
        { id: 'level', type: { kind: 'float64' } },
        { id: 'hops', type: { kind: 'list', item: { kind: 'string' } } },
      ]),
    );
    expect(decoded(encodeArrowStream(empty, metadata))).toEqual(source(empty, metadata));
    const schemaOnly = new Table(empty.schema);
    expect(schemaOnly.batches).toHaveLength(0);
    // The writer may close a stream without batches with an empty one: a reader sees the same columns and no rows.
    const { batches: _, ...schemaAlone } = decoded(encodeArrowStream(schemaOnly, metadata)) as { batches: number };
    const { batches: __, ...expected } = source(schemaOnly, metadata) as { batches: number };
    expect(schemaAlone).toEqual(expected);
  });
});
