/**
 * Reading a site's sitemaps: robots.txt's `Sitemap:` lines, those given with --sitemap and /sitemap.xml (tried
 * quietly), indexes followed a few levels deep. Every sitemap file becomes a sitemaps row; the page URLs they list
 * join the frontier, found in a sitemap.
 */
import type { CrawlOptions } from './crawl-options.ts';
import type { Fetcher } from './fetcher.ts';
import type { Frontier } from './frontier.ts';
import type { Hosts } from './hosts.ts';
import { normalizeUrl } from './normalize-url.ts';
import type { RowWriter } from './row-writer.ts';
import type { SitemapRecord } from './crawl-records.ts';
import type { Scope } from './scope.ts';
import { parseSitemap } from './sitemaps.ts';

/** Sitemap indexes nest at most this deep. */
const MAX_SITEMAP_DEPTH = 5;
/** Sitemap files read at most (a sitemap index may name 50,000, each listing 50,000 URLs). */
export const MAX_SITEMAP_FILES = 1000;

interface PendingSitemap {
  url: string;
  foundAt: string;
  depth: number;
  /** /sitemap.xml, tried without being named: no row when it is missing. */
  isOptional: boolean;
}

export interface SitemapSources {
  scope: Scope;
  fetcher: Fetcher;
  hosts: Hosts;
  frontier: Frontier;
  sitemaps: RowWriter<SitemapRecord>;
  options: Pick<CrawlOptions, 'respectRobots' | 'sitemaps' | 'maxUrls'>;
  signal: AbortSignal;
}

/**
 * Reads the site's sitemaps one file at a time (one body in memory), at most MAX_SITEMAP_FILES of them, and stops
 * taking URLs from them once the crawl holds max URLs. Returns a notice when files were left unread.
 */
export async function readSitemaps(sources: SitemapSources, siteUrl: string): Promise<string | null> {
  const { hosts, options, signal } = sources;
  const seen = new Set<string>();
  const pending = sitemapsToRead((await hosts.host(siteUrl)).rules.sitemaps, options.sitemaps, siteUrl);
  let isFound = false;
  let missing: SitemapRecord | null = null;
  const counts = { unread: 0 };
  while (pending.length > 0 && !signal.aborted) {
    const sitemap = pending.shift()!;
    if (seen.has(sitemap.url)) continue;
    if (seen.size >= MAX_SITEMAP_FILES) {
      counts.unread++;
      continue;
    }
    seen.add(sitemap.url);
    const row = await readSitemap(sources, sitemap, pending, counts);
    if (row === 'aborted') break;
    const isRead = row.http_status_code !== undefined && row.fetch_error === undefined;
    isFound ||= isRead;
    if (isRead || !sitemap.isOptional) sources.sitemaps.write(row);
    else missing = row;
  }
  // A site without any sitemap says so in one row: /sitemap.xml, tried, and why it was not one.
  if (!isFound && missing !== null) sources.sitemaps.write(missing);
  return counts.unread === 0
    ? null
    : `${counts.unread.toLocaleString('en-GB')} sitemap files beyond the first ${MAX_SITEMAP_FILES.toLocaleString('en-GB')} were not read`;
}

async function readSitemap(
  sources: SitemapSources,
  sitemap: PendingSitemap,
  pending: PendingSitemap[],
  counts: { unread: number },
): Promise<SitemapRecord | 'aborted'> {
  const { fetcher, hosts, frontier, options } = sources;
  const row: SitemapRecord = { url: sitemap.url, found_at: sitemap.foundAt };
  if (sources.scope.place(sitemap.url) !== 'internal') {
    return { ...row, restricted_reason: 'outside_scope', fetch_error: 'not fetched: on another host than the site' };
  }
  if (options.respectRobots && !(await hosts.host(sitemap.url)).rules.isAllowed(sitemap.url)) {
    return { ...row, restricted_reason: 'robots_disallowed' };
  }
  if (frontier.internalCount >= options.maxUrls) {
    frontier.isMaxUrlsReached = true;
    return { ...row, restricted_reason: 'crawl_limit', fetch_error: 'not fetched: the crawl holds max URLs' };
  }
  const response = await fetcher.fetch(sitemap.url, { wantsBody: (status) => status < 300 });
  if (response.error === 'aborted') return 'aborted';
  row.http_status_code = response.status;
  if (response.status === null || response.status < 200 || response.status >= 300 || response.body === null) {
    return { ...row, fetch_error: response.error ?? `HTTP ${response.status ?? ''}`.trim() };
  }
  const parsed = parseSitemap(response.body);
  row.sitemap_type = parsed.type;
  row.format = parsed.format;
  row.parse_error = parsed.parseError;
  row.file_size = response.bodySize;
  row.links_count = parsed.type === 'index' ? parsed.locs.length : 0;
  row.url_count = parsed.type === 'index' ? 0 : parsed.locs.length;
  for (const loc of parsed.locs) {
    const target = normalizeUrl(loc, sitemap.url);
    if (target === null) continue;
    if (parsed.type === 'index') {
      if (sitemap.depth >= MAX_SITEMAP_DEPTH) continue;
      if (pending.length >= MAX_SITEMAP_FILES) counts.unread++;
      else pending.push({ url: target, foundAt: sitemap.url, depth: sitemap.depth + 1, isOptional: false });
      continue;
    }
    // Past max URLs, a sitemap only marks the URLs the crawl already knows.
    const isFull = frontier.internalCount >= options.maxUrls;
    const id = isFull ? frontier.idOf(target) : frontier.know(target, -1, 0);
    if (id === undefined) {
      if (sources.scope.place(target) === 'internal') frontier.isMaxUrlsReached = true;
      continue;
    }
    frontier.noteSitemap(id, sitemap.url);
    if (!isFull) await frontier.follow(id, target, 0, null, frontier.sitemapUrls);
  }
  return row;
}

function sitemapsToRead(fromRobots: string[], given: string[], siteUrl: string): PendingSitemap[] {
  const listed: { url: string; foundAt: string }[] = [];
  for (const url of fromRobots) listed.push({ url, foundAt: 'robots.txt' });
  for (const url of given) listed.push({ url, foundAt: 'the start URL' });
  const fallback = new URL('/sitemap.xml', siteUrl).href;
  const pending: PendingSitemap[] = [];
  for (const { url, foundAt } of listed) {
    const normal = normalizeUrl(url);
    if (normal !== null) pending.push({ url: normal, foundAt, depth: 0, isOptional: false });
  }
  if (!pending.some((p) => p.url === fallback))
    pending.push({ url: fallback, foundAt: 'the start URL', depth: 0, isOptional: true });
  return pending;
}
