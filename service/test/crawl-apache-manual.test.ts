/**
 * Our crawler against a real website nobody here wrote, so its markup holds what we did not think to plant, with
 * oracles that share none of our code. Debian's Apache manual (apache2-doc) is served
 * by nginx on 127.0.0.1, crawled with the CLI's defaults, loaded with the real loader, and its reports run through
 * the real engine are compared with independent oracles run on the same server in the same test: linkchecker and
 * `wget --spider` (broken URLs and the pages linking to them, statuses, redirects), xmllint's HTML parser over the
 * files behind the pages (titles, h1 counts, meta refreshes) and the bytes nginx sends (byte-identical groups).
 * The accuracy checks shared with crawl-rust-doc.test.ts (helpers/real-site-accuracy.ts) run on it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../../catalog/api.ts';
import { dataSourceIds, requiredSourcesOf } from '../../catalog/data-sources.ts';
import { catalog } from '../../catalog/index.ts';
import {
  headline,
  healthScoreHint,
  healthScoreOf,
  SEVERITY_WEIGHTS,
} from '../../web/src/features/overview/overview-model.ts';
import { overviewMetrics } from '../../web/src/lib/overview-metrics.ts';
import { openSignedInApp, post } from './auth-fixture.ts';
import { parseCrawlCommand } from '../crawl/crawl-command.ts';
import { crawlAndLoad, type CrawledSite } from './helpers/crawl-and-load.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import {
  byteIdenticalGroups,
  fileOfUrl,
  runLinkchecker,
  runWgetSpider,
  xmllintPages,
  type LinkcheckerRun,
  type WgetRun,
  type XmllintPage,
} from '../../scripts/support/real-site-oracles.ts';
import { crawledHtmlPages, describeAccuracyChecks, exportedUrls } from './helpers/real-site-accuracy.ts';
import { APACHE_MANUAL_ROOT, startNginx, type RunningSite } from '../../scripts/support/real-site.ts';

const WEBSITE = 'apache-manual';

let site: RunningSite;
let crawled: CrawledSite;
let linkchecker: LinkcheckerRun;
let wget: WgetRun;
/** The pages wget fetched with 200 text/html, with the file nginx sent for each and xmllint's view of it. */
let pages: Map<string, { file: string; xmllint: XmllintPage }>;
/** The crawl's 200 HTML pages and their files. */
let crawledPages: Map<string, string>;

const reportRows = (reportId: string): Promise<Record<string, unknown>[]> => crawled.reportRows(reportId);

const column = (rows: readonly Record<string, unknown>[], name: string): string[] =>
  rows.map((r) => String(r[name])).sort();

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

