import {
  Bool,
  Field,
  Float64,
  List,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { RowsTable } from './report-rows.ts';

const hop = new Struct([new Field('url', new Utf8(), true), new Field('status_code', new Float64(), true)]);

describe('RowsTable', () => {
  it('reads cells from the decoded vectors by row index: scalars as stored, lists and structs as plain values', () => {
    const ipc = tableToIPC(
      new Table({
        url: vectorFromArray(['https://a.example/', null], new Utf8()),
        status: vectorFromArray([301, null], new Float64()),
        indexable: vectorFromArray([true, null], new Bool()),
        subRows: vectorFromArray([['https://b.example/'], null], new List(new Field('item', new Utf8(), true))),
        chain: vectorFromArray(
          [[{ url: 'https://a.example/', status_code: 301 }], []],
          new List(new Field('item', hop, true)),
        ),
      }),
    );
    const page = new RowsTable(tableFromIPC(ipc));
    expect(page.length).toBe(2);
    const [first, second] = page.rows;
    expect(['url', 'status', 'indexable', 'subRows', 'chain'].map((id) => first!.get(id))).toEqual([
      'https://a.example/',
      301,
      true,
      ['https://b.example/'],
      [{ url: 'https://a.example/', status_code: 301 }],
    ]);
    expect(['url', 'status', 'indexable', 'subRows', 'chain'].map((id) => second!.get(id))).toEqual([
      null,
      null,
      null,
      null,
      [],
    ]);
    expect(first!.get('no-such-column')).toBeUndefined();
    expect(page.column('status')(0)).toBe(301);
  });
});
