import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleStore, rowsRequest, type SampleStore } from '../test/helpers/sample-store.ts';
import { LruCache } from './cache.ts';
import { memoisedCompile } from './compile-memo.ts';
import { checkedKeysRelation, compileRows, RequestError, type CompiledRows, type RowsRequest } from './compile.ts';
import { rowsOf } from './result.ts';

describe('compiled rows queries kept by request', () => {
  let store: SampleStore;
  beforeAll(async () => {
    store = await openSampleStore();
  });
  afterAll(() => store.close());

  const counting = () => {
    const memo = new LruCache<CompiledRows>({ maxEntries: 100, maxBytes: 1e9 });
    const compiled: RowsRequest[] = [];
    const compile = (req: RowsRequest): CompiledRows => {
      compiled.push(req);
      return compileRows(req);
    };
    return { compiled, get: (req: RowsRequest) => memoisedCompile(memo, req, compile) };
  };

  it('reuses a query for the same request and compiles anew for any field that differs', () => {
    const { compiled, get } = counting();
    const base = rowsRequest(store, 'internal/all');
    const first = get(base);
    expect(get({ ...base, orderBy: [...base.orderBy] })).toBe(first);
    expect(compiled).toHaveLength(1);
    expect(first.cacheKey).toBe(compileRows(base).cacheKey);

    const report = rowsRequest(store, 'crawl/all');
    const keys = [{ url: 'https://shop.example/', subKeys: [] }];
    const variants: RowsRequest[] = [
      { ...base, userFilter: 'shoes' },
      { ...base, userFilter: 'boots' },
      { ...base, report: report.report },
      rowsRequest(store, 'internal/all', { currentId: 1, comparisonId: null }),
      rowsRequest(store, 'internal/all', { comparisonId: null }),
      { ...base, differenceType: 'added' },
      { ...base, orderBy: [{ id: 'url', desc: true }] },
      { ...base, orderBy: [{ id: 'url', desc: false }] },
      { ...base, limit: 20 },
      { ...base, offset: 10 },
      { ...base, urlScope: 'https://shop.example/blog' },
      { ...base, showChecked: true },
      { ...base, checked: checkedKeysRelation(base.report, keys) },
      { ...base, dataDateRange: { start: base.dataDateRange.start, end: base.dataDateRange.start } },
      { ...base, channel: 'organic' },
    ];
    const queries = variants.map((req) => get(req));
    expect(compiled).toHaveLength(1 + variants.length);
    for (const [i, req] of variants.entries()) expect(queries[i]!.cacheKey).toBe(compileRows(req).cacheKey);
    expect(new Set([first, ...queries]).size).toBe(1 + variants.length);
  });

  it('does not reuse a query compiled for a crawl target the store has since replaced', () => {
    const { compiled, get } = counting();
    const req = rowsRequest(store, 'internal/all');
    const first = get(req);
    const reloaded = { ...req, current: { ...req.current } };
    expect(get(reloaded)).not.toBe(first);
    expect(compiled).toHaveLength(2);
  });

  it('keeps no refused request', () => {
    const { compiled, get } = counting();
    const bad = rowsRequest(store, 'internal/all', { limit: 7 });
    expect(() => get(bad)).toThrow(RequestError);
    expect(() => get(bad)).toThrow(RequestError);
    expect(compiled).toHaveLength(2);
  });

  it('serves the engine the same rows on a repeated request, and forgets its queries when the store changes', async () => {
    const req = rowsRequest(store, 'internal/all', { limit: 20 });
    const first = await store.engine.rows(req, { bypassCache: true });
    const kept = store.engine.compiled.size;
    expect(kept).toBeGreaterThan(0);
    const again = await store.engine.rows(req, { bypassCache: true });
    expect(store.engine.compiled.size).toBe(kept);
    expect(rowsOf(again)).toEqual(rowsOf(first));
    store.engine.invalidate();
    expect(store.engine.compiled.size).toBe(0);
  });
});
