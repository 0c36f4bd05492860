/**
 * The row files a crawl writes hold exactly the keys crawl-records.ts declares, and the export reads every declared
 * key: a crawl of a site that makes the writers use every key, its rows as written, and the column references of
 * every statement the export runs on them (as DuckDB's parser sees them).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { captureRecords, type CapturedRecords } from '../test/helpers/crawl-records-capture.ts';
import { serveRoutes, testCrawlOptions, type Route } from '../test/helpers/crawl-site.ts';
import { openDatabase } from '../db/duckdb.ts';
import { contractTableQueries } from './contract-tables.ts';
import { crawlRecords, recordFileOf, vitalColumns, type CrawlRecordKind } from './crawl-records.ts';
import { buildCrawlTables, type SqlRunner } from './crawl-tables.ts';
import { crawlWebsite } from './crawl.ts';
import { columnsReadBy } from '../test/helpers/sql-columns.ts';

const html = (head: string, body: string): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

/**
 * Pages that use every key: directives, both canonicals, a redirect, hreflang, image links with alt, a nofollow, and
 * (crawled rendered) a page whose script the browser runs.
 */
function site(origin: string): Record<string, Route> {
  const type = { 'content-type': 'text/html; charset=utf-8' };
  return {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: `User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\nSitemap: ${origin}/gone.xml\nSitemap: ${origin}/private/map.xml\nSitemap: http://localhost:1/map.xml\n`,
    },
    '/sitemap.xml': {
      headers: { 'content-type': 'application/xml' },
      body: `<urlset><url><loc>${origin}/listed.html</loc></url></urlset>`,
    },
    '/': {
      headers: { ...type, 'x-robots-tag': 'noarchive', link: `<${origin}/>; rel="canonical"` },
      body: html(
        `<title>Home</title><meta name="description" content="d"><link rel="canonical" href="/">` +
          `<link rel="alternate" hreflang="de" href="/de.html"><meta property="og:title" content="t">` +
          `<script type="application/ld+json">{"@type":"Article"}</script>`,
        `<h1>a</h1><h2>b</h2><h3>c</h3><a href="/moved">moved</a> <a href="/moved">again</a> ` +
          `<a href="/de.html" hreflang="de">de</a> <a href="/x.html" rel="nofollow">x</a> ` +
          `<a href="/listed.html"><img src="/pic.png" alt="pic"></a> <img src="/bare.png"> ` +
          `<a href="http://localhost:1/">down</a> <a href="/app.html">app</a>`,
      ),
    },
    '/moved': { status: 301, headers: { location: '/de.html' } },
    '/de.html': { headers: type, body: html('<title>De</title>', 'de') },
    '/listed.html': { headers: type, body: html('<title>Listed</title>', 'listed') },
    '/app.html': { headers: type, body: html('<title>App</title><script src="/private/app.js"></script>', APP) },
  };
}

/**
 * A page whose script uses every rendered key: an error and an exception, a failed request, a hash route, a link
 * added and one removed.
 */
const APP = `<a id="gone" href="/de.html?raw">raw only</a><script>
  console.error('app: widget failed');
  document.getElementById('gone').remove();
  fetch('http://localhost:1/api').catch(() => {});
  document.body.insertAdjacentHTML('beforeend', '<a href="#/guide">guide</a> <a href="/listed.html?js">js</a>');
  setTimeout(() => { throw new Error('app: late failure'); });
</script>`;

const kinds = Object.keys(crawlRecords) as CrawlRecordKind[];

describe('crawl records', () => {
  let server: http.Server;
  let origin: string;
  let work: string;
  /** The raw crawl's rows and the rendered crawl's (`--render-mode all`) of the same site. */
  let raw: CapturedRecords;
  let rendered: CapturedRecords;

  async function crawlCaptured(name: string, render: boolean): Promise<CapturedRecords> {
    const scratchDir = path.join(work, `${name}-scratch`);
    const capture = captureRecords(scratchDir);
    await crawlWebsite(
      testCrawlOptions(`${origin}/`, path.join(work, `${name}-export`), {
        concurrency: 2,
        scratchDir,
        onProgress: capture.onProgress,
        ...(render ? { renderMode: 'all' as const, renderSettings: { quietMs: 300, capMs: 8000, tabs: 1 } } : {}),
      }),
    );
    expect(fs.readdirSync(scratchDir)).toEqual([]);
    return capture.records();
  }

  beforeAll(async () => {
    ensureDebianPackages([debianPackages.chromium]);
    ({ server, origin } = await serveRoutes(site, { headers: { 'content-type': 'image/png' }, body: '' }));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-records-'));
    raw = await crawlCaptured('raw', false);
    rendered = await crawlCaptured('rendered', true);
  }, 120_000);
  afterAll(() => {
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('writes each kind of row with exactly its declared keys', () => {
    for (const kind of kinds) {
      const written = new Set([...raw[kind], ...rendered[kind]].flatMap((row) => Object.keys(row)));
      const declared = Object.keys(crawlRecords[kind]);
      expect(
        [...written].filter((key) => !declared.includes(key)),
        `${kind}: written, not declared`,
      ).toEqual([]);
      expect(
        declared.filter((key) => !written.has(key)),
        `${kind}: declared, never written`,
      ).toEqual([]);
    }
  });

  it('reads every declared key in the statements that build the export', async () => {
    const dir = path.join(work, 'rows');
    fs.mkdirSync(dir);
    for (const kind of kinds) {
      const lines = rendered[kind].map((row) => JSON.stringify(row));
      fs.writeFileSync(path.join(dir, recordFileOf(kind)), lines.join('\n'));
    }
    const db = await openDatabase(path.join(dir, 'export.duckdb'), { threads: 1 });
    const conn = await db.connect();
    const statements: string[] = [];
    const runner: SqlRunner = {
      run: (sql, ...rest) => {
        statements.push(sql);
        return conn.run(sql, ...rest);
      },
      runAndReadAll: (sql, ...rest) => {
        statements.push(sql);
        return conn.runAndReadAll(sql, ...rest);
      },
    };
    try {
      const file = (kind: CrawlRecordKind): string => path.join(dir, recordFileOf(kind));
      await buildCrawlTables(runner, {
        workDir: dir,
        ...(Object.fromEntries(kinds.map((kind) => [kind, file(kind)])) as Record<CrawlRecordKind, string>),
        renderCount: 0,
        render: () => Promise.resolve([]),
        startId: 0,
      });
      // The reads themselves name every declared key: a key counts as read when a later statement uses it.
      const uses = statements.filter((sql) => !sql.includes('read_json('));
      const read = await columnsReadBy(conn, [...uses, ...Object.values(contractTableQueries())]);
      const declared = { ...crawlRecords, vitals: vitalColumns };
      const unread = Object.entries(declared).map(([kind, columns]) => [
        kind,
        Object.keys(columns).filter((key) => !read.has(key)),
      ]);
      expect(Object.fromEntries(unread), 'declared, never read').toEqual(
        Object.fromEntries(Object.keys(declared).map((kind) => [kind, []])),
      );
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
