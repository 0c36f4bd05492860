import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import { openDatabase, withConnection } from '../db/duckdb.ts';
import { makeTempDataDir, writeCrawlToStore, type FixtureRow } from '../test/helpers/make-store.ts';
import { openSampleStore, report, rowsRequest, type SampleStore } from '../test/helpers/sample-store.ts';
import {
  checkedKeysRelation,
  compileRows,
  compileTab,
  differenceTypes,
  RequestError,
  type CrawlTarget,
  type RowsRequest,
} from './compile.ts';
import { ReportEngine } from './engine.ts';
import { explainCatalog } from './explain-catalog.ts';
import { query } from './execute.ts';
import { rowsOf, tableOf, type RowsResult } from './result.ts';
import { raw } from './sql.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const u = (p: string): string => `https://shop.example${p}`;
const urlsOf = (result: RowsResult): unknown[] => rowsOf(result).map((r) => r.url);

describe('query compilation on the sample crawls', () => {
  let store: SampleStore;
  let live: SampleStore;
  beforeAll(async () => {
    [store, live] = await Promise.all([openSampleStore(), openSampleStore({ isPrecomputed: false })]);
  });
  afterAll(() => {
    store.close();
    live.close();
  });

  const rows = (s: SampleStore, reportId: string, extra: Parameters<typeof rowsRequest>[2] = {}) =>
    s.engine.rows(rowsRequest(s, reportId, extra), { bypassCache: true });

  it('EXPLAINs every report, tab and variant (catalogue layer 3)', async () => {
    const alias = store.registry.crawl('shop', 2)!.alias;
    expect(await explainCatalog(store.db, alias)).toBeGreaterThanOrEqual(catalog.reports.length * 8);
    expect(await explainCatalog(live.db, live.registry.crawl('shop', 2)!.alias)).toBeGreaterThan(0);
  });

  it('reports an EXPLAIN failure located by report and variant', async () => {
    const broken = { ...report('content/empty'), filter: 'no_such_column > 1' };
    const alias = store.registry.crawl('shop', 2)!.alias;
    await expect(explainCatalog(store.db, alias, { reports: [broken] })).rejects.toThrow(
      /reports\[0\] \(content\/empty\) live all .*no_such_column/,
    );
  });

  it('gives the same rows from precomputed tables as from the base tables, for every report and tab', async () => {
    for (const definition of catalog.reports) {
      for (const differenceType of differenceTypes) {
        const sortable = definition.datatableColumns.filter((id) => !id.startsWith('ai_'));
        for (const orderBy of [[], [{ id: sortable.at(-1)!, desc: true }], [{ id: sortable[1]!, desc: false }]]) {
          const extra = { differenceType, orderBy };
          const fast = await rows(store, definition.id, extra);
          const slow = await rows(live, definition.id, extra);
          const where = `${definition.id} ${differenceType} ${JSON.stringify(orderBy)}`;
          expect([where, fast.total, rowsOf(fast)]).toEqual([where, slow.total, rowsOf(slow)]);
        }
      }
    }
  });

  it('reads the Added and Removed tabs of any comparison crawl', async () => {
    const added = await rows(store, 'status-code/5xx', { currentId: 3, comparisonId: 1, differenceType: 'added' });
    expect(urlsOf(added)).toEqual([u('/e'), u('/f')]);
    const removed = await rows(store, 'status-code/4xx', { currentId: 3, comparisonId: 1, differenceType: 'removed' });
    expect(urlsOf(removed)).toEqual([u('/old')]);
    expect([...tableOf(removed.columns).getChildAt(1)!]).toEqual([410]);
    const none = await rows(store, 'status-code/4xx', { comparisonId: null, differenceType: 'added' });
    expect(none.total).toBe(0);
  });

  it('carries sub-rows: redirect hops, the other members of a duplicate set, the sources of a link', async () => {
    const chain = rowsOf(await rows(store, 'redirects/chain'))[0]!;
    expect(chain.subRows).toEqual(chain.redirect_chain);
    expect((chain.subRows as { url: string }[]).map((h) => h.url)).toEqual([u('/redirect'), u('/redirect-2')]);
    const duplicates = rowsOf(await rows(store, 'content/duplicate'));
    expect(duplicates.map((r) => [r.url, r.subRows])).toEqual([
      [u('/dup2'), [u('/dup1'), u('/dup3')]],
      [u('/dup3'), [u('/dup1'), u('/dup2')]],
    ]);
    const link = rowsOf(await rows(store, 'links/internal-http'))[0]!;
    expect(link.subRows).toEqual([u('/b'), u('/d')]);
  });

  it('aggregates joined metrics over the requested date range and channel', async () => {
    const byRange = await rows(store, 'search-console/all', {
      dataDateRange: { start: '2024-12-01', end: '2025-01-31' },
    });
    expect(urlsOf(byRange)).toEqual([u('/'), u('/c'), u('/d')]);
    expect(rowsOf(byRange)[0]).toMatchObject({ gsc_clicks: 15, gsc_impressions: 200, gsc_weighted_position: 3 });
    const paid = await rows(store, 'analytics/all', { channel: 'paid' });
    expect(rowsOf(paid).map((r) => [r.url, r.ga_sessions])).toEqual([
      [u('/'), 10],
      [u('/d'), 4],
    ]);
    const organic = await rows(store, 'analytics/all', { channel: 'organic' });
    expect(urlsOf(organic)).toEqual([u('/')]);
  });

  it('compiles a count without the page plan, to the same count as the whole tab', () => {
    for (const extra of [{}, { differenceType: 'removed' as const }, { userFilter: 'shirt' }]) {
      for (const s of [store, live]) {
        const req = rowsRequest(s, 'internal/all', extra);
        const { plan, filterMatches, ...whole } = compileTab(req);
        expect(plan).toBeDefined();
        expect(filterMatches).toBeUndefined();
        const countOnly = compileTab(req, { isCountOnly: true });
        expect(countOnly.plan).toBeUndefined();
        expect(countOnly).toEqual(whole);
      }
    }
  });

  it('filters URLs containing a text, case-insensitively', async () => {
    expect(urlsOf(await rows(store, 'crawl/all', { userFilter: 'DUP' }))).toEqual([u('/dup1'), u('/dup2'), u('/dup3')]);
    expect((await rows(store, 'links/internal-broken', { userFilter: '/A' })).total).toBe(3);
  });

  it('matches the linking page or the target of a link, says which, and binds the text', async () => {
    for (const s of [store, live]) {
      const found = rowsOf(await rows(s, 'links/internal-broken', { userFilter: '/D' }));
      expect(found.map((r) => [r.url_to, r.url_from])).toEqual([[u('/a'), u('/d')]]);
      const req = rowsRequest(s, 'links/internal-broken', { userFilter: '/D' });
      expect(await s.engine.filterMatches(req, { bypassCache: true })).toEqual({ linking: 1, target: 0 });
      const both = rowsRequest(s, 'links/internal-broken', { userFilter: 'shop.example' });
      expect(await s.engine.filterMatches(both, { bypassCache: true })).toEqual({ linking: 3, target: 3 });
      const quote = rowsRequest(s, 'links/internal-broken', { userFilter: "'); DROP TABLE links; --" });
      expect((await s.engine.rows(quote, { bypassCache: true })).total).toBe(0);
      expect(await s.engine.filterMatches(rowsRequest(s, 'crawl/all', { userFilter: '/d' }))).toBeUndefined();
    }
    const { count } = compileRows(rowsRequest(store, 'links/internal-broken', { userFilter: "/d'" }));
    expect(count!.sql).not.toContain("/d'");
    expect(count!.params).toContain("/d'");
  });

  it("keeps to a segment's URL scope", async () => {
    const scoped = await rows(store, 'crawl/all', { urlScope: u('/d') });
    expect(urlsOf(scoped)).toEqual([u('/d'), u('/d2'), u('/dup1'), u('/dup2'), u('/dup3')]);
    expect((await rows(live, 'crawl/all', { urlScope: u('/d'), differenceType: 'added' })).total).toBe(0);
    expect((await rows(store, 'links/internal-broken', { urlScope: u('/a') })).total).toBe(3);
  });

  it('hides checked rows unless showChecked, and flags them', async () => {
    const definition = report('content/thin');
    const checked = checkedKeysRelation(definition, [{ url: u('/c'), subKeys: [] }]);
    const hidden = await rows(store, 'content/thin', { checked });
    expect(urlsOf(hidden)).toEqual([u('/b-near'), u('/d'), u('/d2')]);
    expect(hidden.total).toBe(3);
    const shown = rowsOf(await rows(store, 'content/thin', { checked, showChecked: true }));
    expect(shown.map((r) => [r.url, r.checked])).toEqual([
      [u('/b-near'), false],
      [u('/c'), true],
      [u('/d'), false],
      [u('/d2'), false],
    ]);
    const links = report('links/internal-broken');
    const linkChecked = checkedKeysRelation(links, [{ url: u('/a'), subKeys: [u('/c')] }]);
    const remaining = rowsOf(await rows(store, 'links/internal-broken', { checked: linkChecked }));
    expect(remaining.map((r) => r.url_from)).toEqual([u('/'), u('/d')]);
  });

  it('refuses unknown orderBy ids, limits and offsets with the field named', () => {
    const req = rowsRequest(store, 'content/thin');
    const fieldOf = (extra: Partial<RowsRequest>): string | undefined => {
      try {
        compileRows({ ...req, ...extra });
        return undefined;
      } catch (error) {
        return error instanceof RequestError ? error.field : String(error);
      }
    };
    expect(fieldOf({ orderBy: [{ id: 'no_such_column', desc: false }] })).toBe('orderBy.0.id');
    expect(
      fieldOf({
        orderBy: [
          { id: 'url', desc: false },
          { id: 'http_status_code', desc: true },
        ],
      }),
    ).toBe('orderBy.1.id');
    expect(fieldOf({ limit: 15 })).toBe('limit');
    expect(fieldOf({ offset: -1 })).toBe('offset');
    expect(fieldOf({ offset: 1.5 })).toBe('offset');
    expect(fieldOf({ dataDateRange: { start: '2025-02-01', end: '2025-01-01' } })).toBe('dataDateRange');
    expect(fieldOf({ after: ['x'], orderBy: [{ id: 'word_count', desc: true }] })).toBe('after');
    expect(fieldOf({ limit: 1000, offset: 0 })).toBeUndefined();
  });

  it('keeps SQL in every string field inert', async () => {
    const evil = [`'); DROP TABLE urls; --`, `" OR 1=1 --`, `%' OR '1'='1`, `\\'; SELECT 1; --`];
    const alias = store.registry.crawl('shop', 2)!.alias;
    for (const text of evil) {
      expect((await rows(store, 'crawl/all', { userFilter: text })).total).toBe(0);
      expect((await rows(store, 'analytics/all', { channel: text })).total).toBe(0);
      expect((await rows(store, 'crawl/all', { after: [text] })).total).toBe(14);
      const checked = checkedKeysRelation(report('crawl/all'), [{ url: text, subKeys: [] }]);
      expect((await rows(store, 'crawl/all', { checked })).total).toBe(14);
      expect(() => compileRows(rowsRequest(store, 'crawl/all', { orderBy: [{ id: text, desc: false }] }))).toThrow(
        RequestError,
      );
      expect(() =>
        compileRows(rowsRequest(store, 'crawl/all', { dataDateRange: { start: text, end: '2025-01-01' } })),
      ).toThrow(RequestError);
    }
    const left = await withConnection(store.db, (conn) => query(conn, raw(`SELECT count(*) FROM "${alias}".urls`)));
    expect(left.values[0]).toEqual([14]);
  });
});

