/**
 * The rendered crawl (`--render-mode all`) of two client-rendered sites built from React and wouter at test time:
 * a shop in history mode, whose server answers every path with one empty shell, and a documentation site whose
 * navigation is hash routes. The raw crawl sees the shells; the rendered crawl finds the pages, keeps the raw values
 * beside the rendered ones, and records what the pages did wrong in the browser.
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlWebsite } from '../crawl/crawl.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { crawlAndLoad, type CrawledSite } from './helpers/crawl-and-load.ts';
import { testCrawlOptions } from './helpers/crawl-site.ts';
import { serveJsSite, type JsSite } from './helpers/js-sites/js-sites.ts';
import { readExportRows } from './helpers/read-export.ts';
import { comparabilityOf } from '../../catalog/comparability.ts';
import { MANIFEST_FILE, manifestSchema } from '../../catalog/export-contract.ts';

/** Generous limits: the test machine is shared, and a starved renderer needs seconds for a React bundle. */
const RENDER = { quietMs: 500, capMs: 8000, tabs: 2 };

let tmp = '';
const servers: http.Server[] = [];
let shop = '';
let docs = '';
let shopSite: JsSite;
let docsSite: JsSite;

beforeAll(async () => {
  ensureDebianPackages([debianPackages.chromium]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-rendered-'));
  const [history, hash] = await Promise.all([serveJsSite('history'), serveJsSite('hash')]);
  servers.push(history.server, hash.server);
  [shopSite, docsSite] = [history, hash];
  shop = history.origin;
  docs = hash.origin;
});

afterAll(() => {
  for (const server of servers) server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function crawlRaw(origin: string, name: string): Promise<string> {
  const outDir = path.join(tmp, name);
  await crawlWebsite(testCrawlOptions(`${origin}/`, outDir, { checkExternal: false }));
  return outDir;
}

/** A rendered crawl loaded by the real loader, its reports read through the real engine. */
async function crawlRendered(origin: string, loadAssets = false): Promise<CrawledSite> {
  const { outDir: _, ...options } = testCrawlOptions(`${origin}/`, '', {
    checkExternal: false,
    renderMode: 'all',
    renderSettings: { ...RENDER, loadAssets },
  });
  return crawlAndLoad(options);
}

/** The paths of a report's rows (its URL column: url_to for links reports). */
async function reportPaths(site: CrawledSite, reportId: string, origin: string): Promise<string[]> {
  const rows = await site.reportRows(reportId);
  return [...new Set(rows.map((row) => String(row.url ?? row.url_to).slice(origin.length)))].sort();
}

const pathsOf = (rows: Record<string, unknown>[], origin: string): string[] =>
  rows.map((row) => String(row.url).slice(origin.length)).sort();

describe('a history-mode React shop', () => {
  let raw = '';
  let rendered = '';
  let site: CrawledSite | undefined;
  beforeAll(async () => {
    raw = await crawlRaw(shop, 'shop-raw');
    site = await crawlRendered(shop);
    rendered = site.crawl.outDir;
  });
  afterAll(() => site?.dispose());

  it('is one shell to the raw crawl and its whole catalogue to the rendered crawl', async () => {
    const html = 'SELECT url FROM $table WHERE internal AND html_size IS NOT NULL';
    expect(pathsOf(await readExportRows(raw, 'urls', html), shop)).toEqual(['/', '/legal']);
    // Each export records its render mode, so comparing the two crawls warns that rendering differs.
    const settingsOf = (dir: string) =>
      manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'))).settings;
    expect([settingsOf(raw)?.renderMode, settingsOf(rendered)?.renderMode]).toEqual(['none', 'all']);
    const differences = comparabilityOf({ settings: settingsOf(rendered) }, { settings: settingsOf(raw) })?.differences;
    expect(differences?.map((d) => d.setting)).toContain('renderMode');
    expect(pathsOf(await readExportRows(rendered, 'urls', html), shop)).toEqual([
      '/',
      '/about',
      '/legal',
      '/live',
      '/products',
      '/products/1',
      '/products/2',
      '/products/3',
    ]);
  });

  it('reads the rendered head and keeps the raw one beside it', async () => {
    const [product] = await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/products/2'`);
    expect(product).toMatchObject({
      rendered: true,
      render_status: 'rendered',
      page_title: 'Product 2 | JS Shop',
      raw_page_title: 'JS Shop',
      description: 'All about product 2',
      raw_description: 'Loading the app',
      canonical_html_url: `${shop}/products/2`,
      raw_canonical_url: null,
      h1_tag: ['Product 2'],
      raw_h1_tag: [],
      raw_word_count: 1,
      js_error_count: 0,
    });
    expect(Number(product?.word_count)).toBeGreaterThan(100);
    expect(product?.head_changed_by_javascript).toEqual(['title', 'description', 'canonical', 'h1']);
    expect(product?.rendered_words_added).toBe(Number(product?.word_count) - 1);
    const [about] = await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/about'`);
    expect(about).toMatchObject({ meta_noindex: true, raw_meta_noindex: false, indexable: false, js_error_count: 2 });
    expect(about?.head_changed_by_javascript).toContain('noindex');
    expect(about?.js_console_errors).toEqual(['about: the team widget could not load']);
    expect(String((about?.js_exceptions as string[])[0])).toContain('about: team widget crashed');
  });

  it('reads alternates, schema.org data, images and content from the rendered DOM, and records failed requests', async () => {
    const product = async (id: string) =>
      (await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/products/${id}'`))[0];
    const two = await product('2');
    expect(two).toMatchObject({ hreflang_links_out_count: 2, has_structured_data: true, product_schema_count: 1 });
    expect(two?.failed_requests).toEqual([`${shop}/reviews/2.json 404`]);
    // The three products were served one shell; rendered, each body is its own (no duplicate content).
    const products = await Promise.all(['1', '2', '3'].map(product));
    expect(products.map((p) => [p?.html_size, p?.duplicate_body])).toEqual([
      [two?.html_size, false],
      [two?.html_size, false],
      [two?.html_size, false],
    ]);
    const links = await readExportRows(
      rendered,
      'links',
      `SELECT link_type, url_to, hreflang FROM $table WHERE url_from = '${shop}/products/2' AND link_type IN ('hreflang', 'image') ORDER BY link_type, url_to`,
    );
    expect(links).toEqual([
      { link_type: 'hreflang', url_to: `${shop}/products/1`, hreflang: 'de' },
      { link_type: 'hreflang', url_to: `${shop}/products/3`, hreflang: 'fr' },
      { link_type: 'image', url_to: `${shop}/img/product-2.png`, hreflang: null },
    ]);
    // Images, media and fonts are not downloaded by the browser unless the crawl asks for assets.
    expect(shopSite.imageRequests).toEqual([]);
  });

  it('marks the links only the rendered page has', async () => {
    const links = await readExportRows(
      rendered,
      'links',
      `SELECT url_from, url_to, rendered_only FROM $table WHERE url_from = '${shop}/' ORDER BY url_to`,
    );
    const byTarget = Object.fromEntries(links.map((l) => [String(l.url_to).slice(shop.length), l.rendered_only]));
    expect(byTarget).toMatchObject({ '/about': true, '/products': true, '/legal': false });
    const rawLinks = await readExportRows(raw, 'links', `SELECT rendered_only FROM $table`);
    expect(rawLinks.every((l) => l.rendered_only === null)).toBe(true);
  });

  it('does not render a page whose raw HTML says noindex', async () => {
    const [legal] = await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/legal'`);
    expect(legal).toMatchObject({
      rendered: false,
      render_status: 'skipped',
      render_reason: 'noindex in the raw HTML',
    });
    const secret = await readExportRows(rendered, 'urls', `SELECT url FROM $table WHERE url LIKE '%legal-secret%'`);
    expect(secret).toEqual([]);
    expect(legal).toMatchObject({ head_changed_by_javascript: null, rendered_words_added: null });
    const sql = 'SELECT head_changed_by_javascript AS h, rendered_words_added AS w FROM $table WHERE html_size > 0';
    expect(await readExportRows(raw, 'urls', sql)).toEqual([
      { h: null, w: null },
      { h: null, w: null },
    ]);
  });

  it('fills each rendered-crawl report with the pages that have its finding', async () => {
    const crawled = site as CrawledSite;
    const rendered = ['/', '/about', '/live', '/products', '/products/1', '/products/2', '/products/3'];
    expect(await reportPaths(crawled, 'meta/changed-by-javascript', shop)).toEqual(rendered);
    expect(await reportPaths(crawled, 'content/rendered-only', shop)).toEqual([
      '/products/1',
      '/products/2',
      '/products/3',
    ]);
    expect(await reportPaths(crawled, 'crawl/javascript-errors', shop)).toEqual(['/about']);
    expect(await reportPaths(crawled, 'crawl/robots-blocked-resources', shop)).toEqual(['/products']);
    expect(await reportPaths(crawled, 'crawl/render-timeouts', shop)).toEqual(['/live']);
    expect(await reportPaths(crawled, 'crawl/hash-routes', shop)).toEqual([]);
    const linkedOnlyRendered = await reportPaths(crawled, 'links/rendered-only', shop);
    expect(linkedOnlyRendered).toEqual(expect.arrayContaining(['/about', '/live', '/products', '/products/1']));
    expect(linkedOnlyRendered).not.toContain('/legal');
  });

  it('records the resources robots.txt blocks and a page that never settles', async () => {
    const [products] = await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/products'`);
    expect(products?.robots_blocked_resources).toEqual([`${shop}/private/stock.json`]);
    const [live] = await readExportRows(rendered, 'urls', `SELECT * FROM $table WHERE url = '${shop}/live'`);
    expect(live).toMatchObject({ render_status: 'timeout', rendered: true, page_title: 'Live | JS Shop' });
    expect(String(live?.render_reason)).toMatch(
      /^the cap of 8000 ms was reached \(loaded, [1-9]\d* requests in flight\)/,
    );
    expect(Number(live?.render_time)).toBeLessThan(8 + 2 * 2 + 1);
  });
});

describe('a hash-routed React documentation site', () => {
  it('lists the hash routes the raw crawl cannot see, its own views included', async () => {
    const raw = await crawlRaw(docs, 'docs-raw');
    const site = await crawlRendered(docs, true);
    // Asked for assets, the browser downloads the logo.
    expect(docsSite.imageRequests).toContain('/img/logo.png');
    const rendered = site.crawl.outDir;
    const sql = `SELECT url, hash_routes, hash_route_count FROM $table WHERE url = '${docs}/'`;
    expect((await readExportRows(raw, 'urls', sql))[0]).toMatchObject({ hash_routes: null, hash_route_count: null });
    expect((await readExportRows(rendered, 'urls', sql))[0]).toMatchObject({
      hash_routes: ['#/', '#/api', '#/guide', '#/guide/install'],
      hash_route_count: 4,
    });
    expect(await reportPaths(site, 'crawl/hash-routes', docs)).toEqual(['/']);
    site.dispose();
  });
});
