/**
 * The planted-defect website: a small site served on 127.0.0.1 by node:http that plants one instance of
 * every defect each crawl-fed report looks for, and a near miss for each, just across the report's boundary. Pages
 * of report R live under `/R/` (`/content/thin/fires`, `/content/thin/near`), so a report's own rows are found with
 * the "URLs containing" filter. A second server on another port is the external site links point at.
 *
 * Sizes and lengths sit exactly on the thresholds (511/512 bytes of text, 65/66 characters with multi-byte
 * letters). Timings cannot: a loaded machine adds delay, so a slow page is 0.4 s over its threshold and its near
 * miss 1.2 s under it; a browser's timings (FCP, DCL, LCP, TTI) also carry the renderer's CPU, which a busy CI
 * machine stretched past 1.2 s, so their near misses sit at half the threshold.
 */
import http from 'node:http';
import { PLANTED_SOURCE_PAGES } from './planted-sources.ts';
import { plantRenderedPages, type PlantedRenderedSection } from './planted-rendered.ts';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import {
  CLS_MAX,
  DCL_MAX,
  DESCRIPTION_LENGTH_MAX,
  DESCRIPTION_LENGTH_MIN,
  EMPTY_CONTENT,
  FCP_MAX,
  FETCH_TIME_MAX,
  LCP_MAX,
  MULTIPLE_CANONICALS,
  THIN_CONTENT,
  TITLE_LENGTH_MAX,
  TITLE_LENGTH_MIN,
  TTFB_MAX,
  TTI_MAX,
} from '../../../catalog/constants.ts';

export interface PlantedResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /** Wait before the status line is sent. */
  delayMs?: number;
}

/** Where a report's rows must (fires) and must not (nearMiss) be: absolute URLs. */
export interface PlantedCase {
  fires: string[];
  nearMiss: string[];
}

/** Reports fed by a rendered crawl, which the planted site's raw crawl (with its timing sample) is not. */
const RENDERED_CRAWL =
  "needs a rendered crawl (--render-mode all): crawl-planted-rendered.test.ts crawls the site's rendered section (planted-rendered.ts)";

/** Reports no crawl of a website can feed, and why: their near misses and rows come from other data. */
export const unfedReports: Readonly<Record<string, string>> = {
  'analytics/all': 'rows come from the analytics data source, not from a crawl',
  'analytics/missing': 'its near miss needs analytics sessions, which a crawl does not make',
  'analytics/orphaned': 'rows come from the analytics data source, not from a crawl',
  'search-console/all': 'rows come from the search console data source, not from a crawl',
  'search-console/missing': 'its near miss needs search console impressions, which a crawl does not make',
  'search-console/orphaned': 'rows come from the search console data source, not from a crawl',
  'ads/broken-landing-pages':
    'rows need ad spend from an ads platform export, which a crawl does not make (report-fires and at-stake plant it)',
  'links/internal-http': 'needs https:// pages linking to http:// ones; the loopback test site is plain http',
  'links/rendered-only': RENDERED_CRAWL,
  'meta/changed-by-javascript': RENDERED_CRAWL,
  'content/rendered-only': RENDERED_CRAWL,
  'crawl/javascript-errors': RENDERED_CRAWL,
  'crawl/robots-blocked-resources': RENDERED_CRAWL,
  'crawl/render-timeouts': RENDERED_CRAWL,
  'crawl/hash-routes': RENDERED_CRAWL,
};

/** Viewport of the renderer's pages (Playwright's default), which the layout-shift pages are sized against. */
const VIEWPORT = { width: 1280, height: 720 };
/**
 * Delays around timing thresholds (see the file comment). A busy machine only makes pages slower, so the defect sits
 * just above its threshold and the near miss further below.
 */
const ABOVE_MS = 400;
const BELOW_MS = 1200;

