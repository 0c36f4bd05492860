import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { APACHE_MANUAL_ROOT, RUST_DOC_ROOT } from '../../scripts/support/real-site.ts';
import { decodeHtml, sniffCharset } from './charset.ts';
import { refreshTarget } from './html-text.ts';
import { createHtmlParser, parseHtml } from './parse-html.ts';

const PAGE = 'http://127.0.0.1:8080/docs/guide/page.html';
const parse = (html: string, pageUrl = PAGE) => parseHtml(html, pageUrl);
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('title and description', () => {
  it('collapses whitespace and decodes entities, keeping the first of each', () => {
    const page = parse(`<html><head><title>
        Caf&eacute;   &amp; Bar\t&lt;tips&gt; </title><title>Second</title>
      <meta name="Description" content="  Fish &amp;
         chips &#8212; near&nbsp;you ">
      <meta name="description" content="later"></head><body></body></html>`);
    expect(page.title).toBe('Café & Bar <tips>');
    expect(page.description).toBe('Fish & chips — near you');
  });

  it('counts an empty or whitespace-only title or description as missing (null), and ignores SVG titles', () => {
    expect(parse('<html><head></head><body><svg><title>Icon</title></svg></body></html>').title).toBeNull();
    expect(parse('<title></title><p>x</p>').title).toBeNull();
    expect(parse('<title> \n&nbsp;</title><title>Later</title><p>x</p>').title).toBeNull();
    expect(parse('<p>x</p>').description).toBeNull();
    expect(parse('<meta name=description><p>x</p>').description).toBeNull();
    expect(parse('<meta name="description" content=""><p>x</p>').description).toBeNull();
    expect(parse('<meta name="description" content="  \t "><p>x</p>').description).toBeNull();
  });
});

describe('headings', () => {
  it('lists h1, h2 and h3 texts with nested inline text, line breaks as spaces and empty headings kept', () => {
    const page = parse(`<body><h1>Main <em>topic</em><br>here</h1><h1></h1>
      <h2>Two<script>ignored()</script></h2><h3>Three a</h3><h3>Three&nbsp;b</h3><h4>Four</h4></body>`);
    expect(page.h1).toEqual(['Main topic here', '']);
    expect(page.h2).toEqual(['Two']);
    expect(page.h3).toEqual(['Three a', 'Three b']);
  });

  it('ends a heading where a browser does: at the next heading', () => {
    expect(parse('<h1>One<h2>Two</h2>').h1).toEqual(['One']);
    expect(parse('<h1>One<h2>Two</h2>').h2).toEqual(['Two']);
  });
});

describe('visible text: words, content size, body hash', () => {
  it('counts only text a visitor sees in the body', () => {
    const page = parse(`<html><head><title>Not body</title><style>p{}</style></head><body>
      <p>One two</p><script>var hidden = 1;</script><noscript>no script</noscript>
      <template><p>template text</p></template><style>.x{}</style><p>three</p></body></html>`);
    expect(page.wordCount).toBe(3);
    expect(page.contentSize).toBe('One two three'.length);
    expect(page.bodyHash).toBe(sha1('One two three'));
  });

  it('separates words at block boundaries but not inside inline elements', () => {
    expect(parse('<p>foo</p><p>bar</p><div>baz<br>qux</div>').wordCount).toBe(4);
    expect(parse('<p>fo<b>o</b><span>bar</span> <a href="/x">b<i>a</i>z</a></p>').wordCount).toBe(2);
    expect(parse('<ul><li>a<li>b</ul><table><tr><td>c<td>d</table>').wordCount).toBe(4);
  });

  it('counts content size in UTF-8 bytes and treats a no-break space as a separator', () => {
    const page = parse('<body><p>Crème&nbsp;brûlée 日本</p></body>');
    expect(page.wordCount).toBe(3);
    expect(page.contentSize).toBe(Buffer.byteLength('Crème brûlée 日本'));
  });

  it('hashes the same visible text alike whatever the markup around it, and different text apart', () => {
    const a = parse('<html><head><title>A</title></head><body><p>Same   text</p></body></html>');
    const b = parse('<!doctype html><title>B</title><div class="x">Same\ntext</div>');
    const c = parse('<p>Other text</p>');
    expect(a.bodyHash).toBe(b.bodyHash);
    expect(a.bodyHash).not.toBe(c.bodyHash);
  });

  it('counts body text that a browser moves out of an unclosed head', () => {
    const page = parse('<html><head><title>t</title><p>Hello world');
    expect(page.wordCount).toBe(2);
    expect(page.bodyTagsInHead).toBe(1);
  });

  it('reports an empty page as zero words and zero bytes', () => {
    const page = parse('<html><head><title>Empty</title></head><body>  \n </body></html>');
    expect(page.wordCount).toBe(0);
    expect(page.contentSize).toBe(0);
  });
});

