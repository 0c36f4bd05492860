/**
 * 'URLs containing' on a whole row table scans the table's URL-match copy when it has one (url-match.ts; written at
 * load only beside large tables, here beside every table with rows). Stores of the same sample crawls with the copies
 * and without give the same rows, totals and order for every report, tab, order, page and text, texts across the
 * coded origin's end included, in the at-stake order's tables and in key-ordered ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { compileRows, type DifferenceType, type RowsRequest } from '../engine/compile.ts';
import { shapeOf } from '../engine/report-shape.ts';
import { rowsOf } from '../engine/result.ts';
import { lackingUrlMatchCopies, urlMatchTableOf } from '../engine/url-match.ts';
import { openCopyPairs, rowsRequest, storedPrecomputeOf, type SampleStore } from './helpers/sample-store.ts';

let stores: { plain: SampleStore; copied: SampleStore }[] = [];
beforeAll(async () => {
  stores = await openCopyPairs({ urlMatchCopyMinRows: 1 });
}, 180_000);
afterAll(() => {
  for (const pair of stores) for (const store of Object.values(pair)) store.close();
});

const copiesOf = (store: SampleStore) => [...store.crawls.get(2)!.tables].filter((t) => t.endsWith('__url_match'));

describe("'URLs containing' over the URL-match copies", () => {
  it('tells which large row tables lack their copies, so that a refresh writes them', () => {
    const { plain, copied } = stores[0]!;
    expect(copiesOf(plain)).toEqual([]);
    expect(lackingUrlMatchCopies(storedPrecomputeOf(plain), 1)).toContain(shapeOf(catalog.reports[0]!).rowTable);
    expect(lackingUrlMatchCopies(storedPrecomputeOf(copied), 1)).toEqual([]);
    // Below the size that gets copies, none is lacking.
    expect(lackingUrlMatchCopies(storedPrecomputeOf(plain))).toEqual([]);
  });

  it.each([
    ['the at-stake order', 0, true],
    ['key order', 1, false],
  ] as const)(
    'gives the rows, totals and order of the scan of the row table, in tables stored in %s',
    async (_, index, isStakeOrdered) => {
      const { plain, copied } = stores[index]!;
      expect(copied.crawls.get(2)!.stakeOrder?.isStored ?? false).toBe(isStakeOrdered);
      expect(copied.crawls.get(2)!.urlMatchPrefix).toBe('https://shop.example');
      expect(copiesOf(copied).length).toBeGreaterThan(10);
      const pages = [
        { offset: 0, limit: 10 },
        { offset: 1, limit: 10 },
        { offset: 5, limit: 10 },
      ];
      let compared = 0;
      let readCopy = 0;
      for (const report of catalog.reports) {
        const shape = shapeOf(report);
        const orders: Partial<RowsRequest>[] = [
          ...(isStakeOrdered ? [{ stakeOrder: copied.crawls.get(2)!.stakeOrder }] : []),
          {},
          { orderBy: [{ id: shape.urlColumn, desc: true }] },
        ];
        for (const differenceType of ['all', 'removed'] as DifferenceType[]) {
          const table = differenceType === 'all' ? shape.rowTable : shape.removedTable;
          if (!copied.crawls.get(2)!.tables.has(urlMatchTableOf(table))) continue;
          // In the rest of the URL; across the origin's end; within the origin; in URLs of another origin; none.
          for (const userFilter of ['/d', 'SHOP.example/', 'e/', 'https://shop.ex', 'http:', 'no-such-url'])
            for (const order of orders)
              for (const page of pages) {
                const extra = { differenceType, userFilter, ...order, ...page };
                const of = async (store: SampleStore) => {
                  const req = rowsRequest(store, report.id, extra);
                  const result = await store.engine.rows(req, { bypassCache: true });
                  return { total: result.total, rows: rowsOf(result), count: await store.engine.count(req) };
                };
                const label = JSON.stringify([report.id, extra]);
                const expected = await of(plain);
                expect(await of(copied), label).toEqual(expected);
                expect(expected.count, label).toBe(expected.total);
                const compiled = compileRows(rowsRequest(copied, report.id, extra));
                const sql = `${compiled.count?.sql ?? ''} ${compiled.combined?.sql ?? ''}`;
                if (sql.includes(`"${urlMatchTableOf(table)}"`)) readCopy++;
                if (expected.total > 0) compared++;
              }
        }
      }
      // The near miss: without matching rows, or without the copy being read, the comparison would prove nothing.
      expect(compared).toBeGreaterThan(50);
      expect(readCopy).toBeGreaterThan(50);
    },
    180_000,
  );
});
