/** POST /api/technical-health-check/query/get-report: aggregates per source against the rows inserted, and access. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSignedInApp, post, tempDir, type Session, type SignedInApp } from './auth-fixture.ts';
import { writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';
import type { QueryReport } from '../../catalog/api.ts';

const u = (p: string): string => `https://shop.example${p}`;
const Q = 'walking boots';
const CALL = '/api/technical-health-check/query/get-report';

const sc = (date: string, p: string, query: string, clicks: number, impressions: number, position: number) => ({
  date,
  url: u(p),
  query,
  clicks,
  impressions,
  position,
});
const adsOne = (date: string, p: string, query: string, term: string, n: number): FixtureRow => ({
  date,
  url: u(p),
  query,
  search_term: term,
  clicks: n,
  conversions: n / 10,
  all_conversions: n / 5,
  costs: n * 0.5,
  impressions: n * 10,
  revenue: n * 3,
  all_revenue: n * 4,
});

const tables = {
  urls: [{ url: u('/boots'), http_status_code: 200 }],
  search_console_queries: [
    sc('2025-01-02', '/boots', Q, 10, 100, 2),
    sc('2025-01-02', '/walking', 'Walking Boots', 5, 300, 6),
    sc('2025-01-03', '/boots', Q, 20, 100, 4),
    sc('2025-01-03', '/boots', 'other query', 999, 9999, 1),
    sc('2024-12-01', '/boots', Q, 999, 9999, 1),
  ],
  ads_one: [
    adsOne('2025-01-02', '/boots', Q, 'buy walking boots', 10),
    adsOne('2025-01-03', '/boots', Q, 'walking boots sale', 30),
    adsOne('2025-01-03', '/boots', Q, 'buy walking boots', 20),
    adsOne('2025-01-03', '/boots', 'other query', 'x', 1000),
  ],
  ads_two: [
    { date: '2025-01-02', url: u('/boots'), clicks: 7, conversions: 1, costs: 3.5, impressions: 70, revenue: 20 },
    { date: '2025-01-03', url: u('/walking'), clicks: 3, conversions: 0, costs: 1.5, impressions: 30, revenue: 0 },
    { date: '2025-01-03', url: u('/unrelated'), clicks: 100, conversions: 9, costs: 99, impressions: 999, revenue: 99 },
  ],
  trends: [
    { date: '2025-01-05', topic: 'footwear', query: Q, value: 40 },
    { date: '2025-01-05', topic: 'outdoors', query: Q, value: 60 },
    { date: '2025-01-12', topic: 'footwear', query: Q, value: 70 },
  ],
  keyword_planner: [
    {
      customer_id: 'c1',
      network: 'GOOGLE_SEARCH',
      countries: ['GB', 'IE'],
      language: 'en',
      request_date: '2024-12-01',
      query: Q,
      average_cpc: 0.9,
      average_search_volume: 100,
      total_search_volume: 1200,
      competition: 'LOW',
      competition_index: 10,
      monthly_records: [],
    },
    {
      customer_id: 'c1',
      network: 'GOOGLE_SEARCH',
      countries: ['GB'],
      language: 'en',
      request_date: '2025-01-15',
      query: Q,
      average_cpc: 1.25,
      average_search_volume: 2400,
      total_search_volume: 4800,
      competition: 'HIGH',
      competition_index: 87,
      monthly_records: [
        { year: 2024, month: 12, search_volume: 2000 },
        { year: 2025, month: 1, search_volume: 2800 },
      ],
    },
  ],
};

/**
 * One search showing two of the site's pages counts once for the property, once for each page: on 2 January the
 * pages' rows sum to 200 impressions where the property had 100 (and one click, on /boots).
 */
const propertyTables = {
  urls: [{ url: u('/boots'), http_status_code: 200 }],
  search_console_queries: [
    sc('2025-01-02', '/boots', Q, 1, 100, 1),
    sc('2025-01-02', '/walking', Q, 0, 100, 2),
    sc('2025-01-03', '/boots', Q, 3, 50, 2),
    sc('2025-01-05', '/boots', Q, 2, 20, 3),
  ],
  search_console_site: [
    { date: '2025-01-02', query: Q, clicks: 1, impressions: 100, position: 1 },
    { date: '2025-01-03', query: Q, clicks: 3, impressions: 50, position: 2 },
    { date: '2024-12-01', query: Q, clicks: 999, impressions: 9999, position: 1 },
  ],
};

let signedIn: SignedInApp<'otherClient' | 'staff' | 'admin'> | undefined;
let app: FastifyInstance;
let staff: Session;
let otherClient: Session;

beforeAll(async () => {
  const dataDir = tempDir('thc-query-');
  await writeCrawlToStore(dataDir, { websiteId: 'shop', crawlId: 1, tables });
  await writeCrawlToStore(dataDir, { websiteId: 'blog', crawlId: 1, tables: {} });
  await writeCrawlToStore(dataDir, { websiteId: 'property', crawlId: 1, tables: propertyTables });
  signedIn = await openSignedInApp(dataDir, '2025-03-10T09:00:00Z', ['otherClient', 'staff', 'admin']);
  ({ app } = signedIn);
  ({ staff, otherClient } = signedIn.sessions);
});
afterAll(() => signedIn?.close());

const range = { start: '2025-01-01', end: '2025-01-28' };