describe('meta robots', () => {
  it.each([
    ['<meta name="ROBOTS" content="NoIndex, follow">', true, false],
    ['<meta name="googlebot" content="nofollow">', false, true],
    ['<meta name="robots" content="none">', true, true],
    ['<meta name="robots" content="noindex nofollow">', true, true],
    ['<meta name="bingbot" content="noindex,nofollow">', false, false],
    ['<meta name="robots" content="index, follow, noimageindex">', false, false],
  ])('%s: noindex %s, nofollow %s (robots and googlebot only, any case, none = both)', (html, noindex, nofollow) => {
    expect(parse(html)).toMatchObject({ metaNoindex: noindex, metaNofollow: nofollow });
  });
});

describe('canonical', () => {
  it('resolves <link rel=canonical> (rel is a token list, any case)', () => {
    expect(parse('<link rel="Canonical" href="../other.html#top">').canonicalUrl).toBe(
      'http://127.0.0.1:8080/docs/other.html',
    );
    expect(parse('<link rel="alternate canonical" href="/x">').canonicalUrl).toBe('http://127.0.0.1:8080/x');
    expect(parse('<link rel="canonicalish" href="/x">').canonicalUrl).toBeNull();
  });

  it('ignores <meta rel=canonical> (rust-doc stubs), as browsers and search engines do', () => {
    expect(parse('<meta rel="canonical" href="write/the-attr.html">').canonicalUrl).toBeNull();
    expect(parse('<meta rel="canonical" href="/meta"><link rel="canonical" href="/link">').canonicalUrl).toBe(
      'http://127.0.0.1:8080/link',
    );
    expect(parse('<a rel="canonical" href="/a">a</a>').canonicalUrl).toBeNull();
  });

  it('keeps a canonical naming another scheme as written (python-doc: file:///…), an invalid canonical', () => {
    expect(parse('<link rel="canonical" href="file:///usr/share/doc/x.html">').canonicalUrl).toBe(
      'file:///usr/share/doc/x.html',
    );
  });

  it('tells two <link rel=canonical> naming different URLs from a repeat of the same one', () => {
    const two = parse('<link rel="canonical" href="/a"><link rel="canonical" href="/b">');
    expect(two).toMatchObject({ canonicalUrl: 'http://127.0.0.1:8080/a', hasConflictingCanonicals: true });
    const same = parse('<link rel="canonical" href="/a"><link rel="canonical" href="http://127.0.0.1:8080/a#x">');
    expect(same.hasConflictingCanonicals).toBe(false);
    expect(parse('<link rel="canonical" href="/a">').hasConflictingCanonicals).toBe(false);
  });
});

describe('resources', () => {
  it('lists <object data> and <embed src> targets', () => {
    const page = parse('<body><object data="movie.swf"><embed src="/clip.svg"></object><object></object></body>');
    expect(page.resources).toEqual(['http://127.0.0.1:8080/docs/guide/movie.swf', 'http://127.0.0.1:8080/clip.svg']);
  });

  it('lists stylesheets, icons, feeds and scripts, not canonicals, hreflang alternates or resource hints', () => {
    const page = parse(
      '<link rel="stylesheet" href="../style/a.css"><link rel="shortcut icon" href="/favicon.png">' +
        '<link rel="alternate" type="application/rss+xml" href="feed.xml"><link rel="canonical" href="/c">' +
        '<link rel="alternate" hreflang="de" href="/de/"><script src="/s.js"></script><script>var x;</script>' +
        '<link rel="preconnect" href="https://fonts.example.org"><link rel="dns-prefetch" href="//cdn.example.org">',
    );
    expect(page.resources).toEqual([
      'http://127.0.0.1:8080/docs/style/a.css',
      'http://127.0.0.1:8080/favicon.png',
      'http://127.0.0.1:8080/docs/guide/feed.xml',
      'http://127.0.0.1:8080/s.js',
    ]);
  });
});

