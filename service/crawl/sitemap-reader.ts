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
import { parseSitemap } from './sitemaps.ts';

/** Sitemap indexes nest at most this deep. */
const MAX_SITEMAP_DEPTH = 5;

interface PendingSitemap {
  url: string;
  foundAt: string;
  depth: number;
  /** /sitemap.xml, tried without being named: no row when it is missing. */
  isOptional: boolean;
}

export interface SitemapSources {
  fetcher: Fetcher;
  hosts: Hosts;
  frontier: Frontier;
  sitemaps: RowWriter;
  options: Pick<CrawlOptions, 'respectRobots' | 'sitemaps'>;
  signal: AbortSignal;
}

export async function readSitemaps(sources: SitemapSources, siteUrl: string): Promise<void> {
  const { fetcher, hosts, frontier, options, signal } = sources;
  const seen = new Set<string>();
  const pending = sitemapsToRead((await hosts.host(siteUrl)).rules.sitemaps, options.sitemaps, siteUrl);
  while (pending.length > 0 && !signal.aborted) {
    const sitemap = pending.shift()!;
    if (seen.has(sitemap.url)) continue;
    seen.add(sitemap.url);
    const row: Record<string, unknown> = { url: sitemap.url, found_at: sitemap.foundAt };
    if (options.respectRobots && !(await hosts.host(sitemap.url)).rules.isAllowed(sitemap.url)) {
      if (!sitemap.isOptional) sources.sitemaps.write({ ...row, restricted_reason: 'robots_disallowed' });
      continue;
    }
    const response = await fetcher.fetch(sitemap.url, { wantsBody: (status) => status < 300 });
    if (response.error === 'aborted') break;
    const isOk = response.status !== null && response.status >= 200 && response.status < 300 && response.body !== null;
    if (sitemap.isOptional && !isOk) continue;
    row.http_status_code = response.status;
    if (!isOk) {
      sources.sitemaps.write({ ...row, fetch_error: response.error ?? `HTTP ${response.status ?? ''}`.trim() });
      continue;
    }
    const parsed = parseSitemap(response.body!);
    Object.assign(row, {
      sitemap_type: parsed.type,
      format: parsed.format,
      parse_error: parsed.parseError,
      file_size: response.bodySize,
    });
    if (parsed.type === 'index') {
      row.links_count = parsed.locs.length;
      row.url_count = 0;
      for (const loc of parsed.locs) {
        const child = normalizeUrl(loc, sitemap.url);
        if (child !== null && sitemap.depth < MAX_SITEMAP_DEPTH)
          pending.push({ url: child, foundAt: sitemap.url, depth: sitemap.depth + 1, isOptional: false });
      }
    } else {
      row.links_count = 0;
      row.url_count = parsed.locs.length;
      for (const loc of parsed.locs) {
        const target = normalizeUrl(loc, sitemap.url);
        if (target === null) continue;
        const id = frontier.know(target, -1, 0);
        frontier.noteSitemap(id, sitemap.url);
        await frontier.follow(id, 0, null, frontier.sitemapUrls);
      }
    }
    sources.sitemaps.write(row);
  }
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
