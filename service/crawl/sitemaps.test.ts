import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemaps.ts';

describe('parseSitemap', () => {
  it('reads a urlset with escaped entities', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.com/a?x=1&amp;y=2</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> http://example.com/b </loc></url>
</urlset>`;
    expect(parseSitemap(Buffer.from(xml))).toEqual({
      type: 'urlset',
      format: 'xml',
      locs: ['http://example.com/a?x=1&y=2', 'http://example.com/b'],
      parseError: null,
    });
  });

  it('reads a gzipped sitemap index', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://example.com/s1.xml</loc></sitemap><sitemap><loc>http://example.com/s2.xml.gz</loc></sitemap>
</sitemapindex>`;
    const parsed = parseSitemap(zlib.gzipSync(xml));
    expect(parsed.type).toBe('index');
    expect(parsed.locs).toEqual(['http://example.com/s1.xml', 'http://example.com/s2.xml.gz']);
    expect(parsed.parseError).toBeNull();
  });

  it('reads plain-text and RSS sitemaps', () => {
    expect(parseSitemap(Buffer.from('http://example.com/a\n\nhttp://example.com/b\n')).locs).toEqual([
      'http://example.com/a',
      'http://example.com/b',
    ]);
    const rss = parseSitemap(
      Buffer.from('<rss><channel><item><link>http://example.com/p</link></item></channel></rss>'),
    );
    expect(rss).toMatchObject({ format: 'rss', locs: ['http://example.com/p'], parseError: null });
  });

  it('reports what is not a sitemap', () => {
    expect(parseSitemap(Buffer.from('<html><body>Not found</body></html>')).parseError).toBe(
      'unexpected root element <html>',
    );
    expect(parseSitemap(Buffer.from('<urlset><url><loc>http://example.com/a</loc></url>')).parseError).toBe(
      'malformed XML',
    );
    expect(parseSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3])).parseError).toMatch(/^gzip: /);
  });
});