describe('meta refresh', () => {
  it.each([
    [`0;URL='write/the-doc-attribute.html'`, 'write/the-doc-attribute.html'],
    ['5; url=next.html', 'next.html'],
    ['0; URL="quoted.html" trailing', 'quoted.html'],
    ['0,url=comma.html', 'comma.html'],
    ['  3 ;  Url =  spaced.html  ', 'spaced.html'],
    ['0; bare.html', 'bare.html'],
    [`0; url='unterminated.html`, 'unterminated.html'],
    ['300', null],
    ['0; url=', null],
  ])('refreshTarget(%j) = %j', (content, target) => {
    expect(refreshTarget(content)).toBe(target);
  });

  it('resolves the target of <meta http-equiv=refresh>, any case', () => {
    expect(parse(`<META HTTP-EQUIV="Refresh" CONTENT="0;URL='../new.html'">`).metaRefreshUrl).toBe(
      'http://127.0.0.1:8080/docs/new.html',
    );
    expect(parse('<meta http-equiv="refresh" content="60">').metaRefreshUrl).toBeNull();
  });
});

describe('JavaScript redirects in inline scripts', () => {
  it.each([
    [`window.location = '/a.html';`, 'http://127.0.0.1:8080/a.html'],
    [`location.href="b.html"`, 'http://127.0.0.1:8080/docs/guide/b.html'],
    [`if (old) { location.replace('https://example.org/c'); }`, 'https://example.org/c'],
    [`document.location.href = "/d"`, 'http://127.0.0.1:8080/d'],
    [`window.location.assign( '/e' )`, 'http://127.0.0.1:8080/e'],
    [`top.location = "http:\\/\\/example.org\\/f"`, 'http://example.org/f'],
  ])('finds %s', (script, target) => {
    expect(parse(`<script>${script}</script>`).jsRedirectUrl).toBe(target);
  });

  it('ignores comparisons, computed targets, external and non-JavaScript scripts', () => {
    expect(parse(`<script>if (location.href == "/x") go();</script>`).jsRedirectUrl).toBeNull();
    expect(parse('<script>location.href = base + "/y";</script>').jsRedirectUrl).toBeNull();
    expect(parse('<script>location.href = `/${lang}/`;</script>').jsRedirectUrl).toBeNull();
    expect(parse(`<script src="/r.js">location.href='/z'</script>`).jsRedirectUrl).toBeNull();
    expect(parse(`<script type="text/template">location.href='/z'</script>`).jsRedirectUrl).toBeNull();
    expect(parse(`<p>location.href='/z'</p>`).jsRedirectUrl).toBeNull();
  });
});

describe('hreflang', () => {
  it('lists <link rel=alternate hreflang> of the head, resolved', () => {
    const page = parse(`<head><link rel="alternate" hreflang="de" href="/de/">
      <link rel="alternate" hreflang="x-default" href="https://example.org/">
      <link rel="alternate" type="application/rss+xml" href="/feed"></head>
      <body><link rel="alternate" hreflang="fr" href="/fr/"></body>`);
    expect(page.hreflang).toEqual([
      { hreflang: 'de', url: 'http://127.0.0.1:8080/de/' },
      { hreflang: 'x-default', url: 'https://example.org/' },
    ]);
    expect(page.headTagsInBody).toBe(1);
  });

  it('carries the hreflang of <a hreflang> links (the Apache manual writes its alternates so)', () => {
    const page = parse(`<p><a href="../../de/mod/core.html" hreflang="de" rel="alternate">&nbsp;de&nbsp;</a> |
      <a href="../../en/mod/core.html">&nbsp;en&nbsp;</a></p>`);
    expect(page.links.map((l) => [l.url, l.hreflang, l.rel, l.anchorText])).toEqual([
      ['http://127.0.0.1:8080/de/mod/core.html', 'de', 'alternate', 'de'],
      ['http://127.0.0.1:8080/en/mod/core.html', null, null, 'en'],
    ]);
  });
});

