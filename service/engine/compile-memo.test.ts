import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleStore, rowsRequest, type SampleStore } from '../test/helpers/sample-store.ts';
import { LruCache } from './cache.ts';
import { memoisedCompile } from './compile-memo.ts';
import {
  checkedKeysRelation,
  compileRows,
  compileTab,
  RequestError,
  type CompiledTab,
  type RowsRequest,
} from './compile.ts';
import { rowsOf } from './result.ts';

describe('compiled tabs kept by request', () => {
  let store: SampleStore;
  beforeAll(async () => {
    store = await openSampleStore();
  });
  afterAll(() => store.close());

  const counting = () => {
    const memo = new LruCache<CompiledTab>({ maxEntries: 100, maxBytes: 1e9 });
    const compiled: RowsRequest[] = [];
    const compile = (req: RowsRequest): CompiledTab => {
      compiled.push(req);
      return compileTab(req);
    };
    return { compiled, get: (req: RowsRequest) => memoisedCompile(memo, req, compile) };
  };

  it('reuses a tab for the same request and compiles anew for any field but the page that differs', () => {
    const { compiled, get } = counting();
    const base = rowsRequest(store, 'internal/all');
    const first = get(base);
    expect(get({ ...base, orderBy: [...base.orderBy] }).cacheKey).toBe(first.cacheKey);
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
      { ...base, urlScope: 'https://shop.example/blog' },
      { ...base, showChecked: true },
      { ...base, checked: checkedKeysRelation(base.report, keys) },
      { ...base, dataDateRange: { start: base.dataDateRange.start, end: base.dataDateRange.start } },
      { ...base, channel: 'organic' },
    ];
    const queries = variants.map((req) => get(req));
    expect(compiled).toHaveLength(1 + variants.length);
    for (const [i, req] of variants.entries()) expect(queries[i]!.cacheKey).toBe(compileRows(req).cacheKey);
  });

  it('compiles only the page of a page turn, to the query a compile from scratch gives', () => {
    const { compiled, get } = counting();
    const base = rowsRequest(store, 'internal/all');
    const sorted = { ...base, orderBy: [{ id: 'url', desc: true }] };
    const filtered = { ...base, userFilter: 'shoes' };
    const pages: RowsRequest[] = [
      base,
      { ...base, offset: 10 },
      { ...base, limit: 20 },
      { ...base, limit: 20, offset: 40 },
      sorted,
      { ...sorted, offset: 30 },
      filtered,
      { ...filtered, offset: 10 },
    ];
    const queries = pages.map((req) => get(req));
    expect(compiled).toHaveLength(3);
    for (const [i, req] of pages.entries()) {
      const fresh = compileRows(req);
      expect(queries[i]!.cacheKey).toBe(fresh.cacheKey);
      expect(queries[i]!.offset).toBe(req.offset);
      expect(queries[i]!.limit).toBe(req.limit);
      expect(queries[i]!.page(1000)?.sql).toBe(fresh.page(1000)?.sql);
    }
    expect(new Set(queries.map((q) => q.cacheKey)).size).toBe(pages.length);
  });

  it('checks the page of a request whose tab is kept', () => {
    const { get } = counting();
    const base = rowsRequest(store, 'internal/all');
    get(base);
    expect(() => get({ ...base, limit: 7 })).toThrow(RequestError);
    expect(() => get({ ...base, offset: -1 })).toThrow(RequestError);
    expect(() => get({ ...base, after: ['a', 'b', 'c', 'd'] })).toThrow(RequestError);
    expect(() => get({ ...base, orderBy: [{ id: 'url', desc: true }], after: ['a'] })).toThrow(RequestError);
  });

  it('does not reuse a tab compiled for a crawl target the store has since replaced', () => {
    const { compiled, get } = counting();
    const req = rowsRequest(store, 'internal/all');
    get(req);
    const reloaded = { ...req, current: { ...req.current } };
    get(reloaded);
    expect(compiled.map((r) => r.current)).toEqual([req.current, reloaded.current]);
  });

  it('keeps no refused tab', () => {
    const { compiled, get } = counting();
    const bad = rowsRequest(store, 'internal/all', { orderBy: [{ id: 'no_such_column', desc: false }] });
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
