import { describe, expect, it } from 'vitest';
import { parseHtml } from './parse-html.ts';
import { hreflangCount, rawColumns } from './rendered-page.ts';

const URL = 'https://example.com/en';
const page = (head: string, body = '') =>
  parseHtml(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, URL);
const alternate = (lang: string, href: string) => `<link rel="alternate" hreflang="${lang}" href="${href}">`;
const noHeader = { canonical: null, hreflang: [] };

describe('hreflangCount', () => {
  it('counts distinct other pages, as the links table keeps hreflang rows', () => {
    const head = [
      alternate('en', URL),
      alternate('de', '/de'),
      alternate('de-AT', '/de'),
      alternate('fr', '/fr'),
      alternate('it', '/it'),
      alternate('es', '/es'),
      '<link rel="canonical" href="/es">',
    ].join('');
    // The page itself is no alternate; /de counts once; /fr is also a hyperlink and /es the canonical, both stronger.
    expect(hreflangCount(page(head, '<a href="/fr">fr</a>'), URL, noHeader)).toBe(2);
  });

  it('adds the Link header’s alternates and leaves out its canonical', () => {
    const header = {
      canonical: 'https://example.com/pl',
      hreflang: [{ url: 'https://example.com/nl' }, { url: 'https://example.com/pl' }, { url: URL }],
    };
    expect(hreflangCount(page(alternate('de', '/de')), URL, header)).toBe(2);
  });

  it('is zero for a page without alternates', () => {
    expect(hreflangCount(page('<title>t</title>'), URL, noHeader)).toBe(0);
  });
});

describe('rawColumns', () => {
  it('keeps the raw HTML’s headings, alternates, structured data and content hash', () => {
    const raw = page(
      `<title>Raw</title>${alternate('de', '/de')}<script type="application/ld+json">{"@type":"Product","name":"x"}</script>`,
      '<h1>One</h1><h2>Two</h2><h3>Three</h3><p>Some words here.</p>',
    );
    expect(rawColumns(raw, URL, noHeader)).toMatchObject({
      xti: 'Raw',
      xh1: ['One'],
      xh2: ['Two'],
      xh3: ['Three'],
      xhl: 1,
      xsd: true,
      xst: ['product'],
      xbh: raw.bodyHash,
    });
    expect(rawColumns(page(''), URL, noHeader)).toMatchObject({ xsd: false, xst: [], xhl: 0 });
  });
});