describe('structured data', () => {
  it('counts JSON-LD items by type, through arrays, @graph and @type arrays', () => {
    const page = parse(`<script type="application/ld+json">
      {"@context":"https://schema.org","@graph":[
        {"@type":"Organization","name":"Us"},
        {"@type":"BreadcrumbList","itemListElement":[]},
        {"@type":["Product","Thing"],"review":{"@type":"Review"}}]}</script>
      <script type="application/ld+json">[{"@type":"NewsArticle"},{"@type":"http://schema.org/FAQPage"},
        {"@type":"Restaurant"},{"@type":"HowTo"},{"@type":"VideoObject"},{"@type":"BlogPosting"}]</script>
      <script type="application/ld+json">{"@type":"JobPosting"}</script>`);
    expect(page.hasStructuredData).toBe(true);
    expect(page.schemaCounts).toEqual({
      product: 1,
      review: 0,
      faq: 1,
      recipe: 0,
      article: 1,
      news_article: 1,
      breadcrumb: 1,
      event: 0,
      how_to: 1,
      job_posting: 1,
      local_business: 1,
      organization: 1,
      video_object: 1,
    });
  });

  it('counts top-level microdata items, not nested properties', () => {
    const page = parse(`<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="name">Soup</span>
        <div itemprop="review" itemscope itemtype="https://schema.org/Review"></div></div>
      <ol itemscope itemtype="http://schema.org/BreadcrumbList"></ol>
      <div itemscope itemtype="https://schema.org/MusicEvent"></div>`);
    expect(page.schemaCounts).toMatchObject({ recipe: 1, review: 0, breadcrumb: 1, event: 1 });
    expect(page.hasStructuredData).toBe(true);
  });

  it('does not throw on malformed JSON-LD, and knows markup of types outside the list', () => {
    const broken = parse('<script type="application/ld+json">{"@type": "Product",</script><p>ok</p>');
    expect(broken.hasStructuredData).toBe(false);
    expect(broken.schemaCounts.product).toBe(0);
    expect(broken.wordCount).toBe(1);
    const other = parse('<script type="application/ld+json">{"@type":"WebSite"}</script>');
    expect(other.hasStructuredData).toBe(true);
    expect(Object.values(other.schemaCounts).every((n) => n === 0)).toBe(true);
    expect(parse('<p>plain</p>').hasStructuredData).toBe(false);
  });
});

describe('Open Graph', () => {
  it('reads the og:* fields of the contract, the first of each, by property or name', () => {
    const page = parse(`<meta property="og:title" content=" The  title ">
      <meta property="og:title" content="Later"><meta property="OG:TYPE" content="article">
      <meta name="og:site_name" content="Site"><meta property="og:image" content="/i.png">
      <meta property="og:image:width" content="100"><meta property="og:locale" content="en_GB">`);
    expect(page.openGraph).toEqual({
      title: 'The title',
      type: 'article',
      site_name: 'Site',
      image: '/i.png',
      locale: 'en_GB',
    });
  });
});

describe('head tags in body and body tags in head', () => {
  it('counts head-only tags after the body started', () => {
    const page = parse(`<html><head><title>t</title></head><body><p>x</p>
      <title>again</title><meta name="robots" content="noindex"><link rel="canonical" href="/c">
      <base href="/b/"><link rel="stylesheet" href="/s.css"><meta itemprop="price" content="3">
      <svg><title>icon</title></svg></body></html>`);
    expect(page.headTagsInBody).toBe(4);
    expect(page.bodyTagsInHead).toBe(0);
  });

  it('counts elements that end the head inside an explicit head, but not noscript or template content', () => {
    const page = parse(`<html><head><meta charset="utf-8"><div>x</div><img src="/p.gif">
      <noscript><img src="/pixel.gif"></noscript><template><p>t</p></template>
      <link rel="canonical" href="/c"></head><body><p>y</p></body></html>`);
    expect(page.bodyTagsInHead).toBe(2);
    expect(page.headTagsInBody).toBe(0);
  });

  it('finds nothing on a well-formed page, nor on one without explicit head and body tags', () => {
    for (const html of [
      '<!doctype html><html><head><title>t</title><meta name="x" content="y"><script>1</script></head><body><div><p>z</p></div></body></html>',
      '<!doctype html><title>t</title><link rel="canonical" href="/"><p>body</p>',
    ]) {
      expect(parse(html)).toMatchObject({ headTagsInBody: 0, bodyTagsInHead: 0 });
    }
    expect(parse('<title>t</title><p>body</p><link rel="canonical" href="/">').headTagsInBody).toBe(1);
  });
});

