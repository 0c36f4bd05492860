/**
 * A page of a whole row table sorted by one column reads that column's sorted copy (sorted-copies.ts; written at
 * load only beside large tables, here beside every table with rows). Stores of the same sample crawls with the
 * copies and without give the same rows, totals and order for every report, column, direction, tab and page, in
 * the at-stake order's tables and in key-ordered ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { compileRows, type RowsRequest } from '../engine/compile.ts';
import { rowTableOfCopy, shapeOf, sortedCopyOf } from '../engine/report-shape.ts';
import { rowsOf } from '../engine/result.ts';
import { lackingSortedCopies } from '../engine/sorted-copies.ts';
import { openCopyPairs, rowsRequest, storedPrecomputeOf, type SampleStore } from './helpers/sample-store.ts';

let stores: { plain: SampleStore; copied: SampleStore }[] = [];
beforeAll(async () => {
  stores = await openCopyPairs({ sortedCopyMinRows: 1 });
}, 180_000);
afterAll(() => {
  for (const pair of stores) for (const store of Object.values(pair)) store.close();
});

describe('pages sorted by one column through its sorted copy', () => {
  it('names a copy after its row table, column and direction', () => {
    expect(sortedCopyOf('rr_internal__all', 'http_status_code', true)).toBe(
      'rr_internal__all__sorted__http_status_code__desc',
    );
    expect(rowTableOfCopy('rr_internal__all__sorted__http_status_code__desc')).toBe('rr_internal__all');
    expect(rowTableOfCopy('rr_internal__all_lc')).toBeUndefined();
    expect(rowTableOfCopy('rr_internal__all')).toBeUndefined();
  });

  it('tells which large row tables lack their copies, so that a refresh writes them', () => {
    const { plain, copied } = stores[0]!;
    expect(lackingSortedCopies(storedPrecomputeOf(plain), 1)).toContain(shapeOf(catalog.reports[0]!).rowTable);
    expect(lackingSortedCopies(storedPrecomputeOf(copied), 1)).toEqual([]);
    // Below the size that gets copies, none is lacking.
    expect(lackingSortedCopies(storedPrecomputeOf(plain))).toEqual([]);
  });

  it.each([
    ['the at-stake order', 0, true],
    ['key order', 1, false],
  ] as const)(
    'gives the rows of the sort of every row, in tables stored in %s',
    async (_, index, isStakeOrdered) => {
      const { plain, copied } = stores[index]!;
      expect(copied.crawls.get(2)!.stakeOrder?.isStored ?? false).toBe(isStakeOrdered);
      let compared = 0;
      let readCopy = 0;
      for (const report of catalog.reports) {
        const shape = shapeOf(report);
        const counts = copied.crawls.get(2)!.precomputed.get(report.id);
        for (const [tab, table, total] of [
          ['all', shape.rowTable, counts?.rowCount ?? 0],
          ['removed', shape.removedTable, counts?.removed ?? 0],
        ] as const) {
          if (total === 0) continue;
          // The first page, one that starts past it, the middle, the last (short) one and one past the end.
          const offsets = [...new Set([0, 1, Math.floor(total / 2), Math.max(0, total - 3), total])];
          for (const column of shape.columns)
            for (const desc of [false, true])
              for (const offset of offsets) {
                const extra = { orderBy: [{ id: column.id, desc }], offset, differenceType: tab };
                const of = async (store: SampleStore) => {
                  const result = await store.engine.rows(rowsRequest(store, report.id, extra), { bypassCache: true });
                  return { total: result.total, rows: rowsOf(result) };
                };
                const label = JSON.stringify([report.id, extra]);
                const expected = await of(plain);
                expect(await of(copied), label).toEqual(expected);
                const page = compileRows(rowsRequest(copied, report.id, extra)).page(total);
                if (page?.sql.includes(`"${sortedCopyOf(table, column.id, desc)}"`)) readCopy++;
                if (expected.rows.length > 1) compared++;
              }
        }
        // A filter or a second sort column is not one column's order of the whole table: no copy is read.
        const [first, second] = shape.columns;
        const notOneColumn: Partial<RowsRequest>[] = [
          { orderBy: [{ id: first!.id, desc: true }], userFilter: '/' },
          ...(second
            ? [
                {
                  orderBy: [
                    { id: second.id, desc: false },
                    { id: first!.id, desc: true },
                  ],
                },
              ]
            : []),
        ];
        for (const extra of notOneColumn)
          expect(
            compileRows(rowsRequest(copied, report.id, extra)).page(counts?.rowCount ?? 0)?.sql ?? '',
          ).not.toContain('__sorted__');
      }
      // The near miss: without rows to order, or without the copies being read, the comparison would prove nothing.
      expect(compared).toBeGreaterThan(200);
      expect(readCopy).toBeGreaterThan(200);
    },
    300_000,
  );
});
