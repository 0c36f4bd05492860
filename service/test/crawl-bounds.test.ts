/**
 * Every crawl is bounded (issue 27 §2, §3), against hostile websites served by this test on 127.0.0.1: a crawl-delay
 * of a day, a sitemap index bomb, a site that never ends, and pages that kill the HTML parser.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, parquetFileOf, type Manifest } from '../../catalog/export-contract.ts';
import type { CrawlOptions, CrawlProgress } from '../crawl/crawl-options.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { captureRecords } from './helpers/crawl-records-capture.ts';
import { crawlAndLoad } from './helpers/crawl-and-load.ts';
import { runCrawlCli, testCrawlOptions } from './helpers/crawl-site.ts';

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

type Handler = (url: URL, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => handler(new URL(req.url ?? '/', 'http://x'), res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const sendHtml = (res: http.ServerResponse, body: string | Buffer): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

const baseOptions = (startUrl: string, outDir: string): CrawlOptions =>
  testCrawlOptions(startUrl, outDir, { websiteId: 'bounds', userAgent: 'thc-test' });

describe('crawl bounds', () => {
  let work: string;
  const servers: http.Server[] = [];

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-bounds-'));
  });
  afterAll(() => {
    for (const server of servers) server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('caps a crawl-delay of a day at 10 s, says so, and reports the wait', async () => {
    const { server, origin } = await serve((url, res) => {
      if (url.pathname === '/robots.txt') return void res.end('User-agent: *\nCrawl-delay: 86400\n');
      if (url.pathname === '/sitemap.xml') return void res.writeHead(404).end();
      sendHtml(res, page(url.pathname, '<a href="/a">a</a> <a href="/b">b</a>'));
    });
    servers.push(server);
    const scratchDir = path.join(work, 'delay-scratch');
    const capture = captureRecords(scratchDir);
    const started = Date.now();
    const result = await crawlWebsite({
      ...baseOptions(`${origin}/`, path.join(work, 'delay')),
      maxUrls: 2,
      scratchDir,
      onProgress: capture.onProgress,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.fetched).toBe(2);
    expect(result.notice).toContain(`${origin}/robots.txt asks for a crawl-delay of 86400 s; 10 s was used`);
    const waiting = capture.reports.filter((r) => r.phase === 'waiting');
    expect(waiting.length).toBeGreaterThanOrEqual(3);
    // Nothing happens while the crawl waits, and it is reported all the same, at least every 2 s.
    for (let i = 1; i < waiting.length; i++) {
      expect(waiting[i]!.elapsedMs - waiting[i - 1]!.elapsedMs).toBeLessThan(2600);
      expect(waiting[i]!.lastActivityAt).toBe(waiting[0]!.lastActivityAt);
    }
    const phases = capture.reports.map((r) => r.phase);
    expect(phases.at(-1)).toBe('exporting');
    expect(phases.indexOf('exporting')).toBeGreaterThan(phases.lastIndexOf('waiting'));
  }, 60_000);

  it('reads a sitemap index bomb only up to max URLs, in bounded memory, and never fetches a sitemap off the site', async () => {
    let urlsetsServed = 0;
    let offSiteRequests = 0;
    const other = await serve((_url, res) => {
      offSiteRequests++;
      res.end('<urlset></urlset>');
    });
    servers.push(other.server);
    const { server, origin } = await serve((url, res) => {
      if (url.pathname === '/sitemap.xml') return void res.writeHead(404).end();
      if (url.pathname === '/robots.txt')
        return void res.end(`User-agent: *\nSitemap: ${origin}/index.xml\nSitemap: ${other.origin}/sitemap.xml\n`);
      if (url.pathname === '/index.xml') {
        const maps = Array.from({ length: 200 }, (_, i) => `<sitemap><loc>${origin}/map-${i}.xml</loc></sitemap>`);
        return void res.end(`<sitemapindex>${maps.join('')}</sitemapindex>`);
      }
      const map = /^\/map-(\d+)\.xml$/.exec(url.pathname);
      if (map) {
        urlsetsServed++;
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<urlset>');
        // 50,000 URLs, generated as they are sent.
        for (let chunk = 0; chunk < 50; chunk++) {
          let xml = '';
          for (let i = 0; i < 1000; i++) xml += `<url><loc>${origin}/p/${map[1]}/${chunk * 1000 + i}</loc></url>`;
          res.write(xml);
        }
        return void res.end('</urlset>');
      }
      sendHtml(res, page(url.pathname, ''));
    });
    servers.push(server);
    const outDir = path.join(work, 'bomb');
    const started = Date.now();
    const run = await runCrawlCli([`${origin}/`, '--out', outDir, '--max-urls', '1000'], undefined, [
      '/usr/bin/time',
      '-f',
      'maxrss=%M',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(120_000);
    const maxRssKb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
    expect(maxRssKb).toBeGreaterThan(0);
    expect(maxRssKb / 1024).toBeLessThan(700);
    expect(urlsetsServed).toBe(1);
    expect(offSiteRequests).toBe(0);
    // Not stopped, yet partial: max URLs left most of the site unfetched.
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as Manifest;
    expect([manifest.stoppedEarly, manifest.partialReason]).toEqual([undefined, 'max-urls']);
    const db = await openDatabase();
    const conn = await db.connect();
    try {
      const read = async (sql: string): Promise<unknown[][]> => (await conn.runAndReadAll(sql)).getRows();
      const sitemaps = quoteLiteral(path.join(outDir, parquetFileOf('sitemaps')));
      expect(
        await read(
          `SELECT restricted_reason, count(*)::INTEGER FROM read_parquet(${sitemaps}) GROUP BY ALL ORDER BY ALL`,
        ),
      ).toEqual([
        ['crawl_limit', 199],
        ['outside_scope', 1],
        [null, 2],
      ]);
      const urls = quoteLiteral(path.join(outDir, parquetFileOf('urls')));
      const [[count]] = (await read(`SELECT count(*)::INTEGER FROM read_parquet(${urls})`)) as [[number]];
      expect(count).toBeLessThanOrEqual(1001);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }, 180_000);

  it('stops at its time limit as a kept partial crawl that loads', async () => {
    const requestedAt: number[] = [];
    const { server, origin } = await serve((url, res) => {
      if (url.pathname === '/robots.txt' || url.pathname === '/sitemap.xml') return void res.writeHead(404).end();
      requestedAt.push(Date.now());
      const n = Number(url.pathname.slice(1)) || 0;
      const links = [1, 2, 3].map((i) => `<a href="/${n * 3 + i}">${n * 3 + i}</a>`).join(' ');
      setTimeout(() => sendHtml(res, page(`Page ${n}`, links)), 300);
    });
    servers.push(server);
    const reports: CrawlProgress[] = [];
    const started = Date.now();
    const site = await crawlAndLoad({
      ...baseOptions(`${origin}/`, ''),
      websiteId: 'slow',
      concurrency: 2,
      maxDurationMs: 3000,
      onProgress: (p) => reports.push(p),
    });
    try {
      // Fetching stops at the limit: no request goes out after it.
      expect(Math.max(...requestedAt) - started).toBeLessThan(3000 + 1000);
      expect(reports.find((r) => r.phase === 'exporting')?.elapsedMs).toBeGreaterThanOrEqual(3000);
      expect(site.crawl.stoppedEarly).toBe(true);
      expect(site.crawl.manifest.stoppedEarly).toBe(true);
      expect(site.crawl.manifest.partialReason).toBe('time-limit');
      expect(site.crawl.notice).toContain('the time limit of 0.05 minutes was reached');
      expect(site.crawl.fetched).toBeGreaterThanOrEqual(1);
      expect(site.crawl.fetched).toBeLessThanOrEqual(requestedAt.length);
      expect(site.crawl.tables.urls).toBe(site.crawl.fetched);
      expect((await site.reportRows('internal/all')).length).toBe(site.crawl.fetched);
      expect(site.crawl.tables.uncrawled_urls).toBeGreaterThan(0);
    } finally {
      site.dispose();
    }
  }, 180_000);

  it('records pages that kill the parser and pages over the body limit, and parses every other page', async () => {
    // JSON-LD of a million objects: more than a parse worker's heap holds.
    const killer = Buffer.from(
      page('Killer', 'x', `<script type="application/ld+json">[${'{},'.repeat(1_000_000)}{}]</script>`),
    );
    const huge = Buffer.from(page('Huge', 'word '.repeat(2_300_000)));
    const ordinary = Array.from({ length: 40 }, (_, i) => `<a href="/page-${i}">${i}</a>`).join(' ');
    const { server, origin } = await serve((url, res) => {
      if (url.pathname === '/robots.txt' || url.pathname === '/sitemap.xml') return void res.writeHead(404).end();
      if (url.pathname === '/') {
        const bad =
          '<a href="/killer-1">k</a> <a href="/killer-2">k</a> <a href="/killer-3">k</a> <a href="/huge">h</a>';
        return void sendHtml(res, page('Home', `${bad} ${ordinary}`));
      }
      if (url.pathname.startsWith('/killer-')) return void sendHtml(res, killer);
      if (url.pathname === '/huge') return void sendHtml(res, huge);
      sendHtml(res, page(`Title of ${url.pathname}`, '<h1>ordinary</h1>'));
    });
    servers.push(server);
    const scratchDir = path.join(work, 'killer-scratch');
    const capture = captureRecords(scratchDir);
    const result = await crawlWebsite({
      ...baseOptions(`${origin}/`, path.join(work, 'killer')),
      scratchDir,
      onProgress: capture.onProgress,
    });
    const { nodes, pages } = capture.records();
    const rowOf = (pathname: string): Record<string, unknown> | undefined => {
      const node = nodes.find((n) => n.url === `${origin}${pathname}`);
      return pages.find((p) => p.id === node?.id);
    };
    for (let i = 0; i < 40; i++) expect(rowOf(`/page-${i}`)).toMatchObject({ st: 200, ti: `Title of /page-${i}` });
    for (const n of [1, 2, 3]) {
      const row = rowOf(`/killer-${n}`);
      expect(row).toMatchObject({ st: 200 });
      expect(row?.err).toMatch(/^HTML not parsed \(parser died: .*memory/);
      expect(row?.ti).toBeUndefined();
    }
    expect(rowOf('/huge')).toMatchObject({ st: 200, ti: 'Huge', err: 'body over the 10 MB limit, truncated' });
    expect(result.parseFailures).toBe(3);
  }, 240_000);
});
