/**
 * Every report of the spec's route list (§2), one definition each, from the catalogue guide §1. Filters are
 * DuckDB booleans over one row of the source table; `{NAME}` stands for `filterConstants.NAME`. Status-class
 * bounds (200, 300-399, 400-599...) are HTTP semantics, not thresholds, so they stay literal.
 */
import type { restrictedReasons } from './export-contract.ts';
import { renderReports } from './render-reports.ts';
import type { ReportDefinition } from './schema.ts';
import {
  CLS_MAX,
  DCL_MAX,
  DESCRIPTION_LENGTH_MAX,
  DESCRIPTION_LENGTH_MIN,
  EMPTY_CONTENT,
  EXCLUDED_BROKEN_STATUSES,
  FCP_MAX,
  FETCH_TIME_MAX,
  LCP_MAX,
  MULTIPLE_CANONICALS,
  REDIRECT_CHAIN_MIN,
  REDIRECT_MAX,
  TEMPORARY_REDIRECT_STATUSES,
  THIN_CONTENT,
  TITLE_LENGTH_MAX,
  TITLE_LENGTH_MIN,
  TTFB_MAX,
  TTI_MAX,
} from './constants.ts';

type Defaulted = 'tableId' | 'contentType' | 'internalType' | 'keyColumns' | 'subKeyColumns' | 'includeTrends';
type Draft = Omit<ReportDefinition, Defaulted | 'includeTable'> &
  Partial<Pick<ReportDefinition, Exclude<Defaulted, 'tableId'> | 'includeTable'>>;
type LinkDraft = Draft & Pick<ReportDefinition, 'internalType'>;

const defaults = (): Pick<ReportDefinition, 'subKeyColumns' | 'includeTrends' | 'includeTable'> => ({
  subKeyColumns: [],
  includeTrends: true,
  includeTable: true,
});

/**
 * One row per URL; html pages on the site's own domains unless the report says otherwise. Reports about what a page
 * says (indexability, canonicals, titles, content...) stay html; URL inventories (all URLs, sitemaps, data sources,
 * status codes, redirects) use none, as a PDF in a sitemap or a broken stylesheet belongs there.
 */
const onUrls = (d: Draft): ReportDefinition => ({
  ...defaults(),
  tableId: 'urls',
  contentType: 'html',
  internalType: 'internal',
  keyColumns: ['url'],
  ...d,
});

/** One row per linking page and target; the checklist stores url_to with url_from as its sub-key. */
const onLinks = (d: LinkDraft): ReportDefinition => ({
  ...defaults(),
  tableId: 'links',
  contentType: 'link',
  keyColumns: ['url_to', 'url_from'],
  subKeyColumns: ['url_from'],
  ...d,
});

/** One row per target and anchor text; the sub-row lists the linking pages from `links`. */
const onUniqueLinks = (d: LinkDraft): ReportDefinition => ({
  ...defaults(),
  tableId: 'unique_links',
  contentType: 'link',
  keyColumns: ['url_to', 'anchor_text'],
  subKeyColumns: ['anchor_text'],
  subRow: 'link-sources',
  ...d,
});

/** `sitemaps` has no `internal` column, hence internalType all. */
const onSitemaps = (d: Draft): ReportDefinition => ({
  ...defaults(),
  tableId: 'sitemaps',
  contentType: 'none',
  internalType: 'all',
  keyColumns: ['url'],
  ...d,
});

/** `uncrawled_urls` has no `internal` column, hence internalType all. */
const onUncrawledUrls = (d: Draft): ReportDefinition => ({
  ...defaults(),
  tableId: 'uncrawled_urls',
  contentType: 'none',
  internalType: 'all',
  keyColumns: ['url'],
  ...d,
});

const ROBOTS_DISALLOWED: (typeof restrictedReasons)[number] = 'robots_disallowed';
const excludedBroken = EXCLUDED_BROKEN_STATUSES.join(' and ');

/** Columns shared by the performance reports, with the report's metric after the title. */
const performanceColumns = (metric: string): string[] => [
  ...new Set(['url', 'page_title', metric, 'fetch_time', 'content_size', 'html_size', 'level', 'deeprank']),
];