interface PageSpec {
  /** null: no <title>. */
  title?: string | null;
  /** null: no meta description. */
  description?: string | null;
  h1?: string[];
  /** Replaces the default body text (the h1s still come first). */
  body?: string;
  /** Extra HTML at the end of the head. */
  head?: string;
  /** Extra HTML at the start of the body, before the h1s. */
  bodyStart?: string;
  /** Internal or external hrefs the page links to. */
  links?: string[];
  structuredData?: boolean;
  headers?: Record<string, string>;
  status?: number;
  delayMs?: number;
  /** Sent in ISO-8859-1, declared in the Content-Type header or only in a <meta charset>. */
  latin1?: 'header' | 'meta';
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Exactly `length` characters of words, neither starting nor ending with a space. */
export function textOfLength(length: number, seed: string): string {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `${seed}${i} `;
  return text.slice(0, length - 1) + 'x';
}

/** A text of `length` characters holding multi-byte letters, so byte and character lengths differ. */
const accented = (length: number, seed: string): string => textOfLength(length, `é${seed}`);

export interface PlantedSite {
  origin: string;
  externalOrigin: string;
  cases: Record<string, PlantedCase>;
  /** The section a rendered crawl reads, with the cases of the rendered crawl's reports (planted-rendered.ts). */
  rendered: PlantedRenderedSection;
  /** Every path served by the site (for the tests' own checks). */
  paths: string[];
  close: () => Promise<void>;
}

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const html = (status: number, body: string, headers: Record<string, string> = {}): PlantedResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});

function serve(routes: Map<string, PlantedResponse>): http.RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const route = routes.get(path) ?? html(404, '<!doctype html><title>Not found</title><p>No such page.</p>');
    const send = (): void => {
      if (response.destroyed) return;
      response.writeHead(route.status, route.headers);
      response.end(request.method === 'HEAD' ? undefined : route.body);
    };
    if (route.delayMs) setTimeout(send, route.delayMs);
    else send();
  };
}

