/**
 * The planted site's rendered section (`/rendered-crawl/`): pages whose scripts plant what each report of the
 * rendered crawl looks for (catalog/render-reports.ts), each beside a near miss just across the report's boundary,
 * and a page whose script changes the fields a rendered crawl keeps the raw twin of. A raw crawl sees these pages as
 * plain ones; crawl-planted-rendered.test.ts crawls the section with `--render-mode all`. Scripts are plain DOM
 * calls on purpose: each plants one thing, and the framework-built sites are in js-sites/.
 */
import { RENDERED_WORDS_ADDED_MIN, RENDERED_WORDS_RATIO } from '../../../catalog/constants.ts';
import type { PlantedCase, PlantedResponse } from './planted-site.ts';

export const RENDERED_SECTION = '/rendered-crawl/';

/** A poll the never-settling page starts every 200 ms and each answered after 300 ms: the network is never quiet. */
const POLL_MS = 300;
/** The slow subrequest of the near miss of a render timeout: well within any cap a test sets. */
const SLOW_MS = 1000;

export interface PlantedRenderedSection {
  /** By report id: the rows each rendered-crawl report must hold, and near misses it must not. */
  cases: Record<string, PlantedCase>;
  /** The section's start page, which links (in its raw HTML) to every page of the section but one. */
  hub: string;
  /** The page whose script changes its subheadings, alternates, structured data and text (the raw twins). */
  twins: string;
  /** The pages the rendered crawl alone finds: only scripts link to them (a hyperlink, an hreflang alternate). */
  foundByRendering: string[];
  /** A link the rendered page dropped: only the raw HTML of its page has it. */
  rawOnlyLink: { from: string; to: string };
  /** robots.txt lines the section needs. */
  robots: string[];
}

/** `count` distinct words: each a word for any tokenizer. */
export const words = (count: number, seed: string): string =>
  Array.from({ length: count }, (_, i) => `${seed}${i}`).join(' ');

interface RenderedSpec {
  title?: string;
  /** null: no H1 (so the body's words are exactly the ones planted). */
  h1?: string | null;
  head?: string;
  body?: string;
  /** Run as the page's last element. */
  script?: string;
}

