/**
 * A tiny website with three crawls for engine and route tests: each interesting report has a row that fires and a
 * near miss that does not, and the crawls differ so that Added and Removed have rows.
 */
import type { CrawlFixture, FixtureRow, FixtureTables } from './make-store.ts';

export const SITE = 'shop';
const u = (p: string): string => `https://shop.example${p}`;

const page = (p: string, extra: FixtureRow = {}): FixtureRow => ({
  url: u(p),
  http_status_code: 200,
  indexable: true,
  internal: true,
  found_in_web_crawl: true,
  found_in_sitemap: true,
  page_title: `Title of ${p} with enough characters`,
  page_title_length: 30,
  description: 'A description that is long enough to pass the minimum length check of seventy characters.',
  description_length: 90,
  h1_count: 1,
  content_size: 5000,
  word_count: 800,
  html_size: 20000,
  level: 1,
  deeprank: 5,
  links_in_count: 3,
  is_self_canonical: true,
  has_structured_data: true,
  hreflang_links_out_count: 1,
  ...extra,
});

const hop = (from: string, to: string, status: number): FixtureRow => ({
  url: u(from),
  status_code: status,
  redirects_to: u(to),
  is_js_redirect: false,
  is_meta_redirect: false,
});

const baseUrls = (): FixtureRow[] => [
  page('/', { level: 0, deeprank: 9, links_in_count: 50 }),
  page('/a', { http_status_code: 404, indexable: false }),
  // content/empty fires below 512 bytes; 512 is the near miss (and thin).
  page('/b', { content_size: 100 }),
  page('/b-near', { content_size: 512 }),
  page('/c', { content_size: 1000, deeprank: 5 }),
  page('/d', { content_size: 2000, deeprank: 5 }),
  page('/d2', { content_size: 2500, deeprank: 5 }),
  page('/redirect', {
    http_status_code: 301,
    indexable: false,
    is_redirect: true,
    redirect_count: 2,
    redirect_chain: [hop('/redirect', '/redirect-2', 301), hop('/redirect-2', '/', 200)],
    redirected_to_url: u('/'),
    redirected_to_status_code: 200,
  }),
  page('/dup1', { duplicate_body: true, duplicate_body_count: 3, duplicate_body_primary_url: u('/dup1') }),
  page('/dup2', { duplicate_body: true, duplicate_body_count: 3, duplicate_body_primary_url: u('/dup1') }),
  page('/dup3', { duplicate_body: true, duplicate_body_count: 3, duplicate_body_primary_url: u('/dup1') }),
  page('/orphan', { found_in_web_crawl: false }),
  { url: 'https://other.example/x', http_status_code: 200, indexable: true, internal: false, found_in_web_crawl: true },
];

const baseLinks = (): FixtureRow[] => [
  {
    url_from: u('/'),
    url_to: u('/a'),
    internal: true,
    url_to_status_code: 404,
    anchor_text: 'A',
    url_from_deeprank: 9,
  },
  {
    url_from: u('/c'),
    url_to: u('/a'),
    internal: true,
    url_to_status_code: 404,
    anchor_text: 'A',
    url_from_deeprank: 5,
  },
  {
    url_from: u('/d'),
    url_to: u('/a'),
    internal: true,
    url_to_status_code: 404,
    anchor_text: 'A',
    url_from_deeprank: 5,
  },
  // 403 is excluded from the broken-link rule.
  { url_from: u('/'), url_to: u('/private'), internal: true, url_to_status_code: 403, anchor_text: 'P' },
  { url_from: u('/'), url_to: u('/c'), internal: true, url_to_status_code: 200, anchor_text: 'C' },
  { url_from: u('/d'), url_to: 'http://shop.example/c', internal: true, url_to_status_code: 301, anchor_text: 'C' },
  { url_from: u('/b'), url_to: 'http://shop.example/c', internal: true, url_to_status_code: 301, anchor_text: 'C' },
  {
    url_from: u('/'),
    url_to: 'https://other.example/dead',
    internal: false,
    url_to_status_code: 404,
    anchor_text: 'D',
  },
];

const baseUniqueLinks = (): FixtureRow[] => [
  {
    url_to: 'http://shop.example/c',
    anchor_text: 'C',
    primary_url_from: u('/b'),
    internal: true,
    url_from_https: true,
    url_to_https: false,
    instance_count: 2,
  },
  {
    url_to: u('/c'),
    anchor_text: 'C',
    primary_url_from: u('/'),
    internal: true,
    url_from_https: true,
    url_to_https: true,
    instance_count: 1,
  },
];

const searchConsole = (): FixtureRow[] => [
  { date: '2025-01-05', url: u('/'), clicks: 10, impressions: 100, position: 2 },
  { date: '2025-01-06', url: u('/'), clicks: 5, impressions: 100, position: 4 },
  { date: '2025-01-05', url: u('/c'), clicks: 1, impressions: 10, position: 8 },
  // Outside the default range: only a custom range sees it.
  { date: '2024-12-20', url: u('/d'), clicks: 7, impressions: 70, position: 3 },
];

const analytics = (): FixtureRow[] => [
  { date: '2025-01-05', url: u('/'), channel: 'organic', sessions: 30, users: 20, conversions: 2, revenue: 99.5 },
  { date: '2025-01-05', url: u('/'), channel: 'paid', sessions: 10, users: 8, conversions: 1, revenue: 10 },
  { date: '2025-01-07', url: u('/d'), channel: 'paid', sessions: 4, users: 4, conversions: 0, revenue: 0 },
];

function tables(change: (t: { urls: FixtureRow[]; links: FixtureRow[] }) => void = () => {}): FixtureTables {
  const t = { urls: baseUrls(), links: baseLinks() };
  change(t);
  return {
    ...t,
    unique_links: baseUniqueLinks(),
    sitemaps: [
      { url: u('/sitemap.xml'), sitemap_type: 'urlset', http_status_code: 200, url_count: 10 },
      { url: u('/sitemap-2.xml'), sitemap_type: 'urlset', http_status_code: 404 },
    ],
    uncrawled_urls: [
      { url: u('/admin'), restricted_reason: 'robots_disallowed', found_at_url: u('/') },
      { url: u('/far'), restricted_reason: 'crawl_limit', found_at_url: u('/d') },
    ],
    search_console: searchConsole(),
    analytics: analytics(),
  };
}

/** Crawl 1 has a 4xx page that crawl 2 fixed (/old); crawl 2 adds a 5xx page (/e); crawl 3 adds /f. */
export function sampleCrawls(): CrawlFixture[] {
  return [
    {
      websiteId: SITE,
      crawlId: 1,
      tables: tables((t) => {
        t.urls.push(page('/old', { http_status_code: 410, indexable: false }));
      }),
    },
    {
      websiteId: SITE,
      crawlId: 2,
      tables: tables((t) => {
        t.urls.push(page('/e', { http_status_code: 500, indexable: false, fetch_time: 2 }));
      }),
    },
    {
      websiteId: SITE,
      crawlId: 3,
      moduleState: 'PENDING',
      tables: tables((t) => {
        t.urls.push(page('/e', { http_status_code: 500, indexable: false, fetch_time: 2 }));
        t.urls.push(page('/f', { http_status_code: 503, indexable: false }));
      }),
    },
  ];
}
