/**
 * ARCHITECTURE habit 9: for every catalogue report, a row that fires and a near miss that does not.
 * Each near miss sits just across the decisive boundary of its report's filter (a threshold, an excluded status, a
 * COALESCE default, a date-range edge), so a wrong comparison operator or a dropped clause fails here.
 *
 * One crawl holds every row; URLs are prefixed by the report id, and each report is asked for its own URLs through
 * the 'URLs containing' filter. A row may fire other reports too: only membership is asserted, never counts.
 * Rows are read from the precomputed row tables and from the live relation, which must agree.
 */
import { describe, expect, it } from 'vitest';
import { catalog, reports } from '../../catalog/index.ts';
import { PAGE_CONTENT_COLUMNS, type ReportDefinition } from '../../catalog/schema.ts';
import { parseFilter } from '../catalog/filter.ts';
import { validateCatalog } from '../catalog/validate.ts';
import type { FixtureRow } from './helpers/make-store.ts';
import {
  DATA_END,
  DATA_START,
  ELSEWHERE,
  FIRES,
  HOME,
  NEAR,
  describeFiresAndNearMisses,
  withFileTwins,
  type Case,
  type Side,
} from './helpers/fires-and-near-misses.ts';

const DAY_BEFORE_START = '2024-12-31';
const DAY_AFTER_END = '2025-01-29';

const sc = (date: string, extra: FixtureRow = {}): FixtureRow => ({
  date,
  clicks: 1,
  impressions: 10,
  position: 3,
  ...extra,
});
const ga = (date: string, sessions: number): FixtureRow => ({
  date,
  channel: 'organic',
  sessions,
  users: sessions,
  conversions: 0,
  revenue: 0,
});
/** A row of a GA4 report without sessions (Pages and screens): views and users only. */
const gaViews = (date: string, views: number): FixtureRow => ({
  date,
  channel: '(all)',
  page_views: views,
  users: views,
});
const hop = (status: number, js: boolean | null, meta: boolean | null): FixtureRow => ({
  url: FIRES,
  status_code: status,
  redirects_to: `${HOME}/target`,
  is_js_redirect: js,
  is_meta_redirect: meta,
});

/** An ads platform's landing page row of a day: clicks and what they cost. */
const ad = (date: string, costs: number): FixtureRow => ({ date, clicks: 3, costs, impressions: 40 });

/** A 404 page with the given columns: the `http_status_code = 200` guard's near miss. */
const notFound = (row: FixtureRow): Side => ({ row: { http_status_code: 404, indexable: false, ...row } });