describe('links', () => {
  it('records every <a href> and <area href> in order with text, rel and nofollow', () => {
    const page = parse(`<a href="one.html">One <b>two</b></a>
      <a href="/two" rel="NoFollow noopener">Two</a><a href="/ugc" rel="ugc">U</a>
      <a href="one.html">One again</a><a name="anchor">no href</a>
      <map><area href="/area" alt=" Area  text "></map>`);
    expect(page.links.map((l) => [l.url, l.anchorText, l.rel, l.nofollow])).toEqual([
      ['http://127.0.0.1:8080/docs/guide/one.html', 'One two', null, false],
      ['http://127.0.0.1:8080/two', 'Two', 'NoFollow noopener', true],
      ['http://127.0.0.1:8080/ugc', 'U', 'ugc', false],
      ['http://127.0.0.1:8080/docs/guide/one.html', 'One again', null, false],
      ['http://127.0.0.1:8080/area', 'Area text', null, false],
    ]);
  });

  it('takes the alt of a wrapped image when the link has no text', () => {
    const page = parse(`<a href="/a"><img src="/i.png" alt="Logo"></a><a href="/b"><img src="/i.png"></a>
      <a href="/c"><img src="/i.png" alt="ignored">Text</a><a href="/d"><img src="/i.png" alt=""></a>`);
    expect(page.links.map((l) => [l.anchorText, l.hasImageLink, l.hasImageAltText])).toEqual([
      ['Logo', true, true],
      ['', true, false],
      ['Text', true, true],
      ['', true, false],
    ]);
  });

  it('closes an open link when another starts, as browsers do', () => {
    const page = parse('<a href="/1">first<a href="/2">second</a>after</a>');
    expect(page.links.map((l) => l.anchorText)).toEqual(['first', 'second']);
  });

  it('resolves as browsers do: dot segments clamped at the root, whitespace trimmed, fragments dropped', () => {
    const page = parse(`<a href="../../../../../up.html">a</a><a href="  spaced.html\n">b</a>
      <a href="other.html#section">c</a><a href="?q=1">d</a><a href="//cdn.example.org/x">e</a>
      <a href="">self</a><A HREF="UPPER.html">f</A>`);
    expect(page.links.map((l) => l.url)).toEqual([
      'http://127.0.0.1:8080/up.html',
      'http://127.0.0.1:8080/docs/guide/spaced.html',
      'http://127.0.0.1:8080/docs/guide/other.html',
      'http://127.0.0.1:8080/docs/guide/page.html?q=1',
      'http://cdn.example.org/x',
      'http://127.0.0.1:8080/docs/guide/page.html',
      'http://127.0.0.1:8080/docs/guide/UPPER.html',
    ]);
  });

  it('skips javascript:, mailto:, tel:, data: and same-document links', () => {
    const page = parse(`<a href="javascript:void(0)">j</a><a href="mailto:a@example.org">m</a>
      <a href="tel:+441234">t</a><a href="data:text/html,hi">d</a><a href="#top">f</a><a href=" #x">g</a>
      <a href="ftp://example.org/f">ftp</a><a href="http://[bad">bad</a><a href="/kept">k</a>`);
    expect(page.links.map((l) => l.url)).toEqual(['http://127.0.0.1:8080/kept']);
  });

  it('honours <base href> for the whole document, even for links before it', () => {
    const page = parse(`<head><title>t</title></head><body><a href="early.html">e</a>
      <base href="https://example.org/root/"><base href="/ignored/"><a href="late.html">l</a>
      <img src="i.png"></body>`);
    expect(page.links.map((l) => l.url)).toEqual([
      'https://example.org/root/early.html',
      'https://example.org/root/late.html',
    ]);
    expect(page.images.map((i) => i.src)).toEqual(['https://example.org/root/i.png']);
  });
});

describe('images', () => {
  it('lists every <img src> with its alt: null when absent, empty when blank', () => {
    const page = parse(`<img src="a.png" alt="A  picture"><img src="/b.png"><img src="c.png" alt="  ">
      <img alt="no src"><img src="data:image/gif;base64,R0lGOD"><img src="">`);
    expect(page.images).toEqual([
      { src: 'http://127.0.0.1:8080/docs/guide/a.png', alt: 'A picture' },
      { src: 'http://127.0.0.1:8080/b.png', alt: null },
      { src: 'http://127.0.0.1:8080/docs/guide/c.png', alt: '' },
    ]);
  });
});

