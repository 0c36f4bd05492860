import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetFileOf } from '../../catalog/export-contract.ts';
import { quoteLiteral } from '../db/duckdb.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { crawlWebsite } from './crawl.ts';
import { parseLinkHeader, parseRobotsHeader } from './response-headers.ts';
import { serveRoutes, testCrawlOptions, type Route } from '../test/helpers/crawl-site.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { readExportRows } from '../test/helpers/read-export.ts';

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** Redirect chains and a loop, a JavaScript redirect, header directives and canonicals, a deep chain of pages. */
function routes(origin: string): Record<string, Route> {
  const html = (body: string, headers: Record<string, string> = {}): Route => ({
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    body,
  });
  const index = `<urlset><url><loc>${origin}/orphan.html</loc></url></urlset>`;
  return {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nCrawl-delay: 0\n` },
    '/sitemap.xml': {
      headers: { 'content-type': 'application/xml' },
      body: `<sitemapindex><sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap></sitemapindex>`,
    },
    '/sitemap-pages.xml.gz': { headers: { 'content-type': 'application/gzip' }, body: zlib.gzipSync(index) },
    '/': html(
      page(
        'Home',
        '<a href="/hop1">chain</a> <a href="/loop-a">loop</a> <a href="/js.html">js</a> <a href="/headers.html">h</a> ' +
          '<a href="/deep/1">deep</a> <a href="/skip/me.html">skip</a> <a href="/Caf%c3%a9">cafe</a> ' +
          '<a href="/two-canonicals.html">two</a>',
      ),
    ),
    '/hop1': { status: 301, headers: { location: '/hop2' } },
    '/hop2': { status: 302, headers: { location: '/final.html' } },
    '/final.html': html(page('Final', '<h1>Final</h1>')),
    '/loop-a': { status: 301, headers: { location: '/loop-b' } },
    '/loop-b': { status: 301, headers: { location: '/loop-a' } },
    '/js.html': html(page('JS', '<script>window.location.href = "/final.html";</script>')),
    '/headers.html': html(page('Headers', '', `<link rel="canonical" href="/final.html">`), {
      'x-robots-tag': 'noindex, noarchive',
      link: `<${origin}/other.html>; rel="canonical"`,
    }),
    '/Caf%C3%A9': html(page('Café', '<h1>Café</h1>')),
    // Canonicals that disagree name none: the page stays indexable.
    '/two-canonicals.html': html(
      page('Two', '', '<link rel="canonical" href="/final.html"><link rel="canonical" href="/two-canonicals.html">'),
    ),
    '/orphan.html': html(page('Orphan', '')),
    ...Object.fromEntries(
      [1, 2, 3, 4, 5].map((n) => [`/deep/${n}`, html(page(`Deep ${n}`, `<a href="/deep/${n + 1}">next</a>`))]),
    ),
  };
}

describe('crawlWebsite', () => {
  let server: http.Server;
  let origin: string;
  let work: string;

  beforeAll(async () => {
    ({ server, origin } = await serveRoutes(routes, { body: page('Not found', '') }));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-unit-'));
  });
  afterAll(() => {
    server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function crawl(name: string, options: Partial<CrawlOptions> = {}): Promise<string> {
    const outDir = path.join(work, name);
    await crawlWebsite(testCrawlOptions(`${origin}/`, outDir, options));
    return outDir;
  }

  const rows = readExportRows;
  const at = (p: string): string => `${origin}${p}`;

  it('records redirect chains, loops, JavaScript redirects, header directives and sitemap orphans', async () => {
    const dir = await crawl('full', { exclude: [/\/skip\//] });
    const urls = await rows(
      dir,
      'urls',
      `SELECT url, http_status_code AS st, redirect_count AS hops, redirected_to_url AS target,
         redirected_to_status_code AS target_st, is_redirect_loop AS loop, indexable,
         [h.status_code FOR h IN redirect_chain] AS chain, [h.is_js_redirect FOR h IN redirect_chain] AS js,
         header_noindex, header_noarchive, canonical_html_url, canonical_header_url, canonical_url,
         found_in_sitemap, found_in_web_crawl, found_at_sitemap, level
       FROM $table ORDER BY url`,
    );
    const of = (p: string): Record<string, unknown> | undefined => urls.find((u) => u.url === at(p));
    expect(of('/hop1')).toMatchObject({
      st: 301,
      hops: 2,
      chain: [301, 302],
      target: at('/final.html'),
      target_st: 200,
    });
    expect(of('/hop2')).toMatchObject({ hops: 1, target: at('/final.html') });
    expect(of('/loop-a')).toMatchObject({ loop: true, chain: [301, 301], target: at('/loop-a') });
    expect(of('/js.html')).toMatchObject({ st: 200, hops: 1, js: [true], target: at('/final.html'), indexable: false });
    expect(of('/headers.html')).toMatchObject({
      header_noindex: true,
      header_noarchive: true,
      canonical_html_url: at('/final.html'),
      canonical_header_url: at('/other.html'),
      canonical_url: null,
      indexable: false,
    });
    expect(of('/Caf%C3%A9')).toMatchObject({ st: 200 });
    expect(of('/orphan.html')).toMatchObject({
      found_in_sitemap: true,
      found_in_web_crawl: false,
      found_at_sitemap: at('/sitemap-pages.xml.gz'),
      level: null,
    });
    expect(of('/deep/5')).toMatchObject({ level: 5 });
    const sitemaps = await rows(
      dir,
      'sitemaps',
      'SELECT url, sitemap_type, links_count, url_count FROM $table ORDER BY url',
    );
    expect(sitemaps).toEqual([
      { url: at('/sitemap-pages.xml.gz'), sitemap_type: 'urlset', links_count: 0, url_count: 1 },
      { url: at('/sitemap.xml'), sitemap_type: 'index', links_count: 1, url_count: 0 },
    ]);
    const uncrawled = await rows(dir, 'uncrawled_urls', 'SELECT url, restricted_reason AS reason FROM $table');
    expect(uncrawled).toEqual([{ url: at('/skip/me.html'), reason: 'excluded_by_pattern' }]);
  });

  it('renders exactly the first N indexable pages of the urls table, their vitals on their rows', async () => {
    ensureDebianPackages([debianPackages.chromium]);
    const vitalsOf = async (render: number): Promise<Record<string, unknown>[]> =>
      rows(
        await crawl(`render-${render}`, { render, exclude: [/\/skip\//] }),
        'urls',
        `SELECT url, indexable, performance_ttfb IS NOT NULL AS rendered, performance_fcp IS NOT NULL AS painted
         FROM $table ORDER BY url`,
      );
    const all = await vitalsOf(100);
    const indexable = all.filter((u) => u.indexable).map((u) => u.url);
    expect(indexable).toContain(at('/two-canonicals.html'));
    expect(all.filter((u) => u.rendered).map((u) => u.url)).toEqual(indexable);
    expect(all.find((u) => u.url === at('/final.html'))?.painted).toBe(true);
    const some = await vitalsOf(3);
    expect(some.filter((u) => u.rendered)).toHaveLength(3);
    expect(some.filter((u) => u.rendered).every((u) => u.indexable)).toBe(true);
  }, 120_000);

  it('bounds the crawl by --max-depth and --max-urls, listing the rest as crawl_limit', async () => {
    const shallow = await crawl('shallow', { maxDepth: 2, sitemaps: [] });
    const deep = await rows(shallow, 'uncrawled_urls', `SELECT url, restricted_reason AS reason FROM $table`);
    expect(deep).toContainEqual({ url: at('/deep/3'), reason: 'crawl_limit' });
    expect(deep.map((u) => u.url)).not.toContain(at('/deep/2'));

    const few = await crawl('few', { maxUrls: 3 });
    const [counts] = await rows(
      few,
      'urls',
      `SELECT count(*)::INTEGER AS n, (SELECT count(*) FROM read_parquet(${quoteLiteral(path.join(few, parquetFileOf('uncrawled_urls')))})
         WHERE restricted_reason = 'crawl_limit')::INTEGER AS limited FROM $table`,
    );
    expect(counts).toEqual({ n: 3, limited: expect.any(Number) as number });
    expect(counts?.limited).toBeGreaterThan(0);
  });
});

describe('parseRobotsHeader', () => {
  it('reads the directives, with none and agent-scoped values', () => {
    expect(parseRobotsHeader('noindex, nofollow')).toMatchObject({ hn: true, hf: true, ha: false });
    expect(parseRobotsHeader('none')).toMatchObject({ hn: true, hf: true });
    expect(parseRobotsHeader('otherbot: noarchive, nosnippet')).toMatchObject({ hn: false, ha: true, hs: true });
    expect(parseRobotsHeader(undefined)).toEqual({ hn: false, hf: false, ha: false, hs: false, hi: false, ht: false });
  });
});

describe('parseLinkHeader', () => {
  it('finds the canonical and the hreflang alternates, resolved against the page', () => {
    expect(
      parseLinkHeader(
        '</en/>; rel="alternate"; hreflang="en", <https://x.example/c>; rel=canonical',
        'https://x.example/a/b',
      ),
    ).toEqual({ canonical: 'https://x.example/c', hreflang: [{ hreflang: 'en', url: 'https://x.example/en/' }] });
    expect(parseLinkHeader('<style.css>; rel=preload', 'https://x.example/')).toEqual({
      canonical: null,
      hreflang: [],
    });
  });
});
