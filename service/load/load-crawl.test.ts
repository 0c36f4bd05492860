/**
 * The loader's unit tests: real exports, real DuckDB and real processes (kill -9, a held lock), with the precompute
 * stubbed (vi.mock) so that each load is only the loader's work and the precompute's failures can be injected at
 * will. The loader with the real precompute is tested by the integration tests (service/test/: golden counts,
 * refresh-precompute, crawl-*), and the precompute by engine/precompute.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportTables, parquetFileOf, type ExportTableId } from '../../catalog/export-contract.ts';
import { openDatabase, quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { precomputeCrawl } from '../engine/precompute.ts';
import { LoadError, loadCrawl, type LoadResult } from './load-crawl.ts';
import {
  CRAWL_DB_FILE,
  CRAWL_META_FILE,
  CURRENT_FILE,
  LOCK_FILE,
  WEBSITE_FILE,
  crawlDir,
  listLiveCrawls,
  readCurrentLoad,
  websiteDir,
  readCrawlMeta,
  scanStore,
  type StoreScan,
} from '../store/layout.ts';
import { makeExport, type MakeExportOptions } from '../test/helpers/make-export.ts';
import { snapshotTree } from '../test/helpers/tree-snapshot.ts';

vi.mock('../engine/precompute.ts', () => ({ precomputeCrawl: vi.fn(() => Promise.resolve()) }));
const precompute = vi.mocked(precomputeCrawl);

const REPO = path.resolve(import.meta.dirname, '../..');
const SITE = 'acme-shoes';
const W = 'https://www.example.com';

const temps: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const exportOf = async (options: MakeExportOptions = {}) => makeExport({ dir: tempDir('export-'), ...options });

/** A data dir holding crawl 1 of acme-shoes (default export plus search console and analytics), copied per test. */
let seedTemplate: string;
const seeded = (): string => {
  const dataDir = tempDir('data-');
  fs.cpSync(seedTemplate, dataDir, { recursive: true });
  return dataDir;
};

beforeAll(async () => {
  seedTemplate = tempDir('seed-');
  const seed = await exportOf({ tables: { search_console: {}, analytics: {} } });
  await loadCrawl({ dataDir: seedTemplate, exportDir: seed.dir });
  precompute.mockClear();
});

afterEach(() => {
  precompute.mockReset();
  precompute.mockImplementation(() => Promise.resolve());
});

afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `sql` against a crawl database attached READ_ONLY as `c`, as the service attaches it. */
async function query(dbFile: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    await conn.run(`ATTACH ${quoteLiteral(dbFile)} AS c (READ_ONLY)`);
    return (await conn.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

const columnsOf = async (dbFile: string, table: string): Promise<[string, string][]> =>
  (await query(dbFile, `DESCRIBE c.${quoteIdent(table)}`)).map((r) => [String(r.column_name), String(r.column_type)]);

/** The contract's columns of a table with DuckDB's own spelling of each type. */
async function contractColumns(table: ExportTableId): Promise<[string, string][]> {
  const t = exportTables.find((x) => x.id === table)!;
  const select = t.columns.map((c) => `NULL::${c.type} AS ${quoteIdent(c.name)}`).join(', ');
  const db = await openDatabase();
  const conn = await db.connect();
  try {
    const rows = (await conn.runAndReadAll(`DESCRIBE SELECT ${select}`)).getRowObjectsJS();
    return rows.map((r) => [r.column_name as string, r.column_type as string]);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

describe('loadCrawl: a valid export', () => {
  it('round-trips every table into a live crawl with contract columns, key order and orphan URLs', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf({ tables: { search_console: {}, analytics: {} } });
    let tablesAtPrecompute: number | undefined;
    precompute.mockImplementation(async (conn) => {
      const rows = (await conn.runAndReadAll('SELECT count(*) AS n FROM urls')).getRowObjectsJS();
      tablesAtPrecompute = Number(rows[0]?.n);
    });

    const result = await loadCrawl({ dataDir, exportDir: ex.dir });

    const crawlPath = crawlDir(dataDir, SITE, 1);
    expect(fs.readFileSync(path.join(crawlPath, CURRENT_FILE), 'utf8')).toBe(result.loadId);
    expect(fs.readdirSync(crawlPath).sort()).toEqual([CURRENT_FILE, result.loadId].sort());
    expect(fs.readdirSync(result.dir).sort()).toEqual([CRAWL_DB_FILE, CRAWL_META_FILE]);
    expect(fs.existsSync(path.join(websiteDir(dataDir, SITE), LOCK_FILE))).toBe(false);
    expect(listLiveCrawls(dataDir).map((c) => [c.websiteId, c.crawlId, c.loadId])).toEqual([[SITE, 1, result.loadId]]);
    expect(JSON.parse(fs.readFileSync(path.join(websiteDir(dataDir, SITE), WEBSITE_FILE), 'utf8'))).toEqual({
      id: SITE,
      name: 'Example',
      domain: 'example.com',
    });

    const meta = readCrawlMeta(result.dir);
    expect(meta).toMatchObject({
      manifest: ex.manifest,
      loadId: result.loadId,
      crawledFriendly: '6 May 2024',
      moduleState: 'PENDING',
      previousCrawlId: null,
    });
    expect(meta.tables).toEqual({
      urls: 6,
      links: 4,
      unique_links: 3,
      sitemaps: 1,
      uncrawled_urls: 1,
      large_images: 0,
      images_missing_alt: 0,
      search_console: 3,
      search_console_queries: 0,
      search_console_site: 0,
      analytics: 2,
      ads_one: 0,
      ads_two: 0,
      trends: 0,
      keyword_planner: 0,
    });
    expect(result).toMatchObject({ websiteId: SITE, crawlId: 1, addedUrls: 2, tables: meta.tables });
    expect(precompute).toHaveBeenCalledOnce();
    // The export's own Search Console and Analytics rows connect those sources for the crawl.
    expect(precompute.mock.calls[0]?.[1]).toEqual({
      manifest: ex.manifest,
      previous: undefined,
      sources: { analytics: 'export', 'search-console': 'export' },
    });
    expect(tablesAtPrecompute).toBe(6);

    for (const table of exportTables) {
      expect(await columnsOf(result.dbFile, table.id), table.id).toEqual(await contractColumns(table.id));
    }

    for (const table of [
      'urls',
      'links',
      'unique_links',
      'sitemaps',
      'uncrawled_urls',
      'search_console',
      'analytics',
    ]) {
      const file = quoteLiteral(ex.file(table as ExportTableId));
      const fileColumns = (await query(result.dbFile, `DESCRIBE SELECT * FROM read_parquet(${file})`))
        .map((r) => quoteIdent(String(r.column_name)))
        .join(', ');
      const crawled = table === 'urls' ? 'WHERE found_in_web_crawl' : '';
      const [diff] = await query(
        result.dbFile,
        `SELECT (SELECT count(*) FROM (SELECT ${fileColumns} FROM read_parquet(${file})
                  EXCEPT ALL SELECT ${fileColumns} FROM c.${quoteIdent(table)} ${crawled})) AS missing,
                (SELECT count(*) FROM (SELECT ${fileColumns} FROM c.${quoteIdent(table)} ${crawled}
                  EXCEPT ALL SELECT ${fileColumns} FROM read_parquet(${file}))) AS extra`,
      );
      expect(diff, table).toEqual({ missing: 0n, extra: 0n });
    }

    const [absent] = await query(
      result.dbFile,
      'SELECT count(*) FILTER (WHERE description IS NOT NULL OR deeprank IS NOT NULL) AS n FROM c.urls',
    );
    expect(absent?.n).toBe(0n);

    // The URLs and links stay in the export's order (load-tables.ts says why), the URLs only a source knows after the
    // crawl's in URL order, and every other table in key order.
    const urls = (await query(result.dbFile, 'SELECT url FROM c.urls')).map((r) => String(r.url));
    const exportedUrls = (
      await query(result.dbFile, `SELECT url FROM read_parquet(${quoteLiteral(ex.file('urls'))})`)
    ).map((r) => String(r.url));
    const sourceOnly = urls.slice(exportedUrls.length);
    expect(urls.slice(0, exportedUrls.length)).toEqual(exportedUrls);
    expect(sourceOnly.length).toBeGreaterThan(0);
    expect(sourceOnly).toEqual([...sourceOnly].sort());
    const links = (await query(result.dbFile, 'SELECT url_to, url_from FROM c.links')).map(
      (r) => `${String(r.url_to)} ${String(r.url_from)}`,
    );
    const exported = (
      await query(result.dbFile, `SELECT url_to, url_from FROM read_parquet(${quoteLiteral(ex.file('links'))})`)
    ).map((r) => `${String(r.url_to)} ${String(r.url_from)}`);
    expect(links).toEqual(exported);

    const orphans = await query(
      result.dbFile,
      `SELECT url, internal, found_in_web_crawl, found_in_sitemap, http_status_code, indexable, page_title
       FROM c.urls WHERE NOT found_in_web_crawl ORDER BY url`,
    );
    const orphan = { found_in_web_crawl: false, found_in_sitemap: false, http_status_code: null, indexable: null };
    expect(orphans).toEqual([
      { url: 'https://blog.example.com/landing', internal: false, ...orphan, page_title: null },
      { url: `${W}/orphan-from-search`, internal: true, ...orphan, page_title: null },
    ]);
  });

  it('diffs a newer crawl against the next older live crawl', async () => {
    const dataDir = seeded();
    const crawl1 = readCurrentLoad(dataDir, SITE, 1)!;
    const websiteJson = fs.readFileSync(path.join(websiteDir(dataDir, SITE), WEBSITE_FILE));
    const ex = await exportOf({ manifest: { crawlId: 4, crawledAt: '2024-06-03T23:59:00-01:00' } });

    const result = await loadCrawl({ dataDir, exportDir: ex.dir });

    expect(result.previousCrawlId).toBe(1);
    expect(precompute.mock.calls[0]?.[1].previous).toEqual({ crawlId: 1, dbFile: crawl1.dbFile });
    const meta = readCrawlMeta(result.dir);
    expect(meta.previousCrawlId).toBe(1);
    expect(meta.crawledFriendly).toBe('4 Jun 2024');
    expect(fs.readFileSync(path.join(websiteDir(dataDir, SITE), WEBSITE_FILE))).toEqual(websiteJson);
    expect(listLiveCrawls(dataDir).map((c) => c.crawlId)).toEqual([4, 1]);
  });

  it('accepts safe widenings and stores the contract types', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf({
      tables: {
        urls: {
          columns: {
            http_status_code: 'CAST(status AS SMALLINT)',
            level: 'CAST(level AS TINYINT)',
            fetch_time: 'CAST(fetch_time AS FLOAT)',
            page_title_length: 'CAST(length(title) AS UTINYINT)',
          },
        },
        links: { columns: { url_to_status_code: 'CAST(status AS USMALLINT)' } },
        search_console: { columns: { clicks: 'CAST(clicks AS INTEGER)', position: 'CAST(position AS FLOAT)' } },
      },
    });

    const result = await loadCrawl({ dataDir, exportDir: ex.dir });

    for (const table of ['urls', 'links', 'search_console'] as const) {
      expect(await columnsOf(result.dbFile, table), table).toEqual(await contractColumns(table));
    }
    expect(
      await query(
        result.dbFile,
        'SELECT url, http_status_code, level, fetch_time FROM c.urls WHERE found_in_web_crawl ORDER BY url',
      ),
    ).toEqual([
      { url: `${W}/`, http_status_code: 200, level: 0, fetch_time: expect.closeTo(0.2, 6) as number },
      { url: `${W}/about`, http_status_code: 200, level: 1, fetch_time: expect.closeTo(0.3, 6) as number },
      { url: `${W}/missing`, http_status_code: 404, level: 2, fetch_time: expect.closeTo(0.1, 6) as number },
      { url: `${W}/old`, http_status_code: 301, level: 2, fetch_time: expect.closeTo(0.4, 6) as number },
    ]);
    expect(await query(result.dbFile, 'SELECT sum(clicks) AS clicks FROM c.search_console')).toEqual([{ clicks: 13n }]);
  });

  it('keeps extra columns after the contract columns and reads absent optional columns as NULL', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf({
      tables: {
        urls: {
          columns: {
            found_in_sitemap: null,
            page_title: null,
            page_title_length: null,
            custom_score: 'CAST(level * 1.5 AS DOUBLE)',
            Segment: `'shop'`,
          },
        },
        links: { columns: { link_tags: `['nav', anchor]` } },
        analytics: {},
      },
    });

    const result = await loadCrawl({ dataDir, exportDir: ex.dir });

    const urlsColumns = await columnsOf(result.dbFile, 'urls');
    expect(urlsColumns).toEqual([
      ...(await contractColumns('urls')),
      ['custom_score', 'DOUBLE'],
      ['Segment', 'VARCHAR'],
    ]);
    expect((await columnsOf(result.dbFile, 'links')).at(-1)).toEqual(['link_tags', 'VARCHAR[]']);
    expect(
      await query(
        result.dbFile,
        'SELECT url, custom_score, "Segment", found_in_sitemap, page_title FROM c.urls ORDER BY url',
      ),
    ).toEqual([
      {
        url: 'https://blog.example.com/landing',
        custom_score: null,
        Segment: null,
        found_in_sitemap: null,
        page_title: null,
      },
      { url: `${W}/`, custom_score: 0, Segment: 'shop', found_in_sitemap: null, page_title: null },
      { url: `${W}/about`, custom_score: 1.5, Segment: 'shop', found_in_sitemap: null, page_title: null },
      { url: `${W}/missing`, custom_score: 3, Segment: 'shop', found_in_sitemap: null, page_title: null },
      { url: `${W}/old`, custom_score: 3, Segment: 'shop', found_in_sitemap: null, page_title: null },
    ]);
    expect(await query(result.dbFile, 'SELECT count(*) AS n FROM c.search_console')).toEqual([{ n: 0n }]);
  });
});

describe('loadCrawl: refusals leave the data dir unchanged', () => {
  type Case = [name: string, options: MakeExportOptions, message: (dir: string) => string];
  const f = (dir: string, table: ExportTableId): string => path.join(dir, parquetFileOf(table));
  const m = (dir: string): string => path.join(dir, 'manifest.json');
  const cases: Case[] = [
    ['manifest.json missing', { manifestText: null }, (d) => `${m(d)}: not found`],
    [
      'manifest.json unparseable',
      { manifestText: '{"websiteId": ' },
      (d) => `${m(d)}: not valid JSON (Unexpected end of JSON input)`,
    ],
    [
      'manifest field invalid',
      { manifest: { crawledAt: 'yesterday' } },
      (d) => `${m(d)}: field "crawledAt": Invalid ISO datetime`,
    ],
    [
      'manifest field missing',
      { manifest: { startUrl: undefined } },
      (d) => `${m(d)}: field "startUrl": Invalid input: expected string, received undefined`,
    ],
    [
      'manifest nested field invalid, with more issues',
      { manifest: { crawler: { name: '', version: '' } } },
      (d) => `${m(d)}: field "crawler.name": Too small: expected string to have >=1 characters (and 1 more)`,
    ],
    [
      'crawl id beyond the 32-bit range the store and app database hold',
      { manifest: { crawlId: 99999999999 } },
      (d) => `${m(d)}: field "crawlId": Too big: expected number to be <=2147483647`,
    ],
    [
      'crawl id one past the largest',
      { manifest: { crawlId: 2147483648 } },
      (d) => `${m(d)}: field "crawlId": Too big: expected number to be <=2147483647`,
    ],
    ['required table missing', { tables: { links: null } }, (d) => `${f(d, 'links')}: required table file is missing`],
    [
      'corrupt Parquet',
      { tables: { urls: { raw: 'not parquet at all' } } },
      (d) =>
        `${f(d, 'urls')}: not a readable Parquet file (Invalid Input Error: No magic bytes found at end of file '${f(d, 'urls')}')`,
    ],
    [
      'required column missing',
      { tables: { urls: { columns: { indexable: null } } } },
      (d) => `${f(d, 'urls')}: missing required column "indexable" (BOOLEAN)`,
    ],
    [
      'required column missing in an optional table',
      { tables: { analytics: { columns: { channel: null } } } },
      (d) => `${f(d, 'analytics')}: missing required column "channel" (VARCHAR)`,
    ],
    [
      'wrong type',
      { tables: { urls: { columns: { http_status_code: 'CAST(status AS VARCHAR)' } } } },
      (d) => `${f(d, 'urls')}: column "http_status_code" has type VARCHAR, expected INTEGER`,
    ],
    [
      'narrowing',
      { tables: { links: { columns: { url_to_status_code: 'CAST(status AS BIGINT)' } } } },
      (d) => `${f(d, 'links')}: column "url_to_status_code" has type BIGINT, expected INTEGER`,
    ],
    [
      'lossy numeric type',
      { tables: { search_console: { columns: { position: 'CAST(position AS DECIMAL(6,2))' } } } },
      (d) => `${f(d, 'search_console')}: column "position" has type DECIMAL(6,2), expected DOUBLE`,
    ],
    [
      'scalar for a list',
      { tables: { urls: { columns: { h1_tag: 'title' } } } },
      (d) => `${f(d, 'urls')}: column "h1_tag" has type VARCHAR, expected VARCHAR[]`,
    ],
    [
      'column differing only in case',
      { tables: { urls: { columns: { indexable: null, Indexable: 'CAST(indexable AS BOOLEAN)' } } } },
      (d) => `${f(d, 'urls')}: column "Indexable" differs only in case from contract column "indexable"`,
    ],
    [
      'NULL key',
      { tables: { urls: { columns: { url: `CASE WHEN title = 'About us' THEN NULL ELSE url END` } } } },
      (d) => `${f(d, 'urls')}: NULL in key column "url" at row 3`,
    ],
    [
      'NULL in the second key column, before a NULL in the first',
      {
        tables: {
          links: {
            columns: {
              url_from: `CASE WHEN anchor = 'About' THEN NULL ELSE url_from END`,
              url_to: `CASE WHEN anchor = 'Lib' THEN NULL ELSE url_to END`,
            },
          },
        },
      },
      (d) => `${f(d, 'links')}: NULL in key column "url_from" at row 2`,
    ],
    [
      'duplicate key',
      {
        tables: {
          links: {
            from: `(VALUES ('${W}/about', '${W}/', true, 'Home', 200), ('${W}/', '${W}/about', true, 'About', 200),
                    ('${W}/', '${W}/old', true, 'Old', 301), ('${W}/about', '${W}/', true, 'Home again', 200))
                   AS r(url_from, url_to, internal, anchor, status)`,
          },
        },
      },
      (d) =>
        `${f(d, 'links')}: duplicate key (url_to, url_from) = ("${W}/", "${W}/about") at row 4, first seen at row 1`,
    ],
    [
      'a value outside an enum column',
      {
        tables: {
          uncrawled_urls: {
            from: `(VALUES ('${W}/a', 'robots_disallowed', '${W}/'), ('${W}/b', 'robots', '${W}/'),
                    ('${W}/c', NULL, '${W}/')) AS r(url, reason, found_at_url)`,
          },
        },
      },
      (d) =>
        `${f(d, 'uncrawled_urls')}: column "restricted_reason" has value "robots" at row 2, expected one of robots_disallowed, meta_nofollow, link_nofollow, excluded_by_pattern, outside_scope, crawl_limit`,
    ],
    [
      'a value outside an enum column of an optional column',
      {
        tables: {
          sitemaps: {
            from: `(VALUES ('${W}/sitemap.xml', 'Robots_Disallowed')) AS r(url, reason)`,
            columns: { url: 'url', sitemap_type: null, url_count: null, restricted_reason: 'reason' },
          },
        },
      },
      (d) =>
        `${f(d, 'sitemaps')}: column "restricted_reason" has value "Robots_Disallowed" at row 1, expected one of robots_disallowed, meta_nofollow, link_nofollow, excluded_by_pattern, outside_scope, crawl_limit`,
    ],
    [
      'duplicate key in an optional source table',
      {
        tables: {
          search_console: {
            from: `(VALUES (DATE '2024-05-01', '${W}/', 5, 100, 3.5), (DATE '2024-05-02', '${W}/', 7, 120, 3.1),
                    (DATE '2024-05-01', '${W}/', 1, 40, 12.0)) AS r(date, url, clicks, impressions, position)`,
          },
        },
      },
      (d) =>
        `${f(d, 'search_console')}: duplicate key (date, url) = ("2024-05-01", "${W}/") at row 3, first seen at row 1`,
    ],
  ];

  it.each(cases)('%s', async (_name, options, message) => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    const ex = await exportOf({ ...options, manifest: { crawlId: 2, ...options.manifest } });

    await expect(loadCrawl({ dataDir, exportDir: ex.dir })).rejects.toEqual(new LoadError(message(ex.dir)));

    expect(snapshotTree(dataDir)).toEqual(before);
    expect(precompute).not.toHaveBeenCalled();
  });

  it('an export directory that does not exist', async () => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    const missing = path.join(tempDir('export-'), 'nope');
    await expect(loadCrawl({ dataDir, exportDir: missing })).rejects.toEqual(
      new LoadError(`${missing}: export directory not found`),
    );
    expect(snapshotTree(dataDir)).toEqual(before);
  });

  it('a crawl already loaded for that website, unless replace', async () => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    const live = readCurrentLoad(dataDir, SITE, 1)!;
    const ex = await exportOf();
    const current = path.join(crawlDir(dataDir, SITE, 1), CURRENT_FILE);

    await expect(loadCrawl({ dataDir, exportDir: ex.dir })).rejects.toEqual(
      new LoadError(
        `${current}: crawl 1 of website "${SITE}" is already loaded (load ${live.loadId}); use --replace to load it again`,
        'already-loaded',
      ),
    );
    expect(snapshotTree(dataDir)).toEqual(before);
  });

  it("a new website's first load is in progress to a store scan made meanwhile, not an unreadable folder", async () => {
    const dataDir = tempDir('data-');
    const scans: { scan: StoreScan; hasWebsiteFile: boolean }[] = [];
    precompute.mockImplementation(() => {
      const hasWebsiteFile = fs.existsSync(path.join(websiteDir(dataDir, SITE), WEBSITE_FILE));
      scans.push({ scan: scanStore(dataDir), hasWebsiteFile });
      return Promise.resolve();
    });
    await loadCrawl({ dataDir, exportDir: (await exportOf()).dir });

    expect(scans).toEqual([{ scan: { websites: [], crawls: [], unreadable: [] }, hasWebsiteFile: false }]);
    expect(scanStore(dataDir).websites.map((w) => w.id)).toEqual([SITE]);
    // Once a crawl is published, a missing website.json is a problem again.
    fs.rmSync(path.join(websiteDir(dataDir, SITE), WEBSITE_FILE));
    expect(scanStore(dataDir).unreadable).toEqual([
      {
        dir: websiteDir(dataDir, SITE),
        reason: expect.stringMatching(/^website\.json is unreadable \(ENOENT/) as string,
      },
    ]);
  });

  it('a failing precompute: the partial load, lock and new directories are removed', async () => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    let partialSeen: string[] = [];
    precompute.mockImplementation(() => {
      partialSeen = fs.readdirSync(crawlDir(dataDir, SITE, 2));
      return Promise.reject(new Error('precompute exploded'));
    });
    const ex = await exportOf({ manifest: { crawlId: 2 } });

    await expect(loadCrawl({ dataDir, exportDir: ex.dir })).rejects.toThrow('precompute exploded');

    expect(partialSeen).toEqual([expect.stringMatching(/^[a-z0-9-]+\.partial$/) as string]);
    expect(snapshotTree(dataDir)).toEqual(before);
  });

  it.each([
    ['a new older crawl', 2, false],
    ['a replaced crawl', 1, true],
  ])('a failing refresh of the next newer crawl publishes nothing: %s', async (_name, crawlId, replace) => {
    const dataDir = seeded();
    await loadCrawl({ dataDir, exportDir: (await exportOf({ manifest: { crawlId: 3 } })).dir });
    const before = snapshotTree(dataDir);
    const ex = await exportOf({ manifest: { crawlId } });
    let calls = 0;
    precompute.mockImplementation(() =>
      ++calls === 2 ? Promise.reject(new Error('refresh exploded')) : Promise.resolve(),
    );

    await expect(loadCrawl({ dataDir, exportDir: ex.dir, replace })).rejects.toEqual(
      new LoadError(
        `crawl ${crawlId} of website "${SITE}" was not loaded: refreshing the Added/Removed of crawl 3 against it failed (refresh exploded)`,
        'failed',
      ),
    );
    expect(calls).toBe(2);
    expect(snapshotTree(dataDir)).toEqual(before);
  });

  it('an aborted load rejects as interrupted and leaves nothing behind', async () => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    const controller = new AbortController();
    precompute.mockImplementation(() => {
      controller.abort();
      return Promise.resolve();
    });
    const ex = await exportOf({ manifest: { crawlId: 2 } });

    await expect(loadCrawl({ dataDir, exportDir: ex.dir, signal: controller.signal })).rejects.toEqual(
      new LoadError('load interrupted', 'interrupted'),
    );
    expect(snapshotTree(dataDir)).toEqual(before);
  });
});

