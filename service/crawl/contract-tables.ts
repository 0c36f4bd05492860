/**
 * The contract's tables of a crawl export, as queries over the crawl's tables (crawl-tables.ts): each column of
 * the contract named with the expression that computes it.
 */
import type { CrawledTableId } from '../../catalog/export-contract.ts';
import { PAGE_ALIGNED } from './crawl-tables.ts';
import { derivedUrlColumns } from './derived-url-columns.ts';
import { openGraphFields, schemaTypes } from './parsed-page.ts';
import { projectContract } from './project-contract.ts';
import { renderedLinkExpressions, renderedUrlExpressions } from './rendered-export.ts';

/** Images above this size (kB) go to the large_images extraction. */
export const LARGE_IMAGE_KB = 100;

/** The crawl fetched at least one sitemap (a missing /sitemap.xml, a 404 or a fetch error is no sitemap). */
const HAS_SITEMAP = '(SELECT count(*) > 0 FROM smf WHERE http_status_code BETWEEN 200 AND 299 AND fetch_error IS NULL)';

/** The link_type of an edge row's k (LinkKind), by a table alias. */
const linkType = (alias: string): string => `['href', 'image', 'canonical', 'hreflang', 'redirect'][${alias}k + 1]`;
const directiveFlag = (column: string): string =>
  `CASE WHEN g.internal AND g.st IS NOT NULL THEN coalesce(g.${column}, false) END`;
const pageFlag = (column: string): string => `CASE WHEN g.html THEN coalesce(g.${column}, false) END`;

export function contractTableQueries(): Record<CrawledTableId, string> {
  return {
    // The tables beside g are in g's row order (crawl-tables.ts alignToPages): a join by position holds no hash table.
    urls: `SELECT ${projectContract('urls', urlsColumns())}
      FROM g ${Object.keys(PAGE_ALIGNED)
        .map((alias) => `POSITIONAL JOIN pa_${alias} ${alias}`)
        .join(' ')}`,
    // The link tables are the big ones: written unsorted, as sorting them would take memory by the link count.
    links: `SELECT ${projectContract('links', linksColumns)} FROM le`,
    // The primary link row joined back by its page, rather than carried through the aggregate, which then spills.
    unique_links: `SELECT ${projectContract('unique_links', uniqueLinksColumns)}
      FROM (SELECT t AS ut, a AS ua, count(*)::INTEGER AS n, min(f) AS pf FROM le GROUP BY t, a) u
      JOIN le pr ON pr.t = u.ut AND pr.a = u.ua AND pr.f = u.pf`,
    sitemaps: `SELECT ${projectContract('sitemaps', {
      url: 'url',
      sitemap_type: 'sitemap_type',
      format: 'format',
      found_at: 'found_at',
      links_count: 'links_count',
      url_count: 'url_count',
      fetch_error: 'fetch_error',
      parse_error: 'parse_error',
      http_status_code: 'http_status_code',
      restricted_reason: 'restricted_reason',
      file_size: 'file_size',
    })} FROM smf ORDER BY url`,
    uncrawled_urls: `SELECT ${projectContract('uncrawled_urls', {
      url: 'n.url',
      restricted_reason: 'n.rr',
      found_at_url: 'coalesce(fa.url, n.sm)',
    })} FROM n LEFT JOIN n fa ON fa.id = n.fa
      WHERE NOT n.fe AND n.rr IS NOT NULL AND n.pl <> 'e' ORDER BY n.url`,
    large_images: `SELECT ${projectContract('large_images', {
      url: 'pg.url',
      imgSrc: 'img.src',
      imgSize: 'round(im.sz / 1024, 1)',
    })} FROM img JOIN n pg ON pg.id = img.f JOIN n ni ON ni.url = img.src JOIN p im ON im.id = ni.id
      WHERE im.sz > ${LARGE_IMAGE_KB} * 1024 ORDER BY pg.url, img.src`,
    images_missing_alt: `SELECT ${projectContract('images_missing_alt', { url: 'pg.url', imgSrc: 'img.src' })}
      FROM img JOIN n pg ON pg.id = img.f WHERE img.ma ORDER BY pg.url, img.src`,
  };
}

