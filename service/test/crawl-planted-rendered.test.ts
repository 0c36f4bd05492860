/**
 * The planted site's rendered section (helpers/planted-rendered.ts) crawled by the real crawler with
 * `--render-mode all`, loaded by the real loader and read through the real engine: each report of the rendered crawl
 * holds exactly the planted rows, the raw crawl of the same pages misses what only a script links to, and the export
 * keeps the raw twins beside the rendered values, each link's origin, and where each column came from.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnSources } from '../../catalog/column-sources.ts';
import { MANIFEST_FILE, manifestSchema, type Manifest } from '../../catalog/export-contract.ts';
import { renderReports } from '../../catalog/render-reports.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { crawlAndLoad, type CrawledSite } from './helpers/crawl-and-load.ts';
import { testCrawlOptions } from './helpers/crawl-site.ts';
import { RENDERED_SECTION } from './helpers/planted-rendered.ts';
import { startPlantedSite, unfedReports, type PlantedSite } from './helpers/planted-site.ts';
import { readExportRows } from './helpers/read-export.ts';

/** Generous limits: the test machine is shared, and a starved renderer needs seconds for a page. */
const RENDER = { quietMs: 500, capMs: 8000, tabs: 2 };

let site: PlantedSite;
let tmp = '';
let raw = '';
let crawled: CrawledSite;
let rendered = '';

const sectionOptions = (startUrl: string, outDir: string) =>
  testCrawlOptions(startUrl, outDir, {
    websiteId: 'planted-rendered',
    checkExternal: false,
    include: [new RegExp(`^${site.origin}${RENDERED_SECTION}`)],
  });

beforeAll(async () => {
  ensureDebianPackages([debianPackages.chromium]);
  site = await startPlantedSite();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-planted-rendered-'));
  const start = site.origin + site.rendered.hub;
  raw = path.join(tmp, 'raw');
  await crawlWebsite(sectionOptions(start, raw));
  const { outDir: _, ...options } = sectionOptions(start, '');
  crawled = await crawlAndLoad({ ...options, renderMode: 'all', renderSettings: RENDER });
  rendered = crawled.crawl.outDir;
}, 300_000);

afterAll(async () => {
  crawled?.dispose();
  await site?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const manifestOf = (dir: string): Manifest =>
  manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')));

const urlRow = async (dir: string, pagePath: string): Promise<Record<string, unknown> | undefined> =>
  (await readExportRows(dir, 'urls', `SELECT * FROM $table WHERE url = '${site.origin}${pagePath}'`))[0];

const asIs = (draft: unknown) => draft as ReportDefinition;
/** The reports of the rendered crawl, as the catalogue declares them. */
const renderedReportIds = renderReports(asIs, asIs).map((report) => report.id);

describe('the planted rendered section, crawled with --render-mode all', () => {
  it('plants a case for each report of the rendered crawl, and the raw crawl test names it unfed', () => {
    expect(Object.keys(site.rendered.cases).sort()).toEqual([...renderedReportIds].sort());
    for (const id of renderedReportIds) expect(unfedReports[id], id).toContain('crawl-planted-rendered.test.ts');
  });

  it.each(renderedReportIds)('%s holds exactly the planted rows, and none of the near misses', async (id) => {
    const planted = site.rendered.cases[id];
    expect(planted?.fires.length).toBeGreaterThan(0);
    expect(planted?.nearMiss.length).toBeGreaterThan(0);
    const rows = await crawled.reportRows(id);
    const found = [...new Set(rows.map((row) => String(row.url ?? row.url_to)))].sort();
    expect(found).toEqual([...(planted?.fires ?? [])].sort());
    for (const url of planted?.nearMiss ?? []) expect(found, `${url} is a near miss`).not.toContain(url);
  });

  it('finds the pages only scripts link to, which the raw crawl of the same pages misses', async () => {
    const sql = 'SELECT url FROM $table WHERE html_size IS NOT NULL ORDER BY url';
    const pathsOf = async (dir: string) =>
      (await readExportRows(dir, 'urls', sql)).map((row) => String(row.url).slice(site.origin.length));
    const [rawPaths, renderedPaths] = [await pathsOf(raw), await pathsOf(rendered)];
    expect(rawPaths.length).toBeGreaterThan(20);
    expect(renderedPaths.filter((p) => !rawPaths.includes(p))).toEqual([...site.rendered.foundByRendering].sort());
    expect(rawPaths.filter((p) => !renderedPaths.includes(p))).toEqual([]);
  });

  it('keeps the raw HTML’s headings, alternates, structured data and content hash beside the rendered ones', async () => {
    const twins = await urlRow(rendered, site.rendered.twins);
    expect(twins).toMatchObject({
      rendered: true,
      raw_h2_tag: ['Raw subheading'],
      h2_tag: ['Raw subheading', 'Added subheading'],
      raw_hreflang_links_out_count: 0,
      hreflang_links_out_count: 2,
      raw_has_structured_data: false,
      has_structured_data: true,
      raw_schema_types: [],
      product_schema_count: 1,
    });
    expect(twins?.content_hash).not.toBe(twins?.raw_content_hash);
    expect(twins?.raw_content_hash).toEqual(expect.any(String));
    // An image both versions show is the rendered DOM's: its alt text is the one the script set.
    const images = await readExportRows(rendered, 'images_missing_alt', 'SELECT url, imgSrc FROM $table');
    expect(images).toEqual([
      { url: site.origin + site.rendered.twins, imgSrc: `${site.origin}${RENDERED_SECTION}twins/no-alt.png` },
    ]);
    // A page its script leaves alone has equal twins.
    const hub = await urlRow(rendered, site.rendered.hub);
    expect(hub?.content_hash).toBe(hub?.raw_content_hash);
    expect(hub?.raw_h2_tag).toEqual([]);
    // The raw crawl fills the content hash, and no raw twin.
    const rawHub = await urlRow(raw, site.rendered.hub);
    expect(rawHub).toMatchObject({ content_hash: hub?.content_hash, raw_content_hash: null, raw_h2_tag: null });
  });

  it('keeps each link with its origin: only rendered, only raw, or both', async () => {
    const { from } = site.rendered.rawOnlyLink;
    const links = await readExportRows(
      rendered,
      'links',
      `SELECT url_to, rendered_only, raw_only FROM $table WHERE url_from = '${site.origin}${from}' AND link_type = 'href' ORDER BY url_to`,
    );
    const byPath = Object.fromEntries(
      links.map((l) => [String(l.url_to).slice(site.origin.length), [l.rendered_only, l.raw_only]]),
    );
    expect(byPath).toEqual({
      [`${RENDERED_SECTION}links/rendered-only/fires`]: [true, false],
      [site.rendered.rawOnlyLink.to]: [false, true],
      [`${RENDERED_SECTION}links/rendered-only/near`]: [false, false],
    });
  });

  it('says in the manifest where each column came from, and only for a rendered crawl', () => {
    expect(manifestOf(rendered).columnSources).toEqual(columnSources);
    expect(manifestOf(rendered).columnSources?.urls?.page_title).toBe('rendered');
    expect(manifestOf(raw).columnSources).toBeUndefined();
  });
});