/** Starts the external site and the planted site; `close` stops both. */
export async function startPlantedSite(): Promise<PlantedSite> {
  const externalRoutes = new Map<string, PlantedResponse>();
  const routes = new Map<string, PlantedResponse>();
  const external = await listen(serve(externalRoutes));
  const site = await listen(serve(routes));
  const { origin } = site;
  const ext = external.origin;
  const cases: Record<string, PlantedCase> = {};
  /** Pages the home page links to, in order. */
  const linkedFromHome: string[] = [];
  let pageNumber = 0;

  const abs = (path: string): string => (path.startsWith('http') ? path : origin + path);
  const plant = (id: string, fires: string[], nearMiss: string[]): void => {
    cases[id] = { fires: fires.map(abs), nearMiss: nearMiss.map(abs) };
  };

  function page(path: string, spec: PageSpec = {}, linked = true): string {
    const n = ++pageNumber;
    const title = spec.title === undefined ? `Planted page number ${n} of the test site` : spec.title;
    const description =
      spec.description === undefined
        ? `Planted page ${n}: one defect or its near miss, for the crawl, load and report check.`
        : spec.description;
    const h1 = spec.h1 ?? [`Planted page ${n}`];
    const body = spec.body ?? `<p>${textOfLength(3600, `p${n}w`)}</p>`;
    const links = (spec.links ?? []).map((href) => `<li><a href="${escapeHtml(href)}">Link to ${href}</a></li>`);
    const document = [
      `<!doctype html><html lang="en"><head><meta charset="${spec.latin1 === undefined ? 'utf-8' : 'iso-8859-1'}">`,
      title === null ? '' : `<title>${escapeHtml(title)}</title>`,
      description === null ? '' : `<meta name="description" content="${escapeHtml(description)}">`,
      spec.structuredData === false
        ? ''
        : `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Planted ${n}"}</script>`,
      spec.head ?? '',
      '</head><body>',
      spec.bodyStart ?? '',
      ...h1.map((text) => `<h1>${escapeHtml(text)}</h1>`),
      body,
      links.length > 0 ? `<ul>${links.join('')}</ul>` : '',
      '</body></html>',
    ].join('');
    const response = html(spec.status ?? 200, document, spec.headers);
    if (spec.latin1) {
      response.body = Buffer.from(document, 'latin1');
      response.headers['content-type'] = spec.latin1 === 'header' ? 'text/html; charset=iso-8859-1' : 'text/html';
    }
    routes.set(path, { ...response, delayMs: spec.delayMs });
    if (linked) linkedFromHome.push(path);
    return path;
  }
  const redirect = (path: string, status: number, location: string, linked = true): string => {
    routes.set(path, html(status, `<!doctype html><title>Moved</title><a href="${location}">moved</a>`, { location }));
    if (linked) linkedFromHome.push(path);
    return path;
  };
  const textPage = (path: string, bytes: number): string =>
    page(path, { h1: [], body: `<p>${textOfLength(bytes, 'w')}</p>`, structuredData: false });

  // Targets that redirects and canonicals point at.
  const ok = page('/targets/ok', {}, false);
  const gone = page('/targets/gone', { status: 404 }, false);
  const forbidden = page('/targets/forbidden', { status: 403 }, false);

  // links
  externalRoutes.set('/links/external-broken/fires', html(404, '<title>Gone</title>'));
  externalRoutes.set('/links/external-broken/near', html(403, '<title>Forbidden</title>'));
  externalRoutes.set('/links/external-redirects/fires', html(301, '', { location: `${ext}/ok` }));
  externalRoutes.set('/links/external-redirects/near', html(200, '<title>Fine</title>'));
  externalRoutes.set('/ok', html(200, '<title>Fine</title>'));
  for (const id of ['links/external-broken', 'links/external-redirects']) {
    page(`/${id}/source`, { links: [`${ext}/${id}/fires`, `${ext}/${id}/near`] });
    plant(id, [`${ext}/${id}/fires`], [`${ext}/${id}/near`]);
  }
  plant(
    'links/internal-broken',
    [page('/links/internal-broken/fires', { status: 404 }), page('/links/internal-broken/fires-500', { status: 500 })],
    [page('/links/internal-broken/near', { status: 403 }), page('/links/internal-broken/near-ok')],
  );
  // robots.txt disallows the first; the near misses are crawled, or left uncrawled for another reason: a nofollow
  // link, or a page whose meta robots says nofollow (/internal/no-follow/fires links to it).
  const di = '/links/internal-disallowed';
  page(`${di}/near-nofollow`, {}, false);
  page(`${di}/near-meta-nofollow`, {}, false);
  page(`${di}/source`, { bodyStart: `<a rel="nofollow" href="${di}/near-nofollow">Not followed</a>` });
  plant(
    'links/internal-disallowed',
    [page(`${di}/fires`)],
    [page(`${di}/near`), `${di}/near-nofollow`, `${di}/near-meta-nofollow`],
  );

  // sitemap: robots.txt names the index, which lists a gzipped child.
  const sitemapIndex = '/sitemap/sitemaps/index.xml';
  const sitemapChild = '/sitemap/sitemaps/child.xml.gz';
  // Byte-identical copies without a meta description are still one page set: the copy is secondary, not missing.
  const copySpec = (): PageSpec => ({
    title: 'A page served at two addresses',
    description: null,
    h1: ['Two addresses'],
    body: `<p>${textOfLength(3600, 'twin')}</p><p><a href="/sitemap/missing/near">The first address</a></p>`,
  });
  const inSitemap = [
    '/',
    page('/sitemap/all/fires'),
    page('/sitemap/missing/near', copySpec()),
    page('/sitemap/orphaned/fires', {}, false),
    page('/sitemap/orphaned/near'),
  ];
  plant('sitemap/sitemaps', [sitemapIndex, sitemapChild], [page('/sitemap/sitemaps/near')]);
  plant('sitemap/all', ['/sitemap/all/fires'], [page('/sitemap/all/near')]);
  plant(
    'sitemap/missing',
    [page('/sitemap/missing/fires')],
    ['/sitemap/missing/near', page('/sitemap/missing/near-copy', copySpec())],
  );
  plant('sitemap/orphaned', ['/sitemap/orphaned/fires'], ['/sitemap/orphaned/near']);

  // canonical
  const c = '/canonical/conflicting';
  plant(
    'canonical/conflicting',
    [
      page(`${c}/fires`, {
        head: `<link rel="canonical" href="${origin}${c}/fires">`,
        headers: { link: `<${origin}${ok}>; rel="canonical"` },
      }),
      page(`${c}/fires-two-tags`, {
        head: `<link rel="canonical" href="${origin}${c}/fires-two-tags"><link rel="canonical" href="${origin}${ok}">`,
      }),
    ],
    [
      page(`${c}/near`, {
        head: `<link rel="canonical" href="${origin}${c}/near">`,
        headers: { link: `<${origin}${c}/near>; rel="canonical"` },
      }),
    ],
  );
  const canonicalTo = (path: string, target: string): string =>
    page(path, { head: `<link rel="canonical" href="${origin}${target}">` });
  canonicalTo('/canonical/orphaned/source-fires', '/canonical/orphaned/fires');
  canonicalTo('/canonical/orphaned/source-near', '/canonical/orphaned/near');
  plant('canonical/orphaned', [page('/canonical/orphaned/fires', {}, false)], [page('/canonical/orphaned/near')]);
  const m = '/canonical/multiple-links-in';
  for (let i = 1; i <= MULTIPLE_CANONICALS + 1; i++) canonicalTo(`${m}/source-fires-${i}`, `${m}/fires`);
  for (let i = 1; i <= MULTIPLE_CANONICALS; i++) canonicalTo(`${m}/source-near-${i}`, `${m}/near`);
  plant('canonical/multiple-links-in', [page(`${m}/fires`)], [page(`${m}/near`)]);
  const ni = '/canonical/non-indexable-with-links-in';
  canonicalTo(`${ni}/source-fires`, `${ni}/fires`);
  canonicalTo(`${ni}/source-near`, `${ni}/near`);
  plant(
    'canonical/non-indexable-with-links-in',
    [page(`${ni}/fires`, { head: '<meta name="robots" content="noindex">' })],
    [page(`${ni}/near`)],
  );
  const ns = '/canonical/non-self-referencing';
  plant(
    'canonical/non-self-referencing',
    [
      canonicalTo(`${ns}/fires`, ok),
      page(`${ns}/fires-header`, { headers: { link: `<${origin}${ok}>; rel="canonical"` } }),
      // As python-doc writes it: kept, and shown as the canonical it is.
      page(`${ns}/fires-other-scheme`, { head: '<link rel="canonical" href="file:///usr/share/doc/page.html">' }),
    ],
    [
      canonicalTo(`${ns}/near`, `${ns}/near`),
      page(`${ns}/near-none`),
      // As rust-doc writes its stubs: browsers and search engines ignore a <meta rel=canonical>.
      page(`${ns}/near-meta`, { head: `<meta rel="canonical" href="${origin}${ok}">` }),
    ],
  );

  // content: the duplicate set's primary is the page with the higher DeepRank (every copy links to it), left out.
  const primary = '/content/duplicate/primary';
  const duplicateBody = (text: string): string => `<p>${text}</p><p><a href="${primary}">The first copy</a></p>`;
  const sharedBody = duplicateBody(textOfLength(3600, 'same'));
  const copy = (path: string, body: string): string => page(path, { h1: ['Same heading'], body });
  plant(
    'content/duplicate',
    [copy(primary, sharedBody) && copy('/content/duplicate/fires', sharedBody)],
    [primary, copy('/content/duplicate/near', duplicateBody(`${textOfLength(3599, 'same')}y`))],
  );
  plant(
    'content/empty',
    [textPage('/content/empty/fires', EMPTY_CONTENT - 1)],
    [textPage('/content/empty/near', EMPTY_CONTENT)],
  );
  plant(
    'content/thin',
    [textPage('/content/thin/fires', THIN_CONTENT - 1), textPage('/content/thin/fires-low', EMPTY_CONTENT)],
    [textPage('/content/thin/near', THIN_CONTENT), textPage('/content/thin/near-low', EMPTY_CONTENT - 1)],
  );
  plant('content/missing-h1', [page('/content/missing-h1/fires', { h1: [] })], [page('/content/missing-h1/near')]);
  plant(
    'content/multiple-h1',
    [page('/content/multiple-h1/fires', { h1: ['First heading', 'Second heading'] })],
    [page('/content/multiple-h1/near', { h1: ['Only heading'], body: '<h2>A subheading</h2><p>Some text.</p>' })],
  );

  // crawl: robots.txt keeps the near miss out of the crawl; an <object data> and an <embed src> target are fetched.
  const file = (path: string, type: string, headers: Record<string, string> = {}): string => {
    const body = type === 'application/pdf' ? '%PDF-1.4\n%%EOF\n' : `/* ${path} */`;
    routes.set(path, { status: 200, headers: { 'content-type': type, ...headers }, body });
    return path;
  };
  /** A page loading a stylesheet and showing an object and an embed: their targets are fetched too. */
  const withFiles = (path: string, files: { css: string; object: string; embed: string }): string =>
    page(path, {
      head: `<link rel="stylesheet" href="${files.css}">`,
      bodyStart: `<object data="${files.object}" type="application/pdf"></object><embed src="${files.embed}">`,
    });
  const filesUnder = (dir: string, headers: Record<string, string> = {}) => ({
    css: file(`${dir}/near-stylesheet.css`, 'text/css', headers),
    object: file(`${dir}/near-object.pdf`, 'application/pdf', headers),
    embed: file(`${dir}/near-embed.js`, 'text/javascript', headers),
  });
  const crawled = {
    css: file('/crawl/all/fires-stylesheet.css', 'text/css'),
    object: file('/crawl/all/fires-object.pdf', 'application/pdf'),
    embed: file('/crawl/all/fires-embed.js', 'text/javascript'),
  };
  plant(
    'crawl/all',
    [withFiles('/crawl/all/fires', crawled), crawled.css, crawled.object, crawled.embed],
    [page('/crawl/all/near')],
  );

  // hreflang
  const alternate = (lang: string, target: string): string =>
    `<link rel="alternate" hreflang="${lang}" href="${origin}${target}">`;
  plant(
    'hreflang/missing',
    [page('/hreflang/missing/fires')],
    // A page naming only itself has no alternates: the near miss names another page.
    [
      page('/hreflang/missing/near', { head: alternate('fr', ok) }),
      page('/hreflang/missing/near-header', { headers: { link: `<${origin}${ok}>; rel="alternate"; hreflang="de"` } }),
    ],
  );
  const hn = '/hreflang/non-indexable-links-in';
  page(`${hn}/source`, { head: alternate('fr', `${hn}/fires`) + alternate('de', `${hn}/near`) });
  plant(
    'hreflang/non-indexable-links-in',
    [page(`${hn}/fires`, { head: '<meta name="robots" content="noindex">' })],
    [page(`${hn}/near`)],
  );

  // internal
  externalRoutes.set('/internal/all/near', html(200, '<title>External</title>'));
  plant(
    'internal/all',
    [page('/internal/all/fires', { links: [`${ext}/internal/all/near`] })],
    [`${ext}/internal/all/near`],
  );
  plant(
    'internal/head-issues',
    [
      page('/internal/head-issues/fires', { bodyStart: '<meta name="keywords" content="misplaced">' }),
      page('/internal/head-issues/fires-body-in-head', { head: '<img src="/targets/ok" alt="in the head">' }),
    ],
    [page('/internal/head-issues/near', { bodyStart: '<meta itemprop="name" content="microdata is fine here">' })],
  );
  const nonIndexableFiles = filesUnder('/internal/non-indexable');
  const noFollowFiles = filesUnder('/internal/no-follow', { 'x-robots-tag': 'nofollow' });
  plant(
    'internal/non-indexable',
    [
      page('/internal/non-indexable/fires', { head: '<meta name="robots" content="noindex">' }),
      page('/internal/non-indexable/fires-header', { headers: { 'x-robots-tag': 'noindex' } }),
      canonicalTo('/internal/non-indexable/fires-canonical', ok),
      page('/internal/non-indexable/fires-header-canonical', {
        headers: { link: `<${origin}${ok}>; rel="canonical"` },
      }),
    ],
    [
      page('/internal/non-indexable/near', { head: '<meta name="robots" content="index, follow">' }),
      page('/internal/non-indexable/near-404', { status: 404, head: '<meta name="robots" content="noindex">' }),
      // Files answering 200 (not indexable, not pages either): a report about pages leaves them out.
      withFiles('/internal/non-indexable/near-loading-files', nonIndexableFiles),
      ...Object.values(nonIndexableFiles),
    ],
  );
  plant(
    'internal/no-follow',
    [
      page('/internal/no-follow/fires', {
        head: '<meta name="robots" content="nofollow">',
        links: ['/links/internal-disallowed/near-meta-nofollow'],
      }),
      page('/internal/no-follow/fires-header', { headers: { 'x-robots-tag': 'nofollow' } }),
    ],
    [
      page('/internal/no-follow/near', { head: '<meta name="robots" content="index, follow">' }),
      withFiles('/internal/no-follow/near-loading-files', noFollowFiles),
      ...Object.values(noFollowFiles),
    ],
  );

  // meta: lengths in characters, with multi-byte letters so that a byte count would cross the threshold.
  const dd = '/meta/duplicate-descriptions';
  const sharedDescription = accented(100, 'shared');
  plant(
    'meta/duplicate-descriptions',
    [
      page(`${dd}/fires-a`, { description: sharedDescription }),
      page(`${dd}/fires-b`, { description: sharedDescription }),
    ],
    [
      page(`${dd}/near`, { description: `${sharedDescription.slice(0, -1)}y` }),
      // An empty description is a missing one, not a value two pages share.
      page(`${dd}/near-empty-a`, { description: '' }),
      page(`${dd}/near-empty-b`, { description: '' }),
      page(`${dd}/near-blank`, { description: ' \t ' }),
    ],
  );
  const dt = '/meta/duplicate-titles';
  // The same title sent in UTF-8 and in ISO-8859-1 (declared in the header, or only in the page) is one title.
  const sharedTitle = 'Café: a title that planted pages share';
  plant(
    'meta/duplicate-titles',
    [
      page(`${dt}/fires-a`, { title: sharedTitle }),
      page(`${dt}/fires-b`, { title: sharedTitle }),
      page(`${dt}/fires-latin1-header`, { title: sharedTitle, latin1: 'header' }),
      page(`${dt}/fires-latin1-meta`, { title: sharedTitle, latin1: 'meta' }),
    ],
    [
      page(`${dt}/near`, { title: `${sharedTitle}!` }),
      page(`${dt}/near-empty-a`, { title: '' }),
      page(`${dt}/near-empty-b`, { title: '' }),
    ],
  );
  const lengths = (id: string, field: 'title' | 'description', fires: number[], near: number[]): void =>
    plant(
      id,
      fires.map((length, i) =>
        page(`/${id}/fires-${i}`, { [field]: length === 0 ? null : accented(length, `${id}f${i}`) }),
      ),
      near.map((length, i) => page(`/${id}/near-${i}`, { [field]: accented(length, `${id}n${i}`) })),
    );
  lengths('meta/max-descriptions', 'description', [DESCRIPTION_LENGTH_MAX + 1], [DESCRIPTION_LENGTH_MAX]);
  lengths('meta/max-titles', 'title', [TITLE_LENGTH_MAX + 1], [TITLE_LENGTH_MAX]);
  lengths('meta/short-descriptions', 'description', [DESCRIPTION_LENGTH_MIN - 1, 0], [DESCRIPTION_LENGTH_MIN]);
  lengths('meta/short-titles', 'title', [TITLE_LENGTH_MIN - 1, 0], [TITLE_LENGTH_MIN]);

  // performance: measured by the crawler (fetch time) and by the renderer (the rest).
  const around = (thresholdMs: number): { fires: number; near: number } => ({
    fires: thresholdMs + ABOVE_MS,
    near: thresholdMs - BELOW_MS,
  });
  plant(
    'performance/poor-fetch',
    [page('/performance/poor-fetch/fires', { delayMs: around(FETCH_TIME_MAX * 1000).fires })],
    [page('/performance/poor-fetch/near', { delayMs: around(FETCH_TIME_MAX * 1000).near })],
  );
  plant(
    'performance/slow-ttfb',
    [page('/performance/slow-ttfb/fires', { delayMs: around(TTFB_MAX).fires })],
    [page('/performance/slow-ttfb/near', { delayMs: around(TTFB_MAX).near })],
  );
  // A block as tall as the viewport moves down by D px after first paint: impact fraction 1, distance D / 1280.
  const shiftPage = (path: string, cls: number): string => {
    const shift = Math.round(cls * VIEWPORT.width);
    return page(path, {
      h1: [],
      head: '<style>body{margin:0}#banner{background:#dcc}</style>',
      body:
        `<div style="height:${VIEWPORT.height}px;background:#ccd;overflow:hidden"><h1>Shifting page</h1><p>${textOfLength(3600, 'shift')}</p></div>` +
        `<script>new PerformanceObserver((list, observer) => { observer.disconnect(); setTimeout(() => document.body.prepend(Object.assign(document.createElement('div'), { id: 'banner', style: 'height:${shift}px' })), 50); }).observe({ type: 'paint', buffered: true });</script>`,
    });
  };
  plant(
    'performance/poor-cls',
    [shiftPage('/performance/poor-cls/fires', CLS_MAX + 0.05)],
    [shiftPage('/performance/poor-cls/near', CLS_MAX - 0.05)],
  );
  // Slow sub-resources: a render-blocking stylesheet (FCP), a parser-blocking script (DCL, and TTI, which is never
  // before DOMContentLoaded ends), a large image (LCP). Each is served after the delay in its name.
  const slowResource = (path: string, type: string, body: string, delayMs: number): string => {
    routes.set(path, { status: 200, headers: { 'content-type': type }, body, delayMs });
    return path;
  };
  const slowPages = (
    id: string,
    threshold: number,
    resource: (path: string, delayMs: number) => { head?: string; bodyStart?: string },
  ): void => {
    const make = (name: string, delayMs: number): string =>
      page(`/${id}/${name}`, resource(`/${id}/${name}-resource`, delayMs));
    const fires = around(threshold * 1000).fires;
    const near = (threshold * 1000) / 2;
    plant(id, [make('fires', fires)], [make('near', near)]);
  };
  slowPages('performance/slow-fcp', FCP_MAX, (path, delayMs) => ({
    head: `<link rel="stylesheet" href="${slowResource(path, 'text/css', 'h1{color:#333}', delayMs)}">`,
  }));
  slowPages('performance/poor-dcl', DCL_MAX, (path, delayMs) => ({
    bodyStart: `<script src="${slowResource(path, 'text/javascript', 'void 0;', delayMs)}"></script>`,
  }));
  slowPages('performance/slow-tti', TTI_MAX, (path, delayMs) => ({
    bodyStart: `<script src="${slowResource(path, 'text/javascript', 'void 0;', delayMs)}"></script>`,
  }));
  // Chromium leaves images under 0.05 bits per pixel out of LCP: the stripes give this one enough bytes.
  const hero = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="600">${Array.from(
    { length: 200 },
    (_, i) =>
      `<rect x="${i * 5}" width="5" height="600" fill="#${((i * 83_423) % 0xffffff).toString(16).padStart(6, '0')}"/>`,
  ).join('')}</svg>`;
  slowPages('performance/slow-lcp', LCP_MAX, (path, delayMs) => ({
    bodyStart: `<img src="${slowResource(path, 'image/svg+xml', hero, delayMs)}" width="1000" height="600" alt="Hero">`,
  }));

  // redirects
  plant(
    'redirects/all',
    [
      redirect('/redirects/all/fires', 301, ok),
      redirect('/redirects/all/fires-308', 308, ok),
      page('/redirects/all/fires-meta', { head: `<meta http-equiv="refresh" content="0; url=${ok}">` }),
    ],
    [page('/redirects/all/near')],
  );
  plant(
    'redirects/broken',
    [
      redirect('/redirects/broken/fires', 301, gone),
      redirect('/redirects/broken/fires-500', 302, page('/targets/error', { status: 500 }, false)),
    ],
    [redirect('/redirects/broken/near', 301, forbidden)],
  );
  redirect('/redirects/chain/hop', 301, ok, false);
  plant(
    'redirects/chain',
    [redirect('/redirects/chain/fires', 301, '/redirects/chain/hop')],
    [redirect('/redirects/chain/near', 301, ok), '/redirects/chain/hop'],
  );
  redirect('/redirects/loop/hop', 302, '/redirects/loop/fires', false);
  redirect('/redirects/loop/near-hop', 302, ok, false);
  plant(
    'redirects/loop',
    [redirect('/redirects/loop/fires', 301, '/redirects/loop/hop')],
    [redirect('/redirects/loop/near', 301, '/redirects/loop/near-hop')],
  );
  plant(
    'redirects/js-meta',
    [
      page('/redirects/js-meta/fires', { head: `<meta http-equiv="refresh" content="0; url=${ok}">` }),
      page('/redirects/js-meta/fires-js', { head: `<script>window.location.href = '${ok}';</script>` }),
      page('/redirects/js-meta/fires-js-replace', { bodyStart: `<script>location.replace("${ok}")</script>` }),
      // As rust-doc writes its stubs: a quoted URL='…'.
      page('/redirects/js-meta/fires-quoted', { head: `<meta http-equiv="refresh" content="0;URL='${ok}'">` }),
    ],
    [
      page('/redirects/js-meta/near', {
        head: '<meta http-equiv="refresh" content="300"><script>console.log(window.location.href);</script>',
      }),
    ],
  );
  plant(
    'redirects/temporary',
    [redirect('/redirects/temporary/fires', 302, ok), redirect('/redirects/temporary/fires-307', 307, ok)],
    [redirect('/redirects/temporary/near', 308, ok), redirect('/redirects/temporary/near-301', 301, ok)],
  );

  // schema
  plant(
    'schema/missing',
    [page('/schema/missing/fires', { structuredData: false })],
    [
      page('/schema/missing/near'),
      page('/schema/missing/near-microdata', {
        structuredData: false,
        bodyStart: '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Widget</span></div>',
      }),
    ],
  );

  // status-code
  plant(
    'status-code/4xx',
    [page('/status-code/4xx/fires', { status: 404 }), page('/status-code/4xx/fires-410', { status: 410 })],
    [page('/status-code/4xx/near', { status: 500 })],
  );
  plant(
    'status-code/5xx',
    [page('/status-code/5xx/fires', { status: 500 }), page('/status-code/5xx/fires-503', { status: 503 })],
    [page('/status-code/5xx/near', { status: 499 })],
  );
  plant(
    'status-code/other',
    [page('/status-code/other/fires', { status: 203 }), page('/status-code/other/fires-300', { status: 300 })],
    [page('/status-code/other/near')],
  );

  // The home page links to every linked page; robots.txt and the sitemaps close the set.
  // Pages the imported vendor files describe, for the reports a crawl alone leaves unfed (planted-sources.ts).
  for (const path of PLANTED_SOURCE_PAGES) page(path);
  const rendered = plantRenderedPages(routes, origin);
  linkedFromHome.push(rendered.hub);

  page('/', { title: 'Planted-defect test site home page', links: linkedFromHome, structuredData: true }, false);
  routes.set('/robots.txt', {
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: [
      'User-agent: *',
      'Disallow: /links/internal-disallowed/fires',
      'Disallow: /crawl/all/near',
      ...rendered.robots,
      '',
      `Sitemap: ${origin}${sitemapIndex}`,
      '',
    ].join('\n'),
  });
  const urlset = (paths: string[]): string =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
      .map((path) => `<url><loc>${origin}${path}</loc></url>`)
      .join('')}</urlset>`;
  routes.set(sitemapIndex, {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}${sitemapChild}</loc></sitemap></sitemapindex>`,
  });
  routes.set(sitemapChild, {
    status: 200,
    headers: { 'content-type': 'application/gzip' },
    body: zlib.gzipSync(urlset(inSitemap)),
  });

  const close = async (): Promise<void> => {
    for (const { server } of [site, external]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  return { origin, externalOrigin: ext, cases, rendered, paths: [...routes.keys()], close };
}

// `node --import tsx service/test/helpers/planted-site.ts` serves the site until Ctrl-C, to crawl it by hand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const site = await startPlantedSite();
  console.log(`planted-defect site at ${site.origin}/ (external site at ${site.externalOrigin}); Ctrl-C stops it`);
  process.once('SIGINT', () => void site.close().then(() => process.exit(0)));
}