/** The near miss of every report, next to its row that fires, keyed by report id. */
const cases: Readonly<Record<string, Case>> = {
  // links: url_to carries the case URL
  'links/external-broken': {
    fires: { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 400 } },
    nearMiss: { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 429 } },
    moreFires: [{ origin: ELSEWHERE, row: { internal: false, url_to_status_code: 599 } }],
    moreNearMisses: [
      { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 403 } },
      { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 399 } },
      { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 600 } },
    ],
  },
  'links/external-redirects': {
    fires: { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 300 } },
    nearMiss: { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 400, is_redirect: false } },
    moreFires: [
      { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 399 } },
      { origin: ELSEWHERE, row: { internal: false, url_to_status_code: 200, is_redirect: true } },
    ],
    moreNearMisses: [{ origin: ELSEWHERE, row: { internal: false, url_to_status_code: 299, is_redirect: false } }],
  },
  'links/internal-broken': {
    fires: { row: { url_to_status_code: 599 } },
    nearMiss: { row: { url_to_status_code: 403 } },
    moreFires: [{ row: { url_to_status_code: 400 } }],
    moreNearMisses: [
      { row: { url_to_status_code: 429 } },
      { row: { url_to_status_code: 399 } },
      { row: { url_to_status_code: 600 } },
    ],
  },
  'links/internal-http': {
    fires: { scheme: 'http', row: { url_from_https: true, url_to_https: false } },
    nearMiss: { scheme: 'http', row: { url_from_https: false, url_to_https: false } },
    moreNearMisses: [{ scheme: 'http', row: { url_from_https: true, url_to_https: true } }],
  },
  'links/internal-disallowed': {
    fires: { row: { restricted_reason: 'robots_disallowed' } },
    nearMiss: { row: { restricted_reason: 'meta_nofollow' } },
  },

  // sitemap
  'sitemap/sitemaps': {
    fires: { row: { sitemap_type: 'urlset', http_status_code: 404 } },
    // Filter TRUE: the only miss is a URL that is not a sitemap file.
    nearMiss: { table: 'urls', row: {} },
  },
  'sitemap/all': {
    fires: { row: { found_in_sitemap: true, found_in_web_crawl: false } },
    nearMiss: { row: { found_in_sitemap: false } },
  },
  'sitemap/missing': {
    fires: { row: { found_in_sitemap: false, primary_page: null } },
    // A secondary duplicate need not be listed.
    nearMiss: { row: { found_in_sitemap: false, primary_page: false } },
    moreNearMisses: [
      { row: { found_in_sitemap: false, found_in_web_crawl: false } },
      { row: { found_in_sitemap: false, indexable: false } },
      { row: { found_in_sitemap: true } },
      // The crawl found no sitemap at all: that is said once, not page by page.
      { row: { found_in_sitemap: null } },
    ],
  },
  'sitemap/orphaned': {
    fires: { row: { found_in_sitemap: true, found_in_web_crawl: false } },
    nearMiss: { row: { found_in_sitemap: true, found_in_web_crawl: true } },
    moreNearMisses: [{ row: { found_in_sitemap: false, found_in_web_crawl: false } }],
    moreFires: [{ row: { found_in_sitemap: true, found_in_web_crawl: null } }],
  },

  // analytics: ga_exists is "some sessions in the range", not "some analytics row"; rows that know no sessions (a
  // report without them) count their views or users instead
  'analytics/all': {
    fires: { analytics: [ga(DATA_END, 1)] },
    nearMiss: { analytics: [ga(DATA_START, 0)] },
    moreFires: [{ analytics: [ga(DATA_START, 1)] }, { analytics: [gaViews(DATA_END, 4)] }],
    moreNearMisses: [{ analytics: [ga(DAY_AFTER_END, 5)] }, { analytics: [gaViews(DATA_END, 0)] }],
  },
  'analytics/missing': {
    fires: { analytics: [ga(DAY_AFTER_END, 5)] },
    nearMiss: { analytics: [ga(DATA_START, 1)] },
    moreNearMisses: [
      { row: { found_in_web_crawl: false, found_in_sitemap: true } },
      { row: { indexable: false } },
      { analytics: [gaViews(DATA_START, 4)] },
    ],
    moreFires: [{ analytics: [gaViews(DATA_START, 0)] }],
  },
  'analytics/orphaned': {
    fires: { row: { found_in_web_crawl: false, found_in_sitemap: true }, analytics: [ga(DATA_START, 3)] },
    nearMiss: { row: { found_in_web_crawl: true }, analytics: [ga(DATA_START, 3)] },
    moreNearMisses: [{ row: { found_in_web_crawl: false, found_in_sitemap: true } }],
    moreFires: [{ row: { found_in_web_crawl: null, found_in_sitemap: true }, analytics: [ga(DATA_START, 3)] }],
  },

  // canonical
  'canonical/conflicting': {
    fires: { row: { canonical_html_url: `${HOME}/a`, canonical_header_url: `${HOME}/b`, canonical_url: null } },
    nearMiss: {
      row: { canonical_html_url: `${HOME}/a`, canonical_header_url: `${HOME}/a`, canonical_url: `${HOME}/a` },
    },
    moreFires: [
      // Several HTML tags that disagree: no resolved canonical.
      { row: { canonical_html_url: `${HOME}/a`, canonical_url: null } },
      { row: { canonical_html_url: `${HOME}/a`, canonical_header_url: `${HOME}/b`, canonical_url: `${HOME}/a` } },
    ],
    moreNearMisses: [{ row: { canonical_header_url: `${HOME}/b`, canonical_url: `${HOME}/b` } }],
  },
  'canonical/orphaned': {
    fires: { row: { canonical_links_in_count: 1, links_in_count: null, found_in_web_crawl: false } },
    nearMiss: { row: { canonical_links_in_count: 1, links_in_count: 1 } },
    moreNearMisses: [{ row: { canonical_links_in_count: 0, links_in_count: null } }],
  },
  'canonical/multiple-links-in': {
    fires: { row: { canonical_links_in_count: 6 } },
    nearMiss: { row: { canonical_links_in_count: 5 } },
  },
  'canonical/non-indexable-with-links-in': {
    fires: { row: { canonical_links_in_count: 1, indexable: false, meta_noindex: true } },
    nearMiss: { row: { canonical_links_in_count: 0, indexable: false, meta_noindex: true } },
    moreNearMisses: [{ row: { canonical_links_in_count: 1, indexable: true } }],
    moreFires: [
      { row: { canonical_links_in_count: 1, indexable: null } },
      // An error page has no content of its own, so no HTML size: still a page for the html reports.
      { row: { http_status_code: 404, canonical_links_in_count: 1, indexable: false, html_size: null } },
    ],
  },
  'canonical/non-self-referencing': {
    fires: { row: { indexable: false, canonical_url: `${HOME}/other`, is_self_canonical: false } },
    nearMiss: { row: { canonical_url: NEAR, is_self_canonical: true } },
    moreNearMisses: [
      { row: { http_status_code: 301, indexable: false, canonical_url: `${HOME}/other`, is_self_canonical: false } },
      { row: { canonical_url: null, is_self_canonical: false } },
    ],
    moreFires: [{ row: { indexable: false, canonical_url: `${HOME}/other`, is_self_canonical: null } }],
  },

  // content
  'content/duplicate': {
    // One set: the near miss is its primary page, left out.
    fires: { row: { duplicate_body: true, duplicate_body_count: 2, duplicate_body_primary_url: NEAR } },
    nearMiss: { row: { duplicate_body: true, duplicate_body_count: 2, duplicate_body_primary_url: NEAR } },
    moreNearMisses: [
      { row: { duplicate_body: null, duplicate_body_primary_url: null } },
      {
        row: {
          indexable: false,
          duplicate_body: true,
          duplicate_body_count: 2,
          duplicate_body_primary_url: `${HOME}/x`,
        },
      },
    ],
  },
  'content/empty': {
    fires: { row: { content_size: 511 } },
    nearMiss: { row: { content_size: 512 } },
    moreNearMisses: [{ row: { indexable: false, content_size: 100 } }],
  },
  'content/missing-h1': {
    fires: { row: { h1_count: null } },
    nearMiss: { row: { h1_count: 1 } },
    moreNearMisses: [{ row: { indexable: false, h1_count: 0 } }],
  },
  'content/multiple-h1': {
    fires: { row: { h1_count: 2 } },
    nearMiss: { row: { h1_count: 1 } },
    moreNearMisses: [{ row: { indexable: false, h1_count: 2 } }],
  },
  'content/thin': {
    fires: { row: { content_size: 512 } },
    nearMiss: { row: { content_size: 3072 } },
    moreFires: [{ row: { content_size: 3071 } }],
    moreNearMisses: [{ row: { content_size: 511 } }, { row: { indexable: false, content_size: 1000 } }],
  },

  // crawl: filter TRUE over internal and external URLs
  'crawl/all': {
    fires: { origin: ELSEWHERE, row: { internal: false } },
    // Found but never fetched: not a crawled URL.
    nearMiss: { table: 'uncrawled_urls', row: { restricted_reason: 'crawl_limit' } },
  },

  // hreflang
  'hreflang/missing': {
    fires: { row: { hreflang_links_out_count: null } },
    nearMiss: { row: { hreflang_links_out_count: 1 } },
    moreNearMisses: [{ row: { indexable: false, hreflang_links_out_count: 0 } }],
  },
  'hreflang/non-indexable-links-in': {
    fires: { row: { hreflang_links_in_count: 1, indexable: null } },
    nearMiss: { row: { hreflang_links_in_count: 1, indexable: true } },
    moreNearMisses: [{ row: { hreflang_links_in_count: 0, indexable: false } }],
  },

  // internal
  'internal/all': {
    fires: { row: {} },
    nearMiss: { origin: ELSEWHERE, row: { internal: false } },
  },
  'internal/head-issues': {
    fires: { row: { head_tags_in_body_count: null, body_tags_in_head_count: 1 } },
    nearMiss: { row: { head_tags_in_body_count: 0, body_tags_in_head_count: 0 } },
    moreFires: [{ row: { head_tags_in_body_count: 1, body_tags_in_head_count: null } }],
  },
  'internal/non-indexable': {
    fires: { row: { indexable: false, meta_noindex: true } },
    nearMiss: { row: { http_status_code: 201, indexable: false } },
    // A stylesheet, script, font or PDF answering 200 is not a page (no HTML size), so not a non-indexable page.
    moreNearMisses: [{ row: { indexable: true } }, { row: { indexable: false, html_size: null } }],
    moreFires: [{ row: { indexable: null } }],
  },
  'internal/no-follow': {
    fires: { row: { meta_nofollow: null, header_nofollow: true } },
    nearMiss: { row: { meta_nofollow: false, header_nofollow: false } },
    moreFires: [{ row: { meta_nofollow: true, header_nofollow: null } }],
    moreNearMisses: [
      { row: { http_status_code: 404, indexable: false, meta_nofollow: true } },
      { row: { indexable: false, header_nofollow: true, html_size: null } },
    ],
  },

  // meta: duplicate sets keep their primary page (unlike content/duplicate)
  'meta/duplicate-descriptions': {
    fires: {
      row: { duplicate_description: true, duplicate_description_count: 2, duplicate_description_primary_url: FIRES },
    },
    nearMiss: {
      row: {
        indexable: false,
        duplicate_description: true,
        duplicate_description_count: 2,
        duplicate_description_primary_url: FIRES,
      },
    },
    moreNearMisses: [{ row: { duplicate_description: false } }],
  },
  'meta/duplicate-titles': {
    fires: { row: { duplicate_title: true, duplicate_title_count: 2, duplicate_title_primary_url: FIRES } },
    nearMiss: { row: { duplicate_title: false } },
    moreNearMisses: [
      {
        row: { indexable: false, duplicate_title: true, duplicate_title_count: 2, duplicate_title_primary_url: FIRES },
      },
    ],
  },
  'meta/max-descriptions': {
    fires: { row: { description_length: 201 } },
    nearMiss: { row: { description_length: 200 } },
    moreNearMisses: [{ row: { indexable: false, description_length: 201 } }],
  },
  'meta/max-titles': {
    fires: { row: { page_title_length: 66 } },
    nearMiss: { row: { page_title_length: 65 } },
    moreNearMisses: [{ row: { indexable: false, page_title_length: 66 } }],
  },
  'meta/short-descriptions': {
    fires: { row: { description_length: 69 } },
    nearMiss: { row: { description_length: 70 } },
    moreFires: [{ row: { description_length: null } }],
    moreNearMisses: [{ row: { indexable: false, description_length: 69 } }],
  },
  'meta/short-titles': {
    fires: { row: { page_title_length: 19 } },
    nearMiss: { row: { page_title_length: 20 } },
    moreFires: [{ row: { page_title_length: null } }],
    moreNearMisses: [{ row: { indexable: false, page_title_length: 19 } }],
  },

  // performance: strictly above the upper threshold
  'performance/poor-fetch': {
    fires: { row: { fetch_time: 3.01 } },
    nearMiss: { row: { fetch_time: 3 } },
    moreNearMisses: [notFound({ fetch_time: 3.01 })],
  },
  'performance/poor-cls': {
    fires: { row: { performance_cls: 0.26 } },
    nearMiss: { row: { performance_cls: 0.25 } },
    moreNearMisses: [notFound({ performance_cls: 0.26 })],
  },
  'performance/poor-dcl': {
    fires: { row: { performance_dcl: 3.51 } },
    nearMiss: { row: { performance_dcl: 3.5 } },
    moreNearMisses: [notFound({ performance_dcl: 3.51 })],
  },
  'performance/slow-fcp': {
    fires: { row: { performance_fcp: 3.01 } },
    nearMiss: { row: { performance_fcp: 3 } },
    moreNearMisses: [notFound({ performance_fcp: 3.01 })],
  },
  'performance/slow-lcp': {
    fires: { row: { performance_lcp: 4.01 } },
    nearMiss: { row: { performance_lcp: 4 } },
    moreNearMisses: [notFound({ performance_lcp: 4.01 })],
  },
  'performance/slow-ttfb': {
    fires: { row: { performance_ttfb: 1801 } },
    nearMiss: { row: { performance_ttfb: 1800 } },
    moreNearMisses: [notFound({ performance_ttfb: 1801 })],
  },
  'performance/slow-tti': {
    fires: { row: { performance_tti: 7.31 } },
    nearMiss: { row: { performance_tti: 7.3 } },
    moreNearMisses: [notFound({ performance_tti: 7.31 })],
  },

  // redirects
  'redirects/all': {
    fires: { row: { http_status_code: 300, indexable: false, is_redirect: null } },
    nearMiss: { row: { http_status_code: 400, indexable: false, is_redirect: false } },
    moreFires: [{ row: { is_redirect: true } }, { row: { http_status_code: 399, indexable: false } }],
    moreNearMisses: [{ row: { http_status_code: 299, indexable: false, is_redirect: false } }],
  },
  'redirects/broken': {
    fires: {
      row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 404 },
    },
    nearMiss: {
      row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 429 },
    },
    moreFires: [
      { row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 400 } },
      { row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 599 } },
    ],
    // A chain cut at the hop limit ends on a redirect status.
    moreNearMisses: [
      { row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 399 } },
      { row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 600 } },
      { row: { http_status_code: 301, indexable: false, is_redirect: true, redirected_to_status_code: 403 } },
    ],
  },
  'redirects/chain': {
    fires: {
      row: {
        http_status_code: 301,
        indexable: false,
        is_redirect: true,
        redirect_count: 2,
        redirect_chain: [hop(301, false, false), hop(301, false, false)],
      },
    },
    nearMiss: { row: { http_status_code: 301, indexable: false, is_redirect: true, redirect_count: 1 } },
    moreNearMisses: [
      {
        row: { http_status_code: 301, indexable: false, is_redirect: true, redirect_count: 3, is_redirect_loop: true },
      },
    ],
  },
  'redirects/loop': {
    fires: { row: { http_status_code: 301, indexable: false, is_redirect: true, is_redirect_loop: true } },
    nearMiss: {
      row: { http_status_code: 301, indexable: false, is_redirect: true, redirect_count: 4, is_redirect_loop: false },
    },
  },
  'redirects/js-meta': {
    fires: { row: { is_redirect: true, redirect_chain: [hop(301, false, false), hop(200, null, true)] } },
    nearMiss: { row: { is_redirect: true, redirect_chain: [hop(301, false, false), hop(302, null, false)] } },
    moreFires: [{ row: { is_redirect: true, redirect_chain: [hop(200, true, null)] } }],
  },
  'redirects/temporary': {
    fires: { row: { http_status_code: 307, indexable: false, is_redirect: true } },
    nearMiss: { row: { http_status_code: 308, indexable: false, is_redirect: true } },
    moreFires: [{ row: { http_status_code: 302, indexable: false, is_redirect: true } }],
  },

  // schema
  'schema/missing': {
    fires: { row: { has_structured_data: null } },
    nearMiss: { row: { has_structured_data: true } },
    moreNearMisses: [{ row: { indexable: false, has_structured_data: null } }, notFound({ has_structured_data: null })],
  },

  // search console: gsc_exists is "some row in the range"
  'search-console/all': {
    fires: { searchConsole: [sc(DATA_START)] },
    nearMiss: { searchConsole: [sc(DAY_BEFORE_START)] },
    moreFires: [{ searchConsole: [sc(DATA_END)] }],
    moreNearMisses: [{ searchConsole: [sc(DAY_AFTER_END)] }],
  },
  'search-console/missing': {
    fires: { searchConsole: [sc(DAY_AFTER_END)] },
    nearMiss: { searchConsole: [sc(DATA_END, { clicks: 0, impressions: 1 })] },
    moreNearMisses: [{ row: { found_in_web_crawl: false, found_in_sitemap: true } }, { row: { indexable: false } }],
  },
  'search-console/orphaned': {
    fires: { row: { found_in_web_crawl: false, found_in_sitemap: true }, searchConsole: [sc(DATA_END)] },
    nearMiss: { row: { found_in_web_crawl: true }, searchConsole: [sc(DATA_END)] },
    moreNearMisses: [{ row: { found_in_web_crawl: false, found_in_sitemap: true } }],
    moreFires: [{ row: { found_in_web_crawl: null, found_in_sitemap: true }, searchConsole: [sc(DATA_END)] }],
  },

  // status-code
  'status-code/4xx': {
    fires: { row: { http_status_code: 400, indexable: false } },
    nearMiss: { row: { http_status_code: 399, indexable: false } },
    moreFires: [{ row: { http_status_code: 499, indexable: false } }],
    moreNearMisses: [{ row: { http_status_code: 500, indexable: false } }],
  },
  'status-code/5xx': {
    fires: { row: { http_status_code: 599, indexable: false } },
    nearMiss: { row: { http_status_code: 600, indexable: false } },
    moreFires: [{ row: { http_status_code: 500, indexable: false } }],
    moreNearMisses: [{ row: { http_status_code: 499, indexable: false } }],
  },
  // ads: spend in the window, on an error, a redirect or a slow page; either ads platform
  'ads/broken-landing-pages': {
    fires: { row: { http_status_code: 404, indexable: false }, adsTwo: [ad(DATA_END, 0.01)] },
    // The spend is the day after the window: not this crawl's.
    nearMiss: { row: { http_status_code: 404, indexable: false }, adsTwo: [ad(DAY_AFTER_END, 50)] },
    moreFires: [
      { row: { http_status_code: 301, indexable: false, is_redirect: true }, adsOne: [ad(DATA_START, 2)] },
      { row: { http_status_code: 200, is_redirect: true }, adsOne: [ad(DATA_START, 2)] },
      { row: { http_status_code: 599, indexable: false }, adsTwo: [ad(DATA_START, 2)] },
      { row: { http_status_code: 300, indexable: false }, adsTwo: [ad(DATA_START, 2)] },
      { row: { fetch_time: 3.01 }, adsOne: [ad(DATA_START, 1)], adsTwo: [ad(DATA_START, 1)] },
    ],
    moreNearMisses: [
      { row: { fetch_time: 3 }, adsTwo: [ad(DATA_START, 5)] },
      { row: { http_status_code: 299, is_redirect: false }, adsTwo: [ad(DATA_START, 5)] },
      { row: { http_status_code: 600, indexable: false }, adsTwo: [ad(DATA_START, 5)] },
      { row: { http_status_code: 404, indexable: false }, adsOne: [ad(DAY_BEFORE_START, 5)] },
      { row: { http_status_code: 404, indexable: false }, adsTwo: [ad(DATA_START, 0)] },
      { row: { http_status_code: 404, indexable: false } },
    ],
  },
  'status-code/other': {
    // No response to a fetch is a timeout; no status on a URL known only to a sitemap is not.
    fires: { row: { http_status_code: null, indexable: false, found_in_web_crawl: true } },
    nearMiss: { row: { http_status_code: null, indexable: false, found_in_web_crawl: false, found_in_sitemap: true } },
    moreFires: [
      ...[199, 201, 299, 300, 399, 600].map((status) => ({
        row: { http_status_code: status, indexable: false, is_redirect: false },
      })),
      { row: { http_status_code: 304, indexable: false, is_redirect: null } },
    ],
    moreNearMisses: [
      { row: { http_status_code: 200 } },
      { row: { http_status_code: 300, indexable: false, is_redirect: true } },
      { row: { http_status_code: 400, indexable: false, is_redirect: false } },
    ],
  },

  // rendered crawl (render-reports.ts)
  'links/rendered-only': {
    fires: { row: { rendered_only: true } },
    nearMiss: { row: { rendered_only: false } },
    moreNearMisses: [{ row: { rendered_only: null } }],
  },
  'meta/changed-by-javascript': {
    fires: { row: { rendered: true, head_changed_by_javascript: ['title'] } },
    nearMiss: { row: { rendered: true, head_changed_by_javascript: [] } },
    moreFires: [{ row: { rendered: true, head_changed_by_javascript: ['canonical', 'h1'] } }],
    moreNearMisses: [{ row: { rendered: false, head_changed_by_javascript: null } }],
  },
  'content/rendered-only': {
    fires: { row: { rendered: true, raw_word_count: 50, rendered_words_added: 50 } },
    nearMiss: { row: { rendered: true, raw_word_count: 51, rendered_words_added: 50 } },
    moreFires: [{ row: { rendered: true, raw_word_count: null, rendered_words_added: 50 } }],
    moreNearMisses: [
      { row: { rendered: true, raw_word_count: 0, rendered_words_added: 49 } },
      { row: { rendered: false, raw_word_count: 0, rendered_words_added: null } },
    ],
  },
  'crawl/javascript-errors': {
    fires: { row: { js_error_count: 1 } },
    nearMiss: { row: { js_error_count: 0 } },
    moreNearMisses: [{ row: { js_error_count: null } }],
  },
  'crawl/robots-blocked-resources': {
    fires: { row: { robots_blocked_resource_count: 1 } },
    nearMiss: { row: { robots_blocked_resource_count: 0 } },
  },
  'crawl/render-timeouts': {
    fires: { row: { render_status: 'timeout' } },
    nearMiss: { row: { render_status: 'rendered' } },
    moreFires: [{ row: { render_status: 'crashed' } }, { row: { render_status: 'failed' } }],
    moreNearMisses: [{ row: { render_status: 'navigated' } }, { row: { render_status: 'skipped' } }],
  },
  'crawl/hash-routes': {
    fires: { row: { hash_route_count: 2 } },
    nearMiss: { row: { hash_route_count: 1 } },
    moreNearMisses: [{ row: { hash_route_count: 0 } }],
  },
};