export const reports: readonly ReportDefinition[] = [
  // links
  onLinks({
    id: 'links/external-broken',
    category: 'links',
    title: 'External broken links',
    description: `Outbound links whose target answers with a client or server error (4xx or 5xx, except ${excludedBroken}). Visitors who follow them reach a dead end, so fix or remove the link.`,
    severity: 'LOW',
    internalType: 'external',
    filter:
      'NOT internal AND url_to_status_code BETWEEN 400 AND 599 AND url_to_status_code NOT IN ({EXCLUDED_BROKEN_STATUSES})',
    datatableColumns: [
      'url_from',
      'url_from_title',
      'url_to',
      'url_to_status_code',
      'anchor_text',
      'link_type',
      'nofollow',
      'url_from_deeprank',
    ],
  }),
  onLinks({
    id: 'links/external-redirects',
    category: 'links',
    title: 'Outbound links to redirecting URLs',
    description:
      'Links to other domains whose target redirects. Pointing the link at the final address removes a hop and guards against link rot.',
    severity: 'LOW',
    internalType: 'external',
    filter: 'NOT internal AND (COALESCE(is_redirect, FALSE) OR url_to_status_code BETWEEN 300 AND 399)',
    datatableColumns: [
      'url_from',
      'url_from_title',
      'url_to',
      'url_to_status_code',
      'anchor_text',
      'link_type',
      'is_redirect',
      'url_from_deeprank',
    ],
  }),
  onLinks({
    id: 'links/internal-broken',
    category: 'links',
    title: 'Broken internal links',
    description: `Links between the site's own pages whose target returns 4xx or 5xx (except ${excludedBroken}). They strand visitors and waste crawl budget: update the link, or restore or redirect the target.`,
    severity: 'CRITICAL',
    internalType: 'internal',
    filter:
      'internal AND url_to_status_code BETWEEN 400 AND 599 AND url_to_status_code NOT IN ({EXCLUDED_BROKEN_STATUSES})',
    datatableColumns: [
      'url_from',
      'url_from_title',
      'url_to',
      'url_to_status_code',
      'anchor_text',
      'link_type',
      'nofollow',
      'url_from_deeprank',
      'url_to_deeprank',
    ],
  }),
  // On unique_links, url_from_https describes primary_url_from.
  onUniqueLinks({
    id: 'links/internal-http',
    category: 'links',
    title: 'Internal links to HTTP URLs',
    description:
      'Links on secure pages that point at an insecure http:// address on the same site. Each one forces an extra redirect or serves an insecure page, and splits signals between the two protocols.',
    severity: 'MEDIUM',
    internalType: 'internal',
    filter: 'internal AND url_from_https AND NOT url_to_https',
    datatableColumns: [
      'url_to',
      'anchor_text',
      'primary_url_from',
      'instance_count',
      'url_to_status_code',
      'is_redirect',
      'nofollow',
    ],
  }),
  // The guide gives none/internal, but uncrawled_urls has no `internal` column; robots.txt rules are the site's own.
  onUncrawledUrls({
    id: 'links/internal-disallowed',
    category: 'links',
    title: 'Links to robots-blocked URLs',
    description:
      'URLs found through internal links but never fetched, because robots.txt disallows them. That is fine when intended; otherwise the links spend equity on pages that search engines cannot read.',
    severity: 'LOW',
    filter: `restricted_reason = '${ROBOTS_DISALLOWED}'`,
    datatableColumns: ['url', 'found_at_url', 'restricted_reason', 'gsc_clicks', 'gsc_impressions', 'ga_sessions'],
  }),

  // sitemap
  onSitemaps({
    id: 'sitemap/sitemaps',
    category: 'sitemap',
    title: 'Sitemaps',
    description: 'Every sitemap file the crawl fetched, with its type, URL count and any fetch or parse problem.',
    severity: 'NONE',
    includeTrends: false,
    filter: 'TRUE',
    datatableColumns: [
      'url',
      'sitemap_type',
      'format',
      'http_status_code',
      'url_count',
      'links_count',
      'fetch_error',
      'parse_error',
      'restricted_reason',
      'found_at',
    ],
  }),
  onUrls({
    id: 'sitemap/all',
    category: 'sitemap',
    title: 'URLs in sitemaps',
    description: 'Every URL listed in at least one sitemap, with its crawl status.',
    severity: 'NONE',
    contentType: 'none',
    includeTrends: false,
    filter: 'COALESCE(found_in_sitemap, FALSE)',
    datatableColumns: [
      'url',
      'found_at_sitemap',
      'http_status_code',
      'indexable',
      'found_in_web_crawl',
      'level',
      'deeprank',
      'gsc_clicks',
    ],
  }),
  onUrls({
    id: 'sitemap/missing',
    category: 'sitemap',
    title: 'Indexable pages missing from sitemaps',
    description:
      'Pages reached by the link crawl that are indexable, and not a secondary duplicate, yet appear in no sitemap. Listing them helps discovery and recrawling.',
    severity: 'MEDIUM',
    filter:
      'COALESCE(found_in_web_crawl, FALSE) AND indexable AND NOT found_in_sitemap AND COALESCE(primary_page, TRUE)',
    datatableColumns: [
      'url',
      'page_title',
      'http_status_code',
      'level',
      'deeprank',
      'links_in_count',
      'found_at_url',
      'gsc_impressions',
    ],
  }),
  onUrls({
    id: 'sitemap/orphaned',
    category: 'sitemap',
    title: 'Sitemap URLs not linked internally',
    description:
      'URLs that a sitemap lists but that the link crawl never reached. Search engines are pointed at pages that visitors cannot navigate to: link them, or redirect or remove them if they are obsolete.',
    severity: 'HIGH',
    contentType: 'none',
    filter: 'COALESCE(found_in_sitemap, FALSE) AND NOT COALESCE(found_in_web_crawl, FALSE)',
    datatableColumns: [
      'url',
      'found_at_sitemap',
      'http_status_code',
      'indexable',
      'page_title',
      'gsc_clicks',
      'gsc_impressions',
      'ga_sessions',
    ],
  }),

  // analytics
  onUrls({
    id: 'analytics/all',
    category: 'analytics',
    title: 'Pages with analytics traffic',
    description: 'Every URL with analytics sessions in the date range, joined to its crawl data.',
    severity: 'NONE',
    contentType: 'none',
    includeTrends: false,
    filter: 'COALESCE(ga_exists, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'http_status_code',
      'indexable',
      'found_in_web_crawl',
      'ga_sessions',
      'ga_conversions',
      'ga_revenue',
    ],
  }),
  onUrls({
    id: 'analytics/missing',
    category: 'analytics',
    title: 'Indexable pages without analytics traffic',
    description:
      'Crawled, indexable pages with no sessions in the date range. Either the tracking tag is missing or nobody visits the page; both deserve a look.',
    severity: 'LOW',
    filter: 'COALESCE(found_in_web_crawl, FALSE) AND indexable AND NOT COALESCE(ga_exists, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'level',
      'deeprank',
      'links_in_count',
      'found_in_sitemap',
      'gsc_impressions',
    ],
  }),
  onUrls({
    id: 'analytics/orphaned',
    category: 'analytics',
    title: 'Visited pages not linked internally',
    description:
      'URLs that receive visits but that the link crawl did not reach, such as old campaign pages or pages dropped from the navigation. Link, redirect or retire them.',
    severity: 'HIGH',
    contentType: 'none',
    filter: 'COALESCE(ga_exists, FALSE) AND NOT COALESCE(found_in_web_crawl, FALSE)',
    datatableColumns: [
      'url',
      'ga_sessions',
      'ga_conversions',
      'ga_revenue',
      'http_status_code',
      'indexable',
      'found_in_sitemap',
    ],
  }),

  // canonical
  onUrls({
    id: 'canonical/conflicting',
    category: 'canonical',
    title: 'Conflicting canonicals',
    description:
      'Pages that declare different canonical URLs in different places, such as the HTML tag and the HTTP header, or several tags. Search engines may then ignore all of them.',
    severity: 'CRITICAL',
    // The second clause relies on the export's convention that canonical_url is NULL when the sources disagree.
    filter:
      '(canonical_html_url IS NOT NULL AND canonical_header_url IS NOT NULL AND canonical_html_url <> canonical_header_url) OR (canonical_url IS NULL AND (canonical_html_url IS NOT NULL OR canonical_header_url IS NOT NULL))',
    datatableColumns: [
      'url',
      'page_title',
      'canonical_url',
      'canonical_html_url',
      'canonical_header_url',
      'http_status_code',
      'indexable',
      'level',
    ],
  }),
  onUrls({
    id: 'canonical/orphaned',
    category: 'canonical',
    title: 'Canonical targets not linked internally',
    description:
      'URLs that other pages name as their canonical but that no internal hyperlink points to. The preferred version can be reached only through hints, so link to it directly.',
    severity: 'HIGH',
    // links_in_count counts hyperlinks only, not canonical or hreflang links (guide §5.2).
    filter: 'COALESCE(canonical_links_in_count, 0) > 0 AND COALESCE(links_in_count, 0) = 0',
    datatableColumns: [
      'url',
      'http_status_code',
      'indexable',
      'canonical_links_in_count',
      'links_in_count',
      'found_in_web_crawl',
      'found_in_sitemap',
      'gsc_clicks',
    ],
  }),
  onUrls({
    id: 'canonical/multiple-links-in',
    category: 'canonical',
    title: 'Many canonicals pointing in',
    description: `Pages chosen as canonical by more than ${MULTIPLE_CANONICALS} other URLs. This is often legitimate, for example with faceted variants, but it can expose a template that points many pages at one wrong target.`,
    severity: 'LOW',
    filter: 'canonical_links_in_count > {MULTIPLE_CANONICALS}',
    datatableColumns: [
      'url',
      'page_title',
      'canonical_links_in_count',
      'links_in_count',
      'http_status_code',
      'indexable',
      'deeprank',
      'level',
    ],
  }),
  onUrls({
    id: 'canonical/non-indexable-with-links-in',
    category: 'canonical',
    title: 'Non-indexable canonical targets',
    description:
      'Pages that other URLs name as canonical but that cannot be indexed themselves, because of noindex, an error status, a redirect, or their own canonical pointing elsewhere. The hint leads nowhere useful and is likely to be ignored.',
    severity: 'HIGH',
    filter: 'COALESCE(canonical_links_in_count, 0) > 0 AND NOT COALESCE(indexable, FALSE)',
    datatableColumns: [
      'url',
      'http_status_code',
      'indexable',
      'meta_noindex',
      'canonical_url',
      'canonical_links_in_count',
      'redirected_to_url',
      'level',
    ],
  }),
  onUrls({
    id: 'canonical/non-self-referencing',
    category: 'canonical',
    title: 'Canonicalised pages',
    description:
      'Pages returning 200 whose canonical names another URL. This is expected for variants: confirm that each page listed really is a secondary copy.',
    severity: 'LOW',
    filter: 'http_status_code = 200 AND canonical_url IS NOT NULL AND NOT COALESCE(is_self_canonical, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'canonical_url',
      'indexable',
      'links_in_count',
      'deeprank',
      'level',
      'gsc_clicks',
    ],
  }),

  // content
  onUrls({
    id: 'content/duplicate',
    category: 'content',
    title: 'Duplicate content',
    description:
      'Indexable pages whose body text is a near copy of another crawled page; the primary page of each set is left out. Consolidate them with a redirect or canonical, or make them unique.',
    severity: 'CRITICAL',
    filter: 'indexable AND COALESCE(duplicate_body, FALSE) AND url IS DISTINCT FROM duplicate_body_primary_url',
    datatableColumns: [
      'url',
      'page_title',
      'duplicate_body_primary_url',
      'duplicate_body_count',
      'duplicate_page',
      'duplicate_title',
      'word_count',
      'deeprank',
    ],
    subRow: 'duplicate-set',
  }),
  onUrls({
    id: 'content/empty',
    category: 'content',
    title: 'Empty pages',
    description: `Indexable pages with less than ${EMPTY_CONTENT} bytes of body content, typically broken templates or placeholders.`,
    severity: 'CRITICAL',
    filter: 'indexable AND content_size < {EMPTY_CONTENT}',
    datatableColumns: [
      'url',
      'page_title',
      'content_size',
      'word_count',
      'html_size',
      'http_status_code',
      'level',
      'links_in_count',
    ],
  }),
  onUrls({
    id: 'content/missing-h1',
    category: 'content',
    title: 'Missing H1',
    description: 'Indexable pages with no H1 heading: a missed chance to state the page topic clearly.',
    severity: 'LOW',
    filter: 'http_status_code = 200 AND indexable AND COALESCE(h1_count, 0) = 0',
    datatableColumns: ['url', 'page_title', 'h1_count', 'h2_tag', 'word_count', 'level', 'deeprank'],
  }),
  onUrls({
    id: 'content/multiple-h1',
    category: 'content',
    title: 'Multiple H1',
    description: 'Indexable pages with more than one H1, which blurs the main topic. This is usually a template issue.',
    severity: 'LOW',
    filter: 'indexable AND h1_count > 1',
    datatableColumns: ['url', 'page_title', 'h1_count', 'h1_tag', 'h1_length', 'level', 'deeprank'],
  }),
  onUrls({
    id: 'content/thin',
    category: 'content',
    title: 'Thin pages',
    description: `Indexable pages with some content, but less than ${THIN_CONTENT} bytes of it. They risk being treated as low value.`,
    severity: 'MEDIUM',
    filter: 'indexable AND content_size >= {EMPTY_CONTENT} AND content_size < {THIN_CONTENT}',
    datatableColumns: [
      'url',
      'page_title',
      'content_size',
      'word_count',
      'html_size',
      'level',
      'deeprank',
      'gsc_impressions',
    ],
  }),

  // crawl
  onUrls({
    id: 'crawl/all',
    category: 'crawl',
    title: 'All crawled URLs',
    description: 'The full URL inventory of the crawl, internal and external, at every status.',
    severity: 'NONE',
    includeTrends: false,
    contentType: 'none',
    internalType: 'all',
    filter: 'TRUE',
    datatableColumns: [
      'url',
      'http_status_code',
      'indexable',
      'page_title',
      'level',
      'deeprank',
      'found_in_web_crawl',
      'found_in_sitemap',
      'fetch_time',
    ],
  }),

  // hreflang (shown only for websites with hreflang enabled)
  onUrls({
    id: 'hreflang/missing',
    category: 'hreflang',
    title: 'Pages without hreflang',
    description:
      'Indexable pages on a multi-language site that declare no hreflang alternates, so search engines may show the wrong language version.',
    severity: 'MEDIUM',
    filter: 'http_status_code = 200 AND indexable AND COALESCE(hreflang_links_out_count, 0) = 0',
    datatableColumns: [
      'url',
      'page_title',
      'hreflang_links_out_count',
      'hreflang_links_in_count',
      'level',
      'deeprank',
      'found_in_sitemap',
    ],
  }),
  onUrls({
    id: 'hreflang/non-indexable-links-in',
    category: 'hreflang',
    title: 'Non-indexable hreflang targets',
    description:
      'Pages named as a language alternate by other pages while being non-indexable themselves, so the alternate cannot be served in results.',
    severity: 'MEDIUM',
    filter: 'COALESCE(hreflang_links_in_count, 0) > 0 AND NOT COALESCE(indexable, FALSE)',
    datatableColumns: [
      'url',
      'http_status_code',
      'indexable',
      'hreflang_links_in_count',
      'canonical_url',
      'meta_noindex',
      'redirected_to_url',
    ],
  }),

  // internal
  onUrls({
    id: 'internal/all',
    category: 'internal',
    title: 'All internal URLs',
    description: "Every URL on the site's own domains found by the crawl.",
    severity: 'NONE',
    includeTrends: false,
    contentType: 'none',
    filter: 'COALESCE(internal, FALSE)',
    datatableColumns: [
      'url',
      'http_status_code',
      'indexable',
      'page_title',
      'level',
      'deeprank',
      'links_in_count',
      'found_in_sitemap',
    ],
  }),
  onUrls({
    id: 'internal/head-issues',
    category: 'internal',
    title: 'Broken <head>',
    description:
      'Pages where head-only tags sit in the body, or body tags appear inside the head. Either can close the head early, so canonical, hreflang or robots tags get ignored.',
    severity: 'MEDIUM',
    filter: 'COALESCE(head_tags_in_body_count, 0) > 0 OR COALESCE(body_tags_in_head_count, 0) > 0',
    datatableColumns: [
      'url',
      'page_title',
      'head_tags_in_body_count',
      'body_tags_in_head_count',
      'http_status_code',
      'indexable',
      'level',
    ],
  }),
  onUrls({
    id: 'internal/non-indexable',
    category: 'internal',
    title: 'Non-indexable pages',
    description:
      'Pages that return 200 but are kept out of the index by noindex or by a canonical naming another URL. Check that none of them should rank.',
    severity: 'LOW',
    filter: 'http_status_code = 200 AND NOT COALESCE(indexable, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'meta_noindex',
      'canonical_url',
      'canonicalized_page',
      'links_in_count',
      'level',
      'gsc_clicks',
    ],
  }),
  onUrls({
    id: 'internal/no-follow',
    category: 'internal',
    title: 'Nofollow directive pages',
    description:
      'Pages whose meta robots tag or X-Robots-Tag header says nofollow, so none of their outgoing links pass signals.',
    severity: 'LOW',
    filter: 'http_status_code = 200 AND (COALESCE(meta_nofollow, FALSE) OR COALESCE(header_nofollow, FALSE))',
    datatableColumns: [
      'url',
      'page_title',
      'meta_nofollow',
      'header_nofollow',
      'meta_noindex',
      'links_out_count',
      'level',
    ],
  }),

  // meta (the ai_* columns show only for websites with AI enabled)
  onUrls({
    id: 'meta/duplicate-descriptions',
    category: 'meta',
    title: 'Duplicate meta descriptions',
    description:
      'Indexable pages sharing their meta description with another page. Search engines tend to write their own snippet instead.',
    severity: 'MEDIUM',
    filter: 'indexable AND COALESCE(duplicate_description, FALSE)',
    datatableColumns: [
      'url',
      'description',
      'description_length',
      'duplicate_description_count',
      'duplicate_description_primary_url',
      'page_title',
      'deeprank',
      'ai_description',
    ],
    subRow: 'duplicate-set',
  }),
  onUrls({
    id: 'meta/duplicate-titles',
    category: 'meta',
    title: 'Duplicate titles',
    description:
      "Indexable pages whose title is identical to another page's. The pages compete for the same queries and look interchangeable in results.",
    severity: 'HIGH',
    filter: 'indexable AND COALESCE(duplicate_title, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'page_title_length',
      'duplicate_title_count',
      'duplicate_title_primary_url',
      'deeprank',
      'level',
      'ai_title',
    ],
    subRow: 'duplicate-set',
  }),
  onUrls({
    id: 'meta/max-descriptions',
    category: 'meta',
    title: 'Descriptions too long',
    description: `Meta descriptions over ${DESCRIPTION_LENGTH_MAX} characters, which are likely to be cut off in results.`,
    severity: 'LOW',
    filter: 'indexable AND description_length > {DESCRIPTION_LENGTH_MAX}',
    datatableColumns: ['url', 'description', 'description_length', 'page_title', 'deeprank', 'level', 'ai_description'],
  }),
  onUrls({
    id: 'meta/max-titles',
    category: 'meta',
    title: 'Titles too long',
    description: `Titles over ${TITLE_LENGTH_MAX} characters, which are likely to be truncated in results.`,
    severity: 'LOW',
    filter: 'indexable AND page_title_length > {TITLE_LENGTH_MAX}',
    datatableColumns: ['url', 'page_title', 'page_title_length', 'duplicate_title', 'deeprank', 'level', 'ai_title'],
  }),
  onUrls({
    id: 'meta/short-descriptions',
    category: 'meta',
    title: 'Short or missing descriptions',
    description: `Meta descriptions under ${DESCRIPTION_LENGTH_MIN} characters, or missing altogether. There is no separate report for missing descriptions: they are counted here.`,
    severity: 'LOW',
    filter: 'indexable AND COALESCE(description_length, 0) < {DESCRIPTION_LENGTH_MIN}',
    datatableColumns: ['url', 'description', 'description_length', 'page_title', 'deeprank', 'level', 'ai_description'],
  }),
  onUrls({
    id: 'meta/short-titles',
    category: 'meta',
    title: 'Short or missing titles',
    description: `Titles under ${TITLE_LENGTH_MIN} characters, or missing. They give search engines little to show and invite rewritten titles.`,
    severity: 'MEDIUM',
    filter: 'indexable AND COALESCE(page_title_length, 0) < {TITLE_LENGTH_MIN}',
    datatableColumns: ['url', 'page_title', 'page_title_length', 'h1_tag', 'deeprank', 'level', 'ai_title'],
  }),

  // performance: status 200 HTML pages, strictly above the upper threshold (guide §0)
  onUrls({
    id: 'performance/poor-fetch',
    category: 'performance',
    title: 'Slow fetch time',
    description: `The crawler needed more than ${FETCH_TIME_MAX} s to fetch the page, which slows crawling and visitors alike.`,
    severity: 'LOW',
    filter: 'http_status_code = 200 AND fetch_time > {FETCH_TIME_MAX}',
    datatableColumns: performanceColumns('fetch_time'),
  }),
  onUrls({
    id: 'performance/poor-cls',
    category: 'performance',
    title: 'Poor layout stability',
    description: `Visible content shifts a lot while the page loads (cumulative layout shift above ${CLS_MAX}). Layout stability is a Core Web Vital.`,
    severity: 'MEDIUM',
    filter: 'http_status_code = 200 AND performance_cls > {CLS_MAX}',
    datatableColumns: performanceColumns('performance_cls'),
  }),
  onUrls({
    id: 'performance/poor-dcl',
    category: 'performance',
    title: 'Slow DOM content load',
    description: `The HTML took more than ${DCL_MAX} s to load and parse.`,
    severity: 'LOW',
    filter: 'http_status_code = 200 AND performance_dcl > {DCL_MAX}',
    datatableColumns: performanceColumns('performance_dcl'),
  }),
  onUrls({
    id: 'performance/slow-fcp',
    category: 'performance',
    title: 'Slow first contentful paint',
    description: `Nothing is painted for more than ${FCP_MAX} s.`,
    severity: 'LOW',
    filter: 'http_status_code = 200 AND performance_fcp > {FCP_MAX}',
    datatableColumns: performanceColumns('performance_fcp'),
  }),
  onUrls({
    id: 'performance/slow-lcp',
    category: 'performance',
    title: 'Slow largest contentful paint',
    description: `The main content appears after more than ${LCP_MAX} s. Largest contentful paint is a Core Web Vital.`,
    severity: 'MEDIUM',
    filter: 'http_status_code = 200 AND performance_lcp > {LCP_MAX}',
    datatableColumns: performanceColumns('performance_lcp'),
  }),
  onUrls({
    id: 'performance/slow-ttfb',
    category: 'performance',
    title: 'Slow server response',
    description: `The server takes more than ${TTFB_MAX / 1000} s to send the first byte, which delays every other timing and slows crawling.`,
    severity: 'MEDIUM',
    filter: 'http_status_code = 200 AND performance_ttfb > {TTFB_MAX}',
    datatableColumns: performanceColumns('performance_ttfb'),
  }),
  onUrls({
    id: 'performance/slow-tti',
    category: 'performance',
    title: 'Slow time to interactive',
    description: `The page is not usable for more than ${TTI_MAX} s.`,
    severity: 'LOW',
    filter: 'http_status_code = 200 AND performance_tti > {TTI_MAX}',
    datatableColumns: performanceColumns('performance_tti'),
  }),

  // redirects: every URL that redirects, whatever its content, on the site's own domains
  onUrls({
    id: 'redirects/all',
    category: 'redirects',
    title: 'All redirects',
    description: 'Every crawled URL that redirects, by server status or in the browser, with its target.',
    severity: 'NONE',
    includeTrends: false,
    contentType: 'none',
    filter: 'COALESCE(is_redirect, FALSE) OR http_status_code BETWEEN 300 AND 399',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirected_to_url',
      'redirected_to_status_code',
      'redirect_count',
      'links_in_count',
      'found_in_sitemap',
    ],
  }),
  onUrls({
    id: 'redirects/broken',
    category: 'redirects',
    title: 'Redirects to broken pages',
    description: `Redirects whose destination returns 4xx or 5xx (except ${excludedBroken}, as for broken links). Visitors and link equity both end at an error.`,
    severity: 'CRITICAL',
    contentType: 'none',
    filter:
      'COALESCE(is_redirect, FALSE) AND redirected_to_status_code BETWEEN 400 AND 599 AND redirected_to_status_code NOT IN ({EXCLUDED_BROKEN_STATUSES})',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirected_to_url',
      'redirected_to_status_code',
      'redirect_count',
      'redirect_chain',
      'links_in_count',
    ],
  }),
  onUrls({
    id: 'redirects/chain',
    category: 'redirects',
    title: 'Redirect chains',
    description: `URLs that pass through ${REDIRECT_CHAIN_MIN} or more redirects before reaching a final response. Every hop adds latency and crawl cost. At ${REDIRECT_MAX} hops the crawler stops following, so the final status of such chains may be unknown.`,
    severity: 'HIGH',
    contentType: 'none',
    filter: 'redirect_count >= {REDIRECT_CHAIN_MIN} AND NOT COALESCE(is_redirect_loop, FALSE)',
    datatableColumns: [
      'url',
      'redirect_count',
      'redirect_chain',
      'redirected_to_url',
      'redirected_to_status_code',
      'links_in_count',
      'found_in_sitemap',
    ],
    subRow: 'redirect-chain',
  }),
  onUrls({
    id: 'redirects/loop',
    category: 'redirects',
    title: 'Redirect loops',
    description: 'Redirect sequences that return to a URL already visited, so they never resolve.',
    severity: 'CRITICAL',
    contentType: 'none',
    filter: 'COALESCE(is_redirect_loop, FALSE)',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirect_chain',
      'redirect_count',
      'redirected_to_url',
      'links_in_count',
    ],
    subRow: 'redirect-chain',
  }),
  onUrls({
    id: 'redirects/js-meta',
    category: 'redirects',
    title: 'JavaScript / meta-refresh redirects',
    description:
      'Redirects performed in the browser, by JavaScript or a meta refresh, rather than by the server. Search engines see them late or not at all.',
    severity: 'LOW',
    contentType: 'none',
    filter: 'len(list_filter(redirect_chain, lambda x: x.is_js_redirect OR x.is_meta_redirect)) > 0',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirect_chain',
      'redirected_to_url',
      'redirected_to_status_code',
      'links_in_count',
    ],
  }),
  onUrls({
    id: 'redirects/temporary',
    category: 'redirects',
    title: 'Temporary redirects',
    description: `URLs redirecting with ${TEMPORARY_REDIRECT_STATUSES.join(' or ')}. If the move is permanent, a 301 or 308 consolidates signals more reliably.`,
    severity: 'MEDIUM',
    contentType: 'none',
    filter: 'http_status_code IN ({TEMPORARY_REDIRECT_STATUSES})',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirected_to_url',
      'redirected_to_status_code',
      'redirect_count',
      'links_in_count',
      'found_in_sitemap',
    ],
  }),

  // schema
  onUrls({
    id: 'schema/missing',
    category: 'schema',
    title: 'Pages without structured data',
    description: 'Indexable pages with no schema.org markup: an opportunity for rich results rather than an error.',
    severity: 'LOW',
    filter: 'http_status_code = 200 AND indexable AND NOT COALESCE(has_structured_data, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'has_structured_data',
      'level',
      'deeprank',
      'gsc_impressions',
      'gsc_clicks',
    ],
  }),

  // search-console
  onUrls({
    id: 'search-console/all',
    category: 'search-console',
    title: 'Pages with search impressions',
    description: 'Every URL with Search Console data in the date range, joined to its crawl data.',
    severity: 'NONE',
    contentType: 'none',
    includeTrends: false,
    filter: 'COALESCE(gsc_exists, FALSE)',
    datatableColumns: [
      'url',
      'page_title',
      'http_status_code',
      'indexable',
      'gsc_top_query',
      'gsc_clicks',
      'gsc_impressions',
      'gsc_weighted_position',
      'found_in_web_crawl',
    ],
  }),
  onUrls({
    id: 'search-console/missing',
    category: 'search-console',
    title: 'Indexable pages without impressions',
    description:
      'Crawled, indexable pages that had no search impressions in the date range. They may not be indexed, or may not rank for anything.',
    severity: 'MEDIUM',
    filter: 'COALESCE(found_in_web_crawl, FALSE) AND indexable AND NOT COALESCE(gsc_exists, FALSE)',
    datatableColumns: ['url', 'page_title', 'level', 'deeprank', 'links_in_count', 'found_in_sitemap', 'content_size'],
  }),
  onUrls({
    id: 'search-console/orphaned',
    category: 'search-console',
    title: 'Ranking pages not linked internally',
    description:
      'URLs that earn search impressions but that the link crawl did not reach: pages visible in search that the site itself does not link to.',
    severity: 'HIGH',
    contentType: 'none',
    filter: 'COALESCE(gsc_exists, FALSE) AND NOT COALESCE(found_in_web_crawl, FALSE)',
    datatableColumns: [
      'url',
      'gsc_top_query',
      'gsc_clicks',
      'gsc_impressions',
      'gsc_weighted_position',
      'http_status_code',
      'indexable',
      'found_in_sitemap',
    ],
  }),

  // status-code
  onUrls({
    id: 'status-code/4xx',
    category: 'status-code',
    title: 'Client errors (4xx)',
    description: `Crawled URLs returning a 4xx status. Unlike the broken-link reports, this one keeps ${excludedBroken}: the status column shows where bots are blocked or rate-limited.`,
    severity: 'CRITICAL',
    contentType: 'none',
    filter: 'http_status_code BETWEEN 400 AND 499',
    datatableColumns: [
      'url',
      'http_status_code',
      'found_at_url',
      'links_in_count',
      'found_in_sitemap',
      'level',
      'gsc_clicks',
      'ga_sessions',
    ],
  }),
  onUrls({
    id: 'status-code/5xx',
    category: 'status-code',
    title: 'Server errors (5xx)',
    description: 'Crawled URLs where the server failed. These are usually urgent, as the failures may be intermittent.',
    severity: 'CRITICAL',
    contentType: 'none',
    filter: 'http_status_code BETWEEN 500 AND 599',
    datatableColumns: [
      'url',
      'http_status_code',
      'found_at_url',
      'links_in_count',
      'fetch_time',
      'level',
      'gsc_clicks',
      'ga_sessions',
    ],
  }),
  // A NULL status means "no response" only for URLs the crawler fetched: rows known only to a sitemap, analytics
  // or Search Console also have no status (guide §4, §5.6) and must not count as timeouts.
  onUrls({
    id: 'status-code/other',
    category: 'status-code',
    title: 'Other status codes',
    description:
      'Crawled URLs that got no response (a timeout, shown empty), a 1xx status, a 2xx other than 200, a 3xx without a redirect, or a non-standard code. Search engines cannot index any of them.',
    severity: 'HIGH',
    contentType: 'none',
    filter:
      '(http_status_code IS NULL AND COALESCE(found_in_web_crawl, FALSE)) OR http_status_code < 200 OR http_status_code BETWEEN 201 AND 299 OR (http_status_code BETWEEN 300 AND 399 AND NOT COALESCE(is_redirect, FALSE)) OR http_status_code >= 600',
    datatableColumns: ['url', 'http_status_code', 'found_at_url', 'links_in_count', 'fetch_time', 'level'],
  }),

  // ads (issue 30 §3)
  onUrls({
    id: 'ads/broken-landing-pages',
    category: 'ads',
    title: 'Ad spend on broken landing pages',
    description: `Pages that ads sent paid clicks to while they answered with an error, redirected, or took more than ${FETCH_TIME_MAX} s to fetch. Every click on them is paid for and then lost or slowed: fix the page or point the ad at its final address.`,
    severity: 'HIGH',
    contentType: 'none',
    filter:
      'COALESCE(ad_spend, 0) > 0 AND (http_status_code BETWEEN 300 AND 599 OR COALESCE(is_redirect, FALSE) OR fetch_time > {FETCH_TIME_MAX})',
    datatableColumns: [
      'url',
      'http_status_code',
      'redirected_to_url',
      'fetch_time',
      'ad_spend',
      'ad_clicks',
      'ga_sessions',
    ],
  }),

  ...renderReports(onUrls, onLinks),
];

/**
 * The column naming a link's linking page, which 'URLs containing' matches besides the target: `url_from` on links,
 * the first linking page elsewhere. Undefined for reports of pages, where the one URL is all there is to match.
 */
const LINKING_PAGE_COLUMNS: Partial<Record<ReportDefinition['tableId'], string>> = {
  links: 'url_from',
  unique_links: 'primary_url_from',
  uncrawled_urls: 'found_at_url',
};

export function linkingPageColumnOf(
  report: Pick<ReportDefinition, 'tableId' | 'datatableColumns' | 'keyColumns'>,
): string | undefined {
  const id = LINKING_PAGE_COLUMNS[report.tableId];
  return id !== undefined && (report.datatableColumns.includes(id) || report.keyColumns.includes(id)) ? id : undefined;
}
