/**
 * Oracles for the accuracy points of the real-site checks (issue 27 §4), reading the files nginx serves with grep,
 * hashes and file names only, so they share no code with the crawler's parser: empty meta descriptions,
 * `<link rel=canonical>` and `<meta rel=canonical>` tags, byte-identical copies, and which URLs are HTML pages.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { NO_SITEMAP_NOTICE } from '../../../catalog/api.ts';
import { parquetFileOf } from '../../../catalog/export-contract.ts';
import { catalog } from '../../../catalog/index.ts';
import { quoteLiteral, withConnection } from '../../db/duckdb.ts';
import type { CrawledSite } from './crawl-and-load.ts';
import { fileOfUrl } from '../../../scripts/support/real-site-oracles.ts';

/** Markup patterns (grep -E) as Debian's documentation packages write them. */
export const markup = {
  emptyDescription: '<meta name="description" content="[[:space:]]*"',
  metaCanonical: '<meta rel="canonical"',
  linkCanonical: '<link rel="canonical"',
} as const;

/** HTML files (`*.html`, `*.html.<lang>`) below `root` that hold `pattern`, symlinks followed. */
export function filesMatching(root: string, pattern: string): Set<string> {
  try {
    const out = execFileSync('grep', ['-RlE', '--include=*.html', '--include=*.html.*', pattern, root], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return new Set(out.split('\n').filter((line) => line !== ''));
  } catch (error) {
    // grep exits 1 when no file matches.
    if ((error as { status?: number }).status === 1) return new Set();
    throw error;
  }
}

/** By its file name, as nginx's mime.types types it: `.html` (and a directory index) is text/html. */
export const isHtmlFile = (file: string): boolean => /\.html(\.[\w-]+)?$/.test(file);

/** The export's urls table as the crawler wrote it (real Parquet, read by DuckDB). */
export async function exportedUrls(crawled: CrawledSite, columns: string[]): Promise<Record<string, unknown>[]> {
  const file = path.join(crawled.crawl.outDir, parquetFileOf('urls'));
  return withConnection(crawled.db, async (conn) => {
    const reader = await conn.runAndReadAll(
      `SELECT ${columns.join(', ')} FROM read_parquet(${quoteLiteral(file)}) ORDER BY url`,
    );
    return reader.getRowObjectsJS();
  });
}

/** The crawled internal URLs that answered 200 from an HTML file, with that file. */
export async function crawledHtmlPages(
  crawled: CrawledSite,
  site: { root: string; url: string },
): Promise<Map<string, string>> {
  const rows = await exportedUrls(crawled, ['url', 'http_status_code', 'internal']);
  const pages = new Map<string, string>();
  for (const row of rows) {
    if (row.internal !== true || Number(row.http_status_code) !== 200) continue;
    const file = fileOfUrl(site.root, site.url, String(row.url));
    if (isHtmlFile(file) && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) pages.set(String(row.url), file);
  }
  return pages;
}

/**
 * Groups of byte-identical pages (by SHA-256 of the file) in which the crawler keeps more than one indexable page
 * primary (`primary_page`): each such group is one page set, so one primary at most. Returns those groups, and the
 * number of copies (members beyond the first of each group) the check covered.
 */
export async function primariesAmongCopies(
  crawled: CrawledSite,
  pages: ReadonlyMap<string, string>,
): Promise<{ copies: number; groupsWithSeveralPrimaries: string[][] }> {
  const rows = await exportedUrls(crawled, ['url', 'indexable', 'primary_page']);
  const indexable = new Map(rows.map((r) => [String(r.url), r.indexable === true]));
  const primary = new Map(rows.map((r) => [String(r.url), r.primary_page === true]));
  const byHash = new Map<string, string[]>();
  for (const [url, file] of pages) {
    if (!indexable.get(url)) continue;
    const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    byHash.set(hash, [...(byHash.get(hash) ?? []), url]);
  }
  const groups = [...byHash.values()].filter((urls) => urls.length > 1);
  return {
    copies: groups.reduce((n, urls) => n + urls.length - 1, 0),
    groupsWithSeveralPrimaries: groups.filter((urls) => urls.filter((url) => primary.get(url)).length > 1),
  };
}

export interface AccuracySubject {
  crawled: CrawledSite;
  site: { root: string; url: string };
  /** crawledHtmlPages of the crawl. */
  pages: ReadonlyMap<string, string>;
}

/** Floors that keep each check meaningful on its site: how many cases the oracle must find there. */
export interface AccuracyFloors {
  emptyDescriptions: number;
  metaCanonicals: number;
  byteIdenticalCopies: number;
  nonIndexablePages: number;
}

/** The checks of issue 27 §4 on a crawled real site, one `it` each; `subject` is read once the crawl is done. */
export function describeAccuracyChecks(subject: () => AccuracySubject, floors: AccuracyFloors): void {
  const pagesIn = (files: ReadonlySet<string>): string[] =>
    [...subject().pages].filter(([, file]) => files.has(file)).map(([url]) => url);
  const columnOf = async (name: string): Promise<Map<string, unknown>> =>
    new Map((await exportedUrls(subject().crawled, ['url', name])).map((r) => [String(r.url), r[name]]));

  it('an empty meta description (grep) is missing, never one shared value', async () => {
    const { crawled, site } = subject();
    const empty = pagesIn(filesMatching(site.root, markup.emptyDescription));
    expect(empty.length).toBeGreaterThanOrEqual(floors.emptyDescriptions);
    const description = await columnOf('description');
    expect(empty.filter((url) => description.get(url) !== null)).toEqual([]);
    const rows = await crawled.reportRows('meta/duplicate-descriptions');
    expect(rows.filter((r) => typeof r.description !== 'string' || r.description.trim() === '')).toEqual([]);
  });

  it('only <link rel=canonical> names a canonical: <meta rel=canonical> (grep) is ignored', async () => {
    const { crawled, site } = subject();
    const metaOnly = pagesIn(filesMatching(site.root, markup.metaCanonical));
    expect(metaOnly.length).toBeGreaterThanOrEqual(floors.metaCanonicals);
    const canonical = await columnOf('canonical_html_url');
    const linkCanonical = new Set(pagesIn(filesMatching(site.root, markup.linkCanonical)));
    expect(metaOnly.filter((url) => !linkCanonical.has(url) && canonical.get(url) !== null)).toEqual([]);
    const rows = await crawled.reportRows('canonical/non-self-referencing');
    expect(rows.map((r) => String(r.url)).filter((url) => !linkCanonical.has(url))).toEqual([]);
  });

  it('every html report lists HTML pages only, by the file nginx serves: no stylesheet, script, font or image', async () => {
    const { crawled, site } = subject();
    const nonIndexable = (await crawled.reportRows('internal/non-indexable')).map((r) => String(r.url));
    expect(nonIndexable.length).toBeGreaterThanOrEqual(floors.nonIndexablePages);
    // A URL with no 2xx answer has no content of its own, and stays in the html reports (a broken canonical target).
    const status = await columnOf('http_status_code');
    const files: string[] = [];
    for (const report of catalog.reports.filter((r) => r.contentType === 'html' && r.tableId === 'urls'))
      for (const url of (await crawled.reportRows(report.id)).map((r) => String(r.url))) {
        const code = Number(status.get(url));
        if (code >= 200 && code <= 299 && !isHtmlFile(fileOfUrl(site.root, site.url, url)))
          files.push(`${report.id}: ${url}`);
      }
    expect(files).toEqual([]);
  });

  it('byte-identical indexable pages (SHA-256 of the files) form one page set: one primary at most', async () => {
    const { copies, groupsWithSeveralPrimaries } = await primariesAmongCopies(subject().crawled, subject().pages);
    expect(copies).toBeGreaterThanOrEqual(floors.byteIdenticalCopies);
    expect(groupsWithSeveralPrimaries).toEqual([]);
  });

  it('with no sitemap on the site, no page is listed as missing from sitemaps', async () => {
    const { crawled, site } = subject();
    expect(fs.existsSync(path.join(site.root, 'sitemap.xml'))).toBe(false);
    // A row for the /sitemap.xml tried and not found may be there; none was fetched.
    const sitemaps = path.join(crawled.crawl.outDir, parquetFileOf('sitemaps'));
    const fetched = await withConnection(crawled.db, async (conn) => {
      const reader = await conn.runAndReadAll(
        `SELECT count(*)::INTEGER FROM read_parquet(${quoteLiteral(sitemaps)}) WHERE http_status_code BETWEEN 200 AND 299`,
      );
      return Number(reader.getRows()[0]?.[0]);
    });
    expect(fetched).toBe(0);
    expect([...(await columnOf('found_in_sitemap')).values()].filter((v) => v !== null)).toEqual([]);
    expect(await crawled.reportRows('sitemap/missing')).toEqual([]);
    const missing = catalog.reports.find((r) => r.id === 'sitemap/missing')!;
    expect(await crawled.engine.noticeOf(missing, crawled.target)).toBe(NO_SITEMAP_NOTICE);
  });
}