describeFiresAndNearMisses('every report has a row that fires and a near miss that does not', reports, cases);

describe('the html-page rule', () => {
  it('is decided by columns no filter reads, so a file twin of a row that fires differs by the rule alone', () => {
    const readers = reports.filter((r) =>
      parseFilter(r.filter).columns.some((c) => (PAGE_CONTENT_COLUMNS as readonly string[]).includes(c)),
    );
    expect(readers.map((r) => r.id)).toEqual([]);
  });
});

describeFiresAndNearMisses(
  'a 2xx file (no HTML size, title or word count) is a near miss of every html report and fires the others',
  reports,
  Object.fromEntries(reports.map((r) => [r.id, withFileTwins(r, cases[r.id]!)])),
);

/**
 * A report only this test defines, to show what adding a report takes: its definition and its case, nothing else.
 * Its filter reads a threshold constant and a joined metric, and it shows a joined metric, so the catalogue's
 * column entries supply the metric SQL without any other file knowing the report.
 */
const testOnlyReport: ReportDefinition = {
  id: 'content/test-only-long-h1-with-clicks',
  category: 'content',
  title: 'Content: Long H1 with clicks (test only)',
  description: 'Indexable pages with search clicks whose first H1 is longer than a title may be.',
  severity: 'LOW',
  tableId: 'urls',
  contentType: 'html',
  internalType: 'internal',
  filter: 'indexable AND h1_length > {TITLE_LENGTH_MAX} AND COALESCE(gsc_clicks, 0) > 0',
  keyColumns: ['url'],
  subKeyColumns: [],
  datatableColumns: ['url', 'h1_length', 'gsc_clicks', 'ga_sessions'],
  includeTrends: true,
  includeTable: true,
};

describe('a test-only report definition', () => {
  it('passes the catalogue validation beside the real reports', () => {
    expect(() => validateCatalog({ ...catalog, reports: [...catalog.reports, testOnlyReport] })).not.toThrow();
  });
});

describeFiresAndNearMisses('a test-only report has a row that fires and a near miss that does not', [testOnlyReport], {
  [testOnlyReport.id]: {
    fires: { row: { h1_length: 66 }, searchConsole: [sc(DATA_START)] },
    nearMiss: { row: { h1_length: 65 }, searchConsole: [sc(DATA_START)] },
    moreNearMisses: [
      { row: { h1_length: 66 } },
      { row: { h1_length: 66 }, searchConsole: [sc(DATA_START, { clicks: 0 })] },
      { row: { h1_length: 66 }, searchConsole: [sc(DAY_AFTER_END)] },
    ],
  },
});