describe('charset', () => {
  it('sniffs <meta charset> and http-equiv content-type in the first 1024 bytes, and byte-order marks', () => {
    expect(sniffCharset(Buffer.from('<html><head><meta charset="ISO-8859-1"><title>'))).toBe('windows-1252');
    expect(sniffCharset(Buffer.from(`<META http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`))).toBe(
      'shift_jis',
    );
    expect(sniffCharset(Buffer.from('\ufeff<html>'))).toBe('utf-8');
    expect(sniffCharset(Buffer.from(`${' '.repeat(1100)}<meta charset="koi8-r">`))).toBeNull();
    expect(sniffCharset(Buffer.from('<meta charset="no-such-charset">'))).toBeNull();
    expect(sniffCharset(Buffer.from('<p>no meta</p>'))).toBeNull();
  });

  it('decodes bytes with the header charset first, then the sniffed one, then UTF-8', () => {
    const latin1 = Buffer.from('<meta charset="iso-8859-1"><title>Caf\xe9</title>', 'latin1');
    expect(parseHtml(latin1, PAGE).title).toBe('Café');
    expect(decodeHtml(Buffer.from('<title>Caf\xe9</title>', 'latin1'), 'windows-1252')).toContain('Café');
    expect(decodeHtml(Buffer.from('\ufeff<title>Café</title>'))).toBe('<title>Café</title>');
  });
});

describe('streaming', () => {
  it('gives the same page whatever the chunk boundaries', () => {
    const html = `<!doctype html><html><head><title>Chunked &amp; split</title>
      <meta name="description" content="d"><link rel="canonical" href="/c">
      <script type="application/ld+json">{"@type":"Event"}</script></head>
      <body><h1>Head&shy;ing</h1><p>Some words <a href="x.html" rel="nofollow">link <img src="i.png" alt="alt"></a></p>
      <script>window.location.replace("/moved")</script></body></html>`;
    const whole = parseHtml(html, PAGE);
    for (const size of [1, 3, 7, 64]) {
      const parser = createHtmlParser(PAGE);
      for (let i = 0; i < html.length; i += size) parser.write(html.slice(i, i + size));
      expect(parser.end()).toEqual(whole);
    }
    expect(whole).toMatchObject({
      title: 'Chunked & split',
      jsRedirectUrl: 'http://127.0.0.1:8080/moved',
      canonicalUrl: 'http://127.0.0.1:8080/c',
    });
    expect(whole.schemaCounts.event).toBe(1);
  });
});

/** HTML files below a documentation root (links to other files are not followed), sorted. */
function htmlFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && /\.html(\.[\w-]+)?$/.test(entry.name)) files.push(file);
    }
  };
  walk(root);
  return files.sort();
}