describe('query report', () => {
  it('aggregates every source for the query over the range', async () => {
    const response = await post(app, CALL, staff, { websiteId: 'shop', query: Q, dataDateRange: range, currentId: 1 });
    expect(response.statusCode).toBe(200);
    const report = response.json<QueryReport>();
    expect(report.searchConsole.figures).toBe('pages');
    expect(report.searchConsole.overTime).toEqual([
      {
        date: '2025-01-02',
        clicks: 15,
        impressions: 400,
        ctr: 15 / 400,
        position: (2 * 100 + 6 * 300) / 400,
        period: null,
      },
      { date: '2025-01-03', clicks: 20, impressions: 100, ctr: 0.2, position: 4, period: null },
    ]);
    expect(report.searchConsole.byUrl).toEqual([
      { url: u('/boots'), clicks: 30, impressions: 200, ctr: 0.15, position: 3 },
      { url: u('/walking'), clicks: 5, impressions: 300, ctr: 5 / 300, position: 6 },
    ]);
    expect(report.adsOne.totals).toEqual({
      clicks: 60,
      conversions: expect.closeTo(6, 9) as number,
      all_conversions: expect.closeTo(12, 9) as number,
      costs: 30,
      ctr: 0.1,
      impressions: 600,
      revenue: 180,
      all_revenue: 240,
    });
    expect(report.adsOne.searchTerms.map((t) => [t.search_term, t.clicks])).toEqual([
      ['buy walking boots', 30],
      ['walking boots sale', 30],
    ]);
    // The query's landing URLs (/boots, /walking); /unrelated is not counted.
    expect(report.adsTwo.totals).toEqual({ clicks: 10, conversions: 1, costs: 5, impressions: 100, revenue: 20 });
    expect(report.trends).toEqual([
      { date: '2025-01-05', value: 50 },
      { date: '2025-01-12', value: 70 },
    ]);
    expect(report.keywordPlanner).toEqual({
      average_search_volume: 2400,
      total_search_volume: 4800,
      monthly_records: [
        { year: 2024, month: 12, search_volume: 2000 },
        { year: 2025, month: 1, search_volume: 2800 },
      ],
      competition: 'HIGH',
      competition_index: 87,
      average_cpc: 1.25,
      network: 'GOOGLE_SEARCH',
      countries: ['GB'],
      language: 'en',
    });
  });

  it('answers empty sources for an unknown query and defaults to the crawl and its data range', async () => {
    const response = await post(app, CALL, staff, { websiteId: 'shop', query: 'no such query' });
    expect(response.statusCode).toBe(200);
    const report = response.json<QueryReport>();
    expect(report.dataDateRange).toEqual({ start: '2025-01-01', end: '2025-01-28' });
    expect(report.searchConsole).toEqual({ figures: 'pages', overTime: [], byUrl: [] });
    expect(report.adsOne).toEqual({ totals: null, searchTerms: [] });
    expect(report.adsTwo).toEqual({ totals: null });
    expect(report.trends).toEqual([]);
    expect(report.keywordPlanner).toBeNull();
  });

  it("shows the property's figures over time where the range holds them, the pages' own by URL", async () => {
    const ask = (dataDateRange: { start: string; end: string }) =>
      post(app, CALL, signedIn!.sessions.admin, { websiteId: 'property', query: Q, dataDateRange });
    const report = (await ask(range)).json<QueryReport>();
    expect(report.searchConsole.figures).toBe('property');
    expect(report.searchConsole.overTime).toEqual([
      { date: '2025-01-02', clicks: 1, impressions: 100, ctr: 0.01, position: 1, period: null },
      { date: '2025-01-03', clicks: 3, impressions: 50, ctr: 0.06, position: 2, period: null },
    ]);
    expect(report.searchConsole.byUrl).toEqual([
      { url: u('/boots'), clicks: 6, impressions: 170, ctr: 6 / 170, position: (100 + 2 * 50 + 3 * 20) / 170 },
      { url: u('/walking'), clicks: 0, impressions: 100, ctr: 0, position: 2 },
    ]);
    // The property's figures stand for the whole range: 5 January, with pages' rows only, is not mixed in.
    expect(report.searchConsole.overTime.map((p) => p.date)).not.toContain('2025-01-05');
    // The near miss: a range without property rows falls back to the pages' sums.
    const without = (await ask({ start: '2025-01-04', end: '2025-01-31' })).json<QueryReport>();
    expect(without.searchConsole).toEqual({
      figures: 'pages',
      overTime: [{ date: '2025-01-05', clicks: 2, impressions: 20, ctr: 0.1, position: 3, period: null }],
      byUrl: [{ url: u('/boots'), clicks: 2, impressions: 20, ctr: 0.1, position: 3 }],
    });
  });

  it('treats the query as a bound value, never SQL', async () => {
    const response = await post(app, CALL, staff, { websiteId: 'shop', query: "x' OR 1=1 --" });
    expect(response.statusCode).toBe(200);
    expect(response.json<QueryReport>().searchConsole.byUrl).toEqual([]);
  });

  it('applies the access rules and validates the payload', async () => {
    const payload = { websiteId: 'shop', query: Q };
    expect((await post(app, CALL, undefined, payload)).statusCode).toBe(401);
    const other = await post(app, CALL, otherClient, payload);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'website could not be found.' });
    expect((await post(app, CALL, staff, { ...payload, currentId: 9 })).statusCode).toBe(404);
    const bad = await post(app, CALL, staff, { ...payload, dataDateRange: { start: '2025-02-01', end: '2025-01-01' } });
    expect(bad.statusCode).toBe(400);
    expect((await post(app, CALL, staff, { websiteId: 'shop', query: ' ' })).statusCode).toBe(400);
  });
});