function urlsColumns(): Record<string, string> {
  const internal = 'g.internal';
  const columns = {
    url: 'g.url',
    http_status_code: 'g.st',
    indexable: 'coalesce(g.indexable, false)',
    internal,
    found_in_web_crawl: 'r.id IS NOT NULL',
    // Unknown (NULL) when no sitemap could be fetched: the crawl then says "no sitemap found" once, rather than
    // listing every page as missing from sitemaps.
    found_in_sitemap: `CASE WHEN ${internal} AND ${HAS_SITEMAP} THEN g.sm IS NOT NULL END`,
    found_at_sitemap: 'g.sm',
    found_at_url: 'nm.par',
    page_title: 'g.ti',
    page_title_length: 'length(g.ti)',
    description: 'g.de',
    description_length: 'length(g.de)',
    h1_count: 'len(g.h1)',
    h1_length: 'length(g.h1[1])',
    h1_tag: 'g.h1',
    h2_tag: 'g.h2',
    h3_tag: 'g.h3',
    content_size: 'g.cs',
    word_count: 'g.wc',
    html_size: 'CASE WHEN g.html THEN g.sz END',
    ...derivedUrlColumns(internal, (alias, column) => (column === 'st' ? `nm.${alias}_st` : `nm.${alias}`)),
    meta_nofollow: pageFlag('mf'),
    meta_noindex: pageFlag('mn'),
    header_noindex: directiveFlag('hn'),
    header_nofollow: directiveFlag('hf'),
    header_noarchive: directiveFlag('ha'),
    header_nosnippet: directiveFlag('hs'),
    header_noimageindex: directiveFlag('hi'),
    header_notranslate: directiveFlag('ht'),
    has_structured_data: 'CASE WHEN g.html THEN coalesce(g.sd, false) END',
    ...Object.fromEntries(schemaTypes.map((t) => [`${t}_schema_count`, `g.sc.${t}`])),
    ...Object.fromEntries(openGraphFields.map((f) => [`og_${f}`, `g.og.${f}`])),
    fetch_time: `CASE WHEN ${internal} THEN g.ft END`,
    fetch_error: 'g.err',
    performance_cls: 'vit.cls',
    performance_dcl: 'vit.dcl',
    performance_fcp: 'vit.fcp',
    performance_lcp: 'vit.lcp',
    performance_ttfb: 'vit.ttfb',
    performance_tti: 'vit.tti',
    head_tags_in_body_count: 'CASE WHEN g.html THEN g.hib END',
    body_tags_in_head_count: 'CASE WHEN g.html THEN g.bih END',
  };
  return { ...columns, ...renderedUrlExpressions(columns) };
}

const linksColumns: Record<string, string> = {
  url_from: 'f_url',
  url_to: 't_url',
  internal: 't_internal',
  url_from_status_code: 'f_st',
  url_to_status_code: 't_st',
  url_from_title: 'f_ti',
  url_to_title: 't_ti',
  url_from_https: "starts_with(f_url, 'https:')",
  url_to_https: "starts_with(t_url, 'https:')",
  url_from_deeprank: 'f_dr',
  url_to_deeprank: 'CASE WHEN t_internal THEN coalesce(t_dr, 0) END',
  hreflang: 'hl',
  attr_rel: 'r',
  link_type: linkType(''),
  anchor_text: 'a',
  nofollow: 'nf',
  instance_count: 'ic',
  is_redirect: 't_redirect',
  is_restricted: 't_restricted',
  restricted_reason: 't_reason',
  has_image_link: 'im',
  has_image_alt_text: 'CASE WHEN im THEN al END',
  ...renderedLinkExpressions(),
};

const uniqueLinksColumns: Record<string, string> = {
  url_to: 't_url',
  anchor_text: 'a',
  primary_url_from: 'pr.f_url',
  internal: 't_internal',
  primary_url_from_status_code: 'pr.f_st',
  url_from_https: "starts_with(pr.f_url, 'https:')",
  url_to_https: "starts_with(t_url, 'https:')",
  url_to_status_code: 't_st',
  url_to_title: 't_ti',
  url_to_deeprank: 'CASE WHEN t_internal THEN coalesce(t_dr, 0) END',
  link_type: linkType('pr.'),
  instance_count: 'n',
  nofollow: 'pr.nf',
  is_redirect: 't_redirect',
  is_restricted: 't_restricted',
  has_image_link: 'pr.im',
  has_image_alt_text: 'CASE WHEN pr.im THEN pr.al END',
};