/** Plants the section's pages on `routes` (the planted site's table), with `origin` the planted site's. */
export function plantRenderedPages(routes: Map<string, PlantedResponse>, origin: string): PlantedRenderedSection {
  const base = RENDERED_SECTION;
  const hubLinks: string[] = [];
  const cases: Record<string, PlantedCase> = {};
  const abs = (path: string): string => origin + path;
  const plant = (id: string, fires: string[], nearMiss: string[]): void => {
    cases[id] = { fires: fires.map(abs), nearMiss: nearMiss.map(abs) };
  };

  function page(path: string, spec: RenderedSpec = {}, linked = true): string {
    const document = [
      '<!doctype html><html lang="en"><head><meta charset="utf-8">',
      `<title>${spec.title ?? `Rendered section page ${path}`}</title>`,
      `<meta name="description" content="A page of the planted site's rendered section: ${path}">`,
      spec.head ?? '',
      '</head><body>',
      spec.h1 === null ? '' : `<h1>${spec.h1 ?? 'Rendered section'}</h1>`,
      spec.body ?? `<p id="text">${words(120, 'plain')}</p>`,
      spec.script === undefined ? '' : `<script>${spec.script}</script>`,
      '</body></html>',
    ].join('');
    routes.set(path, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: document });
    if (linked) hubLinks.push(path);
    return path;
  }
  const json = (path: string, delayMs = 0): string => {
    routes.set(path, { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', delayMs });
    return path;
  };
  /** A script appending `html` to the body. */
  const append = (html: string): string => `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(html)});`;

  // links/rendered-only: the source links to /near in its HTML and to /fires only from its script, which also drops
  // the HTML's link to /raw-only.
  const lr = `${base}links/rendered-only`;
  const foundByRendering = page(`${lr}/fires`, {}, false);
  const rawOnly = page(`${lr}/raw-only`, {}, false);
  const source = page(`${lr}/source`, {
    body: `<p>${words(120, 'links')}</p><a href="${lr}/near">In the HTML</a> <a id="dropped" href="${rawOnly}">Dropped</a>`,
    script: `document.getElementById('dropped').remove();${append(`<a href="${foundByRendering}">Only rendered</a>`)}`,
  });
  plant('links/rendered-only', [foundByRendering], [page(`${lr}/near`, {}, false), rawOnly]);

  // meta/changed-by-javascript: one page per compared field; the near misses rewrite a field to its own value or
  // change a field the report does not compare.
  const mc = `${base}meta/changed-by-javascript`;
  const setMeta = (name: string, content: string): string =>
    `document.head.append(Object.assign(document.createElement('meta'), { name: '${name}', content: '${content}' }));`;
  plant(
    'meta/changed-by-javascript',
    [
      page(`${mc}/fires-title`, { script: `document.title = 'A title set by JavaScript';` }),
      page(`${mc}/fires-description`, {
        script: `document.querySelector('meta[name=description]').content = 'A description set by JavaScript';`,
      }),
      page(`${mc}/fires-canonical`, {
        script: `document.head.append(Object.assign(document.createElement('link'), { rel: 'canonical', href: location.href }));`,
      }),
      page(`${mc}/fires-noindex`, { script: setMeta('robots', 'noindex') }),
      page(`${mc}/fires-h1`, { script: `document.querySelector('h1').textContent = 'A heading set by JavaScript';` }),
    ],
    [
      page(`${mc}/near`, { title: 'Kept title', script: `document.title = 'Kept title';` }),
      page(`${mc}/near-h2`, { script: append('<h2>A subheading set by JavaScript</h2>') }),
    ],
  );

  // content/rendered-only: words added against the raw count, on both boundaries of the filter.
  const cr = `${base}content/rendered-only`;
  const adding = (path: string, raw: number, added: number): string =>
    page(path, {
      h1: null,
      body: `<p>${words(raw, 'raw')}</p>`,
      script: `document.body.append(Object.assign(document.createElement('p'), { textContent: ${JSON.stringify(words(added, 'js'))} }));`,
    });
  const few = 10;
  const many = RENDERED_WORDS_ADDED_MIN * 2;
  const ratioAdded = (RENDERED_WORDS_RATIO - 1) * many;
  plant(
    'content/rendered-only',
    [adding(`${cr}/fires`, few, RENDERED_WORDS_ADDED_MIN), adding(`${cr}/fires-ratio`, many, ratioAdded)],
    [adding(`${cr}/near`, few, RENDERED_WORDS_ADDED_MIN - 1), adding(`${cr}/near-ratio`, many, ratioAdded - 1)],
  );

  // crawl/javascript-errors: an uncaught exception and a console error; the near misses log, warn, catch their own
  // error, and fail a request (a failed request, not a JavaScript error).
  const je = `${base}crawl/javascript-errors`;
  plant(
    'crawl/javascript-errors',
    [
      page(`${je}/fires`, { script: `setTimeout(() => { throw new Error('planted: uncaught'); });` }),
      page(`${je}/fires-console`, { script: `console.error('planted: console error');` }),
    ],
    [
      page(`${je}/near`, {
        script: `console.log('planted: log'); console.warn('planted: warning'); try { null.x; } catch { /* handled */ }`,
      }),
      page(`${je}/near-failed-request`, { script: `fetch('${je}/missing.json').catch(() => {});` }),
    ],
  );

  // crawl/robots-blocked-resources: robots.txt disallows the data under /private/.
  const rb = `${base}crawl/robots-blocked-resources`;
  json(`${rb}/public/data.json`);
  json(`${rb}/private/data.json`);
  const fetching = (path: string, data: string): string =>
    page(path, { script: `fetch('${data}').then((r) => r.text()).catch(() => {});` });
  plant(
    'crawl/robots-blocked-resources',
    [fetching(`${rb}/fires`, `${rb}/private/data.json`)],
    [fetching(`${rb}/near`, `${rb}/public/data.json`)],
  );

  // crawl/render-timeouts: a page that polls without end, and one whose slow request ends within the cap.
  const rt = `${base}crawl/render-timeouts`;
  json(`${rt}/poll`, POLL_MS);
  json(`${rt}/slow`, SLOW_MS);
  plant(
    'crawl/render-timeouts',
    [page(`${rt}/fires`, { script: `setInterval(() => fetch('${rt}/poll?' + Date.now()).catch(() => {}), 200);` })],
    [page(`${rt}/near`, { script: `fetch('${rt}/slow').catch(() => {});` })],
  );

  // crawl/hash-routes: navigation of two hash routes fires; one route, or in-page anchors, do not.
  const hr = `${base}crawl/hash-routes`;
  const linking = (path: string, hrefs: string[]): string =>
    page(path, { body: `<p>${words(120, 'hash')}</p>${hrefs.map((h) => `<a href="${h}">${h}</a>`).join(' ')}` });
  plant(
    'crawl/hash-routes',
    [linking(`${hr}/fires`, ['#/one', '#/two'])],
    [linking(`${hr}/near`, ['#/']), linking(`${hr}/near-anchors`, ['#top', '#section'])],
  );

  // The raw twins: the script adds a subheading, two alternates and a Product, and rewrites the text.
  const twinsDe = page(`${base}twins/de`, {}, false);
  // Its images have no alt text in the raw HTML; the script gives the first one its alt.
  for (const name of ['alt-by-javascript', 'no-alt'])
    routes.set(`${base}twins/${name}.png`, { status: 200, headers: { 'content-type': 'image/png' }, body: 'no png' });
  const twins = page(`${base}twins/en`, {
    body: `<h2>Raw subheading</h2><p id="text">${words(120, 'twin')}</p><img id="pic" src="${base}twins/alt-by-javascript.png"><img src="${base}twins/no-alt.png">`,
    script: [
      append('<h2>Added subheading</h2>'),
      `document.getElementById('pic').alt = 'Set by JavaScript';`,
      `document.getElementById('text').textContent = ${JSON.stringify(words(120, 'rewritten'))};`,
      ...[
        ['de', twinsDe],
        ['fr', `${base}`],
      ].map(
        ([lang, href]) =>
          `document.head.append(Object.assign(document.createElement('link'), { rel: 'alternate', hreflang: '${lang}', href: '${href}' }));`,
      ),
      `document.head.append(Object.assign(document.createElement('script'), { type: 'application/ld+json', text: '{"@context":"https://schema.org","@type":"Product","name":"Twin"}' }));`,
    ].join('\n'),
  });

  const hub = page(
    base,
    {
      title: 'The planted rendered section',
      body: `<p>${words(120, 'hub')}</p><ul>${hubLinks.map((path) => `<li><a href="${path}">${path}</a></li>`).join('')}</ul>`,
    },
    false,
  );
  return {
    cases,
    hub,
    twins,
    foundByRendering: [foundByRendering, twinsDe],
    rawOnlyLink: { from: source, to: rawOnly },
    robots: [`Disallow: ${rb}/private/`],
  };
}
