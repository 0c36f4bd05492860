/**
 * The row files a crawl writes hold exactly the keys crawl-records.ts declares (and so exactly the columns
 * export-crawl.ts reads back): a crawl of a site that makes the writers use every key, its rows read as written.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRecords } from '../test/helpers/crawl-records-capture.ts';
import { serveRoutes, testCrawlOptions, type Route } from '../test/helpers/crawl-site.ts';
import { crawlRecords, type CrawlRecordKind } from './crawl-records.ts';
import { crawlWebsite } from './crawl.ts';

const html = (head: string, body: string): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

/** Pages that use every key: directives, both canonicals, a redirect, hreflang, image links with alt, a nofollow. */
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
          `<a href="http://localhost:1/">down</a>`,
      ),
    },
    '/moved': { status: 301, headers: { location: '/de.html' } },
    '/de.html': { headers: type, body: html('<title>De</title>', 'de') },
    '/listed.html': { headers: type, body: html('<title>Listed</title>', 'listed') },
  };
}

describe('crawl records', () => {
  let server: http.Server;
  let origin: string;
  let work: string;

  beforeAll(async () => {
    ({ server, origin } = await serveRoutes(site, { headers: { 'content-type': 'image/png' }, body: '' }));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-records-'));
  });
  afterAll(() => {
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('writes each kind of row with exactly its declared keys', async () => {
    const scratchDir = path.join(work, 'scratch');
    const capture = captureRecords(scratchDir);
    await crawlWebsite(
      testCrawlOptions(`${origin}/`, path.join(work, 'export'), {
        concurrency: 2,
        scratchDir,
        onProgress: capture.onProgress,
      }),
    );
    const records = capture.records();
    for (const kind of Object.keys(crawlRecords) as CrawlRecordKind[]) {
      const written = new Set(records[kind].flatMap((row) => Object.keys(row)));
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
    expect(fs.readdirSync(scratchDir)).toEqual([]);
  });
});