describe('paging', () => {
  let dataDir: string;
  let engine: ReportEngine;
  let target: CrawlTarget;
  let close: () => void;
  const N = 120;
  /** Names sort differently from ids; deeprank has only 3 values, so most of a sort by it is ties. */
  const urlOf = (i: number): string => `https://many.example/${i % 2 ? 'odd' : 'even'}_${String(i).padStart(3, '0')}`;

  beforeAll(async () => {
    dataDir = makeTempDataDir();
    const urls: FixtureRow[] = Array.from({ length: N }, (_, i) => ({
      url: i === 7 ? 'https://many.example/100%_off' : i === 8 ? 'https://many.example/a_b' : urlOf(i),
      http_status_code: 200,
      indexable: true,
      internal: true,
      found_in_web_crawl: true,
      deeprank: i % 3,
      page_title: i % 4 === 0 ? null : `Title ${i % 5}`,
    }));
    await writeCrawlToStore(dataDir, { websiteId: 'many', crawlId: 1, tables: { urls } });
    const db = await openDatabase();
    const registry = await openCrawlRegistry(dataDir, db);
    engine = new ReportEngine(db, registry);
    target = await engine.target(registry.crawls('many')[0]!);
    close = () => {
      engine.dispose();
      db.closeSync();
    };
  });
  afterAll(() => {
    close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const request = (extra: Partial<RowsRequest>): RowsRequest => ({
    report: report('crawl/all'),
    current: target,
    dataDateRange: target.defaultRange,
    differenceType: 'all',
    showChecked: false,
    orderBy: [],
    limit: 10,
    offset: 0,
    ...extra,
  });
  const page = async (extra: Partial<RowsRequest>): Promise<Record<string, unknown>[]> =>
    rowsOf(await engine.rows(request(extra), { bypassCache: true }));

  it('never repeats or skips a row across pages of a sort with ties, forwards or from the far end', async () => {
    for (const orderBy of [
      [{ id: 'deeprank', desc: true }],
      [{ id: 'page_title', desc: false }],
      [
        { id: 'page_title', desc: true },
        { id: 'deeprank', desc: false },
      ],
      [{ id: 'url', desc: true }],
      [],
    ]) {
      const seen: unknown[] = [];
      for (let offset = 0; offset < N; offset += 10) seen.push(...(await page({ orderBy, offset })).map((r) => r.url));
      const all = (await page({ orderBy, limit: 1000 })).map((r) => r.url);
      expect(new Set(seen).size).toBe(N);
      expect(seen).toEqual(all);
      // Ties break by the key, nulls last in either direction.
      const first = orderBy[0];
      if (first?.id === 'deeprank') {
        const rowsAll = await page({ orderBy, limit: 1000 });
        const keyed = rowsAll.map((r) => [-(r.deeprank as number), r.url as string]);
        expect(keyed).toEqual(
          [...keyed].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : 1)),
        );
      }
      if (first?.id === 'page_title') {
        const titles = (await page({ orderBy, limit: 1000 })).map((r) => r.page_title);
        expect(titles.slice(-30).every((t) => t === null)).toBe(true);
      }
    }
  });

  it('continues after a cursor in key order, with or without its ordinal hint', async () => {
    const all = (await page({ limit: 1000 })).map((r) => r.url);
    for (const useHint of [true, false]) {
      const seen: unknown[] = [];
      let after: string[] | undefined;
      for (;;) {
        const result = await engine.rows(request({ after }), { bypassCache: true });
        seen.push(...urlsOf(result));
        if (!result.nextCursor) break;
        after = useHint ? [...result.nextCursor] : result.nextCursor.slice(0, 1);
      }
      expect(seen).toEqual(all);
    }
    // A stale hint falls back to the key; a cursor key that is not a row continues after its place.
    expect(urlsOf(await engine.rows(request({ after: [String(all[4]), '99'] }), { bypassCache: true }))).toEqual(
      all.slice(5, 15),
    );
    const between = 'https://many.example/even_0101';
    expect(urlsOf(await engine.rows(request({ after: [between] }), { bypassCache: true }))).toEqual(
      all.filter((x) => String(x) > between).slice(0, 10),
    );
  });

  it('gives the total of a filtered tab on pages past its end and when nothing matches', async () => {
    const past = await engine.rows(request({ userFilter: 'odd', offset: 100 }), { bypassCache: true });
    expect([past.total, urlsOf(past)]).toEqual([59, []]);
    const none = await engine.rows(request({ userFilter: 'no-such-text' }), { bypassCache: true });
    expect([none.total, urlsOf(none)]).toEqual([0, []]);
    const count = await engine.count(request({ userFilter: 'odd' }));
    expect(count).toBe(59);
  });

  it("treats % and _ in 'URLs containing' as plain characters", async () => {
    expect((await page({ userFilter: '%' })).map((r) => r.url)).toEqual(['https://many.example/100%_off']);
    expect((await page({ userFilter: 'A_B' })).map((r) => r.url)).toEqual(['https://many.example/a_b']);
  });

  it('pages the far end backwards with the same rows as forwards', async () => {
    const all = (await page({ limit: 1000, orderBy: [{ id: 'deeprank', desc: false }] })).map((r) => r.url);
    const last = await page({ offset: 110, orderBy: [{ id: 'deeprank', desc: false }] });
    expect(last.map((r) => r.url)).toEqual(all.slice(110));
    const filtered = await engine.rows(request({ userFilter: 'odd', offset: 50 }), { bypassCache: true });
    expect(filtered.total).toBe(59);
    expect(urlsOf(filtered)).toEqual((await page({ limit: 1000, userFilter: 'odd' })).map((r) => r.url).slice(50, 60));
  });
});