describe('loadCrawl: the store protocol', () => {
  it('replaces a loaded crawl with --replace and removes the old load', async () => {
    const dataDir = seeded();
    const old = readCurrentLoad(dataDir, SITE, 1)!;
    const ex = await exportOf({
      tables: {
        urls: {
          from: `(VALUES ('${W}/only', 200, true, 'Only', 0, 0.5)) AS r(url, status, indexable, title, level, fetch_time)`,
        },
      },
    });

    const result = await loadCrawl({ dataDir, exportDir: ex.dir, replace: true });

    expect(result.replacedLoadId).toBe(old.loadId);
    expect(result.loadId > old.loadId).toBe(true);
    expect(fs.existsSync(old.dir)).toBe(false);
    expect(readCurrentLoad(dataDir, SITE, 1)?.loadId).toBe(result.loadId);
    expect(fs.readdirSync(crawlDir(dataDir, SITE, 1)).sort()).toEqual([CURRENT_FILE, result.loadId].sort());
    expect(await query(result.dbFile, 'SELECT url FROM c.urls')).toEqual([{ url: `${W}/only` }]);
  });

  it('loads a crawl that is not there yet when asked to replace it', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf();
    const result = await loadCrawl({ dataDir, exportDir: ex.dir, replace: true });
    expect(result.replacedLoadId).toBeNull();
    expect(readCurrentLoad(dataDir, SITE, 1)?.loadId).toBe(result.loadId);
  });

  it('removes what interrupted loads left behind, keeping live crawls', async () => {
    const dataDir = seeded();
    const site = websiteDir(dataDir, SITE);
    const live1 = readCurrentLoad(dataDir, SITE, 1)!;
    const liveSnapshot = snapshotTree(live1.dir);
    fs.mkdirSync(path.join(site, '1', 'zzz-1.partial'));
    fs.writeFileSync(path.join(site, '1', 'zzz-1.partial', CRAWL_DB_FILE), 'half a database');
    fs.mkdirSync(path.join(site, '1', 'unpublished-load'));
    fs.mkdirSync(path.join(site, '3', 'abc-3.partial'), { recursive: true });
    fs.writeFileSync(path.join(site, '1', `${CURRENT_FILE}.999.tmp`), 'x');

    const result = await loadCrawl({ dataDir, exportDir: (await exportOf({ manifest: { crawlId: 2 } })).dir });

    expect(fs.readdirSync(site).sort()).toEqual(['1', '2', WEBSITE_FILE]);
    expect(fs.readdirSync(path.join(site, '1')).sort()).toEqual([CURRENT_FILE, live1.loadId].sort());
    expect(fs.readdirSync(path.join(site, '2')).sort()).toEqual([CURRENT_FILE, result.loadId].sort());
    expect(snapshotTree(live1.dir)).toEqual(liveSnapshot);
  });

  it('refuses while another live process holds the lock, and takes the lock over once that process is gone', async () => {
    const dataDir = seeded();
    const lockFile = path.join(websiteDir(dataDir, SITE), LOCK_FILE);
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'wx');
         fs.writeSync(fd, process.pid + '\\n'); fs.closeSync(fd); console.log('locked'); setInterval(() => {}, 1000);`,
        lockFile,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await waitForLine(holder, 'locked');
      const before = snapshotTree(dataDir);
      const ex = await exportOf({ manifest: { crawlId: 2 } });

      await expect(loadCrawl({ dataDir, exportDir: ex.dir })).rejects.toEqual(
        new LoadError(`${lockFile}: another load (pid ${holder.pid}) is running for website "${SITE}"`, 'locked'),
      );
      expect(snapshotTree(dataDir)).toEqual(before);

      await kill(holder, 'SIGKILL');
      const result = await loadCrawl({ dataDir, exportDir: ex.dir });
      expect(readCurrentLoad(dataDir, SITE, 2)?.loadId).toBe(result.loadId);
      expect(fs.existsSync(lockFile)).toBe(false);
    } finally {
      await kill(holder, 'SIGKILL');
    }
  });

  it('lets another process read a live crawl READ_ONLY while a new load runs', async () => {
    const dataDir = seeded();
    const live1 = readCurrentLoad(dataDir, SITE, 1)!;
    const reader = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DuckDBInstance } from '@duckdb/node-api';
         const db = await DuckDBInstance.create(process.argv[1], { access_mode: 'READ_ONLY' });
         const conn = await db.connect();
         let reads = 0, open = true;
         process.stdin.on('end', () => { open = false; });
         process.stdin.resume();
         while (open) {
           const rows = (await conn.runAndReadAll('SELECT count(*) AS n FROM urls')).getRowObjectsJS();
           reads++;
           console.log('read ' + reads + ' ' + rows[0].n);
           await new Promise((resolve) => setTimeout(resolve, 10));
         }
         conn.closeSync(); db.closeSync();`,
        live1.dbFile,
      ],
      { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const lines = collectLines(reader.stdout);
    const stderr = collect(reader.stderr);
    try {
      await waitForLine(reader, 'read 1 6');
      let readsDuringLoad = 0;
      precompute.mockImplementation(async (conn, ctx) => {
        const start = lines.length;
        await conn.run(`ATTACH ${quoteLiteral(ctx.previous!.dbFile)} AS prev (READ_ONLY)`);
        const rows = (await conn.runAndReadAll('SELECT count(*) AS n FROM prev.urls')).getRowObjectsJS();
        expect(rows[0]?.n).toBe(6n);
        await waitFor(() => lines.length >= start + 3);
        await conn.run('DETACH prev');
        readsDuringLoad = lines.length - start;
      });

      const result: LoadResult = await loadCrawl({
        dataDir,
        exportDir: (await exportOf({ manifest: { crawlId: 2 } })).dir,
      });

      expect(result.previousCrawlId).toBe(1);
      expect(readsDuringLoad).toBeGreaterThanOrEqual(3);
      reader.stdin.end();
      const code = await new Promise<number | null>((resolve) => reader.once('exit', resolve));
      expect(stderr()).toBe('');
      expect(code).toBe(0);
      expect(lines.every((line) => / 6$/.test(line))).toBe(true);
    } finally {
      await kill(reader, 'SIGKILL');
    }
  });
});