const absolute = (href: string, pageUrl: string) => new URL(href, pageUrl).href.replace(/#.*/, '');

const END = '#END-OF-FILE#';
/** What xmllint's HTML parser finds in each file, one XPath per file, in one process. */
function xmllintFacts(files: string[]): string[][] {
  const linkable = `[not(starts-with(normalize-space(@href),'#'))][starts-with(@href,'http:') or starts-with(@href,'https:') or not(contains(substring-before(concat(@href,'/'),'/'),':'))]`;
  const xpath = `concat(count(//h1),'|',count(//h2),'|',count(//h3),'|',count(//img[@src]),'|',count(//a[@href]${linkable}),'|',count(//a[@href][@hreflang]${linkable}),'|',string(//link[@rel='canonical']/@href),'|',string(//meta[@http-equiv='refresh']/@content),'|',string(//title),'|',string((//h1)[1]),'${END}')`;
  const out = execFileSync('xmllint', ['--html', '--xpath', xpath, ...files], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return out
    .split(`${END}\n`)
    .slice(0, files.length)
    .map((facts) => facts.split('|'));
}

describe('real documentation sites, checked against xmllint', () => {
  beforeAll(() => {
    ensureDebianPackages([debianPackages.xmllint, debianPackages.apacheManual, debianPackages.rustDoc]);
  });

  it.each([
    ['the Apache manual', APACHE_MANUAL_ROOT],
    ['rust-doc', RUST_DOC_ROOT],
  ])('%s: titles, headings, links, images, canonicals and refreshes agree on a sample of 150 pages', (_site, root) => {
    const all = htmlFiles(root);
    const step = Math.max(1, Math.floor(all.length / 150));
    const files = all.filter((_file, i) => i % step === 0);
    const facts = xmllintFacts(files);
    expect(facts).toHaveLength(files.length);
    const collapse = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
    let hreflangLinks = 0;
    let refreshes = 0;
    files.forEach((file, i) => {
      const pageUrl = `http://127.0.0.1:8080/${path.relative(root, file)}`;
      const page = parseHtml(fs.readFileSync(file), pageUrl);
      const [h1, h2, h3, images, links, hreflang, canonical, refresh, title, firstH1] = facts[i] ?? [];
      const ours = [page.h1.length, page.h2.length, page.h3.length, page.images.length, page.links.length];
      const expected = [h1, h2, h3, images, links].map(Number);
      expect({ file, counts: ours, title: page.title ?? '', h1: page.h1[0] ?? '' }).toEqual({
        file,
        counts: expected,
        title: collapse(title),
        h1: collapse(firstH1),
      });
      expect(page.links.filter((l) => l.hreflang !== null).length, file).toBe(Number(hreflang));
      expect(page.canonicalUrl, file).toBe(canonical ? absolute(canonical, pageUrl) : null);
      hreflangLinks += Number(hreflang);
      const refreshUrl = /url\s*=\s*['"]?([^'"]*)/i.exec(refresh ?? '')?.[1];
      expect(page.metaRefreshUrl, file).toBe(refreshUrl ? absolute(refreshUrl, pageUrl) : null);
      if (refreshUrl) refreshes++;
    });
    if (root === APACHE_MANUAL_ROOT) expect(hreflangLinks).toBeGreaterThan(100);
    else expect(refreshes).toBeGreaterThan(10);
  });

  it('parses real pages streamed in chunks exactly as whole', () => {
    for (const file of [`${APACHE_MANUAL_ROOT}/en/mod/core.html`, `${RUST_DOC_ROOT}/std/index.html`]) {
      const html = fs.readFileSync(file, 'utf8');
      const pageUrl = `http://127.0.0.1:8080/${path.basename(file)}`;
      const parser = createHtmlParser(pageUrl);
      for (let i = 0; i < html.length; i += 997) parser.write(html.slice(i, i + 997));
      const streamed = parser.end();
      expect(streamed).toEqual(parseHtml(html, pageUrl));
      expect(streamed.links.length).toBeGreaterThan(50);
    }
  });
});

describe('hostile and broken input', () => {
  it('never throws and stays linear on deep nesting, unclosed tags, garbage and a huge inline script', () => {
    const inputs = [
      '<div>'.repeat(20_000) + 'deep' + '</span>'.repeat(100),
      '<!-- never closed <a href="/x">x</a>',
      '<script>var s = "' + 'x'.repeat(2_000_000) + ' location";</script><p>after</p>',
      '<a href="/a"<b>>broken</a><img src=><meta content><title><title>',
      Buffer.from([0, 255, 254, 0x3c, 0x61, 0xc3, 0x28, 0x3e]).toString('latin1'),
      '<html><body>' + '<a href="/p">p</a>'.repeat(50_000),
    ];
    for (const html of inputs) {
      const started = performance.now();
      expect(() => parse(html)).not.toThrow();
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    expect(parse(inputs[0] as string).wordCount).toBe(1);
    expect(parse(inputs[2] as string)).toMatchObject({ jsRedirectUrl: null, wordCount: 1 });
    expect(parse(inputs[5] as string).links).toHaveLength(50_000);
  });

  it('opens and closes elements at the same cost at any depth: 200,000 nested ones parse in seconds', () => {
    // htmlparser2's own stack shifts an array per element: this took over a minute on a busy machine.
    const depth = 200_000;
    const html = `<title>Deep</title>${'<div><span>'.repeat(depth / 2)}<a href="/deepest">deepest</a>${'</span></div>'.repeat(depth / 2)}<a href="/after">after</a>`;
    const started = performance.now();
    const page = parse(html);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(page.title).toBe('Deep');
    expect(page.links.map((link) => link.url)).toEqual([
      'http://127.0.0.1:8080/deepest',
      'http://127.0.0.1:8080/after',
    ]);
  });
});