describe('crawling the Apache manual (apache2-doc) served by nginx on 127.0.0.1', () => {
  beforeAll(async () => {
    ensureDebianPackages([
      debianPackages.nginx,
      debianPackages.apacheManual,
      debianPackages.linkchecker,
      debianPackages.wget,
      debianPackages.xmllint,
    ]);
    site = await startNginx({ root: APACHE_MANUAL_ROOT });
    // The oracles run beside the crawl; linkchecker's answer is cached per package versions (it checks ~30 URLs/s).
    const oracles = Promise.all([runLinkchecker(site.url, { sitePackage: 'apache2-doc' }), runWgetSpider(site.url)]);
    const { options } = parseCrawlCommand([
      ...[site.url, '--out', 'unused', '--website', WEBSITE, '--crawl', '1'],
      // Traffic stays on 127.0.0.1: the manual's links to apache.org and elsewhere are not checked.
      '--skip-external',
    ]);
    crawled = await crawlAndLoad(options);
    [linkchecker, wget] = await oracles;

    const html = [...wget.pages].filter(([, p]) => p.status === 200 && p.contentType?.startsWith('text/html'));
    const files = new Map(html.map(([url]) => [url, fileOfUrl(site.root, site.url, url)]));
    const parsed = await xmllintPages([...new Set(files.values())]);
    pages = new Map([...files].map(([url, file]) => [url, { file, xmllint: parsed.get(file)! }]));
    crawledPages = await crawledHtmlPages(crawled, site);
  }, 600_000);

  afterAll(async () => {
    crawled?.dispose();
    await site?.stop();
  });

  it('the two oracles agree with each other: the same broken URLs (fragments dropped)', () => {
    expect(linkchecker.broken.length).toBeGreaterThan(100);
    expect(sorted(linkchecker.broken.map((b) => b.url.replace(/#.*/, '')))).toEqual(sorted(wget.broken));
  });

  it('requests every URL wget requests (pages, images, stylesheets, scripts), with the same status', async () => {
    const rows = await exportedUrls(crawled, ['url', 'http_status_code']);
    const status = new Map(rows.map((r) => [String(r.url), Number(r.http_status_code)]));
    const differing = [...wget.pages]
      .filter(([url, p]) => status.get(url) !== p.status)
      .map(([url, p]) => `${url}: wget ${p.status}, crawler ${status.get(url) ?? 'not crawled'}`);
    expect(differing).toEqual([]);
    expect(crawled.crawl.stoppedEarly).toBe(false);
  });

  it("status-code/4xx equals linkchecker's broken-URL set exactly", async () => {
    const rows = await reportRows('status-code/4xx');
    expect(column(rows, 'url')).toEqual(sorted(linkchecker.broken.map((b) => b.url.replace(/#.*/, ''))));
  });

  it('links/internal-broken holds every (page, target) pair linkchecker reports, and only broken targets', async () => {
    const rows = await reportRows('links/internal-broken');
    const pairs = new Set(rows.map((r) => `${String(r.url_from)} → ${String(r.url_to)}`));
    const missing = linkchecker.broken
      .map((b) => `${b.parent} → ${b.url.replace(/#.*/, '')}`)
      .filter((pair) => !pairs.has(pair));
    expect(missing).toEqual([]);
    expect(sorted(column(rows, 'url_to'))).toEqual(sorted(wget.broken));
  });

  it('content/duplicate equals the groups of byte-identical pages nginx sends', async () => {
    const rows = await reportRows('content/duplicate');
    const groups = new Map<string, string[]>();
    for (const row of rows) {
      const primary = String(row.duplicate_body_primary_url);
      groups.set(primary, [...(groups.get(primary) ?? [primary]), String(row.url)]);
    }
    const crawler = [...groups.values()].map((g) => g.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
    const oracle = byteIdenticalGroups(new Map([...pages].map(([url, p]) => [url, p.file])));
    expect(oracle.length).toBeGreaterThan(100);
    expect(crawler).toEqual(oracle);
  });

  it('meta/duplicate-titles equals the pages whose xmllint title another page shares', async () => {
    const byTitle = new Map<string, string[]>();
    for (const [url, p] of pages)
      if (p.xmllint.title.trim() !== '') byTitle.set(p.xmllint.title, [...(byTitle.get(p.xmllint.title) ?? []), url]);
    const oracle = sorted([...byTitle.values()].filter((urls) => urls.length > 1).flat());
    expect(oracle.length).toBeGreaterThan(100);
    expect(column(await reportRows('meta/duplicate-titles'), 'url')).toEqual(oracle);
  });

  it("content/missing-h1 and content/multiple-h1 equal xmllint's h1 counts, and every page's h1_count matches", async () => {
    const isPage = (p: XmllintPage): boolean => p.metaRefreshCount === 0;
    const urlsWhere = (keep: (p: XmllintPage) => boolean): string[] =>
      sorted([...pages].filter(([, p]) => isPage(p.xmllint) && keep(p.xmllint)).map(([url]) => url));
    expect(column(await reportRows('content/missing-h1'), 'url')).toEqual(urlsWhere((p) => p.h1Count === 0));
    expect(column(await reportRows('content/multiple-h1'), 'url')).toEqual(urlsWhere((p) => p.h1Count > 1));

    const counts = new Map(
      (await exportedUrls(crawled, ['url', 'h1_count'])).map((r) => [String(r.url), Number(r.h1_count)]),
    );
    const differing = [...pages]
      .filter(([url, p]) => isPage(p.xmllint) && counts.get(url) !== p.xmllint.h1Count)
      .map(([url, p]) => `${url}: xmllint ${p.xmllint.h1Count}, crawler ${counts.get(url)}`);
    expect(differing).toEqual([]);
  });

  it('redirects/js-meta holds the meta-refresh pages and redirects/all those and the 301s', async () => {
    const metaRefresh = sorted([...pages].filter(([, p]) => p.xmllint.metaRefreshCount > 0).map(([url]) => url));
    const moved = sorted([...wget.pages].filter(([, p]) => p.status === 301).map(([url]) => url));
    expect(metaRefresh).toEqual([site.url]);
    expect(moved.length).toBeGreaterThan(0);
    expect(column(await reportRows('redirects/js-meta'), 'url')).toEqual(metaRefresh);
    expect(column(await reportRows('redirects/all'), 'url')).toEqual(sorted([...metaRefresh, ...moved]));
  });

  it('has a health score of crawl-fed reports only: the sources it lacks are not connected, not all-flagging', async () => {
    const signedIn = await openSignedInApp(crawled.dataDir, new Date().toISOString(), ['admin']);
    try {
      const res = await post(
        signedIn.app,
        '/api/technical-health-check/overview/get-overview',
        signedIn.sessions.admin,
        {
          websiteId: WEBSITE,
          currentId: 1,
        },
      );
      expect(res.statusCode).toBe(200);
      const overview = res.json<Overview>();
      expect(overview.notConnected).toEqual([...dataSourceIds]);
      // The score's tooltip says so.
      expect(healthScoreHint(overview.notConnected ?? [])).toContain(
        'Sources included: the crawl. Not connected, so left out: Search Console, Analytics, Google Ads, Microsoft Advertising.',
      );
      const metrics = overviewMetrics(overview);
      const needsSource = (reportId: string): boolean =>
        requiredSourcesOf(catalog.reports.find((r) => r.id === reportId)!.category).length > 0;
      // Every report of a source is not connected, counting nothing; left to count, analytics/missing and
      // search-console/missing would flag every indexable page (about 2,650), as they did before issue 26.
      const sourceFed = [...metrics.values()].filter((m) => needsSource(m.reportId));
      expect(sourceFed.length).toBeGreaterThan(0);
      for (const m of sourceFed)
        expect([m.reportId, m.notConnected, m.rows, m.rank]).toEqual([m.reportId, expect.any(String), 0, 0]);
      expect((await reportRows('analytics/missing')).length).toBeGreaterThan(2000);
      // The manual has no sitemap: sitemap/missing is empty rather than every page (the notice says why).
      expect(metrics.get('sitemap/missing')?.rows).toBe(0);

      const weighted = [...metrics.values()]
        .filter((m) => !needsSource(m.reportId))
        .reduce((sum, m) => (m.severity === 'NONE' ? sum : sum + SEVERITY_WEIGHTS[m.severity] * m.rows), 0);
      const score = headline(catalog.reports, metrics, undefined).healthScore;
      expect(score).toBe(Math.round(healthScoreOf(weighted, metrics.get('crawl/all')!.rows) * 10) / 10);
    } finally {
      await signedIn.close();
    }
  }, 120_000);

  // The manual has no meta descriptions and no canonicals: those checks hold trivially here and bite on rust-doc.
  describeAccuracyChecks(() => ({ crawled, site, pages: crawledPages }), {
    emptyDescriptions: 0,
    metaCanonicals: 0,
    byteIdenticalCopies: 1000,
    nonIndexablePages: 1,
  });
});