describe('scripts/load-crawl.ts', () => {
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess =>
    spawn(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const child = cli(args, env);
    const [stdout, stderr] = [collect(child.stdout!), collect(child.stderr!)];
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout: stdout(), stderr: stderr() };
  };

  /** Big enough that loading takes seconds, so a signal lands mid-load. */
  let bigExport: string;
  const big = async (): Promise<string> => {
    bigExport ??= (
      await exportOf({
        manifest: { crawlId: 2 },
        tables: {
          urls: {
            from: 'range(200000) t(i)',
            columns: {
              url: `'${W}/p/' || hash(i)`,
              http_status_code: 'CAST(200 AS INTEGER)',
              indexable: 'TRUE',
              found_in_sitemap: 'i % 2 = 0',
              page_title: `'Page ' || i`,
              page_title_length: 'CAST(5 + length(CAST(i AS VARCHAR)) AS INTEGER)',
              h1_tag: `['Heading ' || i]`,
              redirect_chain: null,
              level: 'CAST(i % 7 AS INTEGER)',
              fetch_time: 'CAST(i % 100 / 10 AS DOUBLE)',
            },
          },
          links: {
            from: 'range(1000000) t(i)',
            columns: {
              url_from: `'${W}/p/' || hash(i % 200000)`,
              url_to: `'${W}/p/' || hash(i // 200000 * 7919 + i % 200000 + 1)`,
              internal: 'TRUE',
              anchor_text: `'Anchor ' || i % 1000`,
              url_to_status_code: 'CAST(200 AS INTEGER)',
            },
          },
        },
      })
    ).dir;
    return bigExport;
  };

  it('loads an export: exit 0, progress lines and a summary on stdout, nothing on stderr', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf();
    const { code, stdout, stderr } = await run([ex.dir], { DATA_DIR: dataDir });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('load-crawl: [0/32] checking urls');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^load-crawl: loaded crawl 1 of website "${SITE}" as load [a-z0-9-]+: 4 urls, 4 links, 3 unique links; no previous crawl; registered website "${SITE}"; \\d+\\.\\d s$`,
      ),
    );
    expect(readCurrentLoad(dataDir, SITE, 1)).toBeDefined();
  });

  it('takes --data-dir over DATA_DIR', async () => {
    const [flagDir, envDir] = [tempDir('data-'), tempDir('data-')];
    const ex = await exportOf();
    expect((await run([ex.dir, '--data-dir', flagDir], { DATA_DIR: envDir })).code).toBe(0);
    expect(readCurrentLoad(flagDir, SITE, 1)).toBeDefined();
    expect(fs.readdirSync(envDir)).toEqual([]);
  });

  it('prints one line and exits 1 on a refused load', async () => {
    const dataDir = tempDir('data-');
    const ex = await exportOf({ manifestText: null });
    const { code, stderr } = await run([ex.dir], { DATA_DIR: dataDir });
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `load-crawl: ${path.join(ex.dir, 'manifest.json')}: not found\n`,
    });
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it.each([
    [[], 'missing EXPORT_DIR'],
    [['a', 'b'], 'unexpected argument b'],
    [['a', '--force'], "Unknown option '--force'"],
  ])('exits 2 on bad usage %j', async (args, problem) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^load-crawl: ${problem}.*\\(usage: npm run load-crawl -- EXPORT_DIR .*\\)\\n$`));
  });

  it('survives kill -9 mid-load: no new crawl, earlier crawl intact, the next load cleans up', async () => {
    const dataDir = seeded();
    const exportDir = await big();
    const live1 = readCurrentLoad(dataDir, SITE, 1)!;
    const crawl1Before = snapshotTree(crawlDir(dataDir, SITE, 1));
    const child = cli([exportDir], { DATA_DIR: dataDir });
    const crawl2 = crawlDir(dataDir, SITE, 2);
    try {
      await waitFor(() => partialDb(crawl2) !== undefined, 30_000);
      await sleep(300);
    } finally {
      await kill(child, 'SIGKILL');
    }

    expect(readCurrentLoad(dataDir, SITE, 2)).toBeUndefined();
    expect(listLiveCrawls(dataDir).map((c) => c.crawlId)).toEqual([1]);
    expect(snapshotTree(crawlDir(dataDir, SITE, 1))).toEqual(crawl1Before);
    expect(fs.readFileSync(path.join(websiteDir(dataDir, SITE), LOCK_FILE), 'utf8').trim()).toBe(String(child.pid));
    expect(fs.readdirSync(crawl2).some((name) => name.endsWith('.partial'))).toBe(true);

    const result = await loadCrawl({ dataDir, exportDir });
    expect(result.tables.urls).toBe(200_000);
    expect(fs.readdirSync(crawl2).sort()).toEqual([CURRENT_FILE, result.loadId].sort());
    expect(fs.existsSync(path.join(websiteDir(dataDir, SITE), LOCK_FILE))).toBe(false);
    expect(readCurrentLoad(dataDir, SITE, 1)).toEqual(live1);
  });

  it('on SIGINT removes the partial load and the lock and exits 130', async () => {
    const dataDir = seeded();
    const before = snapshotTree(dataDir);
    const child = cli([await big()], { DATA_DIR: dataDir });
    const stderr = collect(child.stderr!);
    try {
      await waitFor(() => partialDb(crawlDir(dataDir, SITE, 2)) !== undefined, 30_000);
      await sleep(200);
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ code, stderr: stderr() }).toEqual({ code: 130, stderr: 'load-crawl: load interrupted\n' });
      expect(snapshotTree(dataDir)).toEqual(before);
    } finally {
      await kill(child, 'SIGKILL');
    }
  });
});

function partialDb(crawlPath: string): string | undefined {
  try {
    const partial = fs.readdirSync(crawlPath).find((name) => name.endsWith('.partial'));
    const db = partial && path.join(crawlPath, partial, CRAWL_DB_FILE);
    return db && fs.existsSync(db) ? db : undefined;
  } catch {
    return undefined;
  }
}

/** Complete lines as they arrive (a chunk may end mid-line). */
function collectLines(stream: NodeJS.ReadableStream): string[] {
  const lines: string[] = [];
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  return lines;
}

function collect(stream: NodeJS.ReadableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(10);
  }
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.split('\n').includes(line)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing "${line}"`)));
  });
}

/** Kills a child and waits until it has been reaped, so its pid is no longer alive. */
async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
