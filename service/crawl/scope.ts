/**
 * Which URLs a crawl fetches. Internal URLs are on the start URL's host (or, with --include-subdomains, any host
 * of its domain); other hosts of the same domain are outside the scope, and every other host is external:
 * linked-to and checked, never crawled. A start URL that redirects to its twin (the same host name but for `www.`,
 * on another scheme or port) brings the twin's host in as well: the crawl goes on there, as the site.
 */
import type { CrawlOptions } from './crawl-options.ts';

export type RestrictedReason =
  'robots_disallowed' | 'meta_nofollow' | 'link_nofollow' | 'excluded_by_pattern' | 'outside_scope' | 'crawl_limit';

export type Placement = 'internal' | 'outside_scope' | 'external';

export class Scope {
  private readonly hosts = new Set<string>();
  private readonly hostname: string;
  private readonly domain: string;

  constructor(
    startUrl: string,
    private readonly options: Pick<CrawlOptions, 'includeSubdomains' | 'include' | 'exclude'>,
  ) {
    const url = new URL(startUrl);
    this.hosts.add(url.host);
    this.hostname = url.hostname;
    this.domain = url.hostname.replace(/^www\./, '');
  }

  place(url: string): Placement {
    const { host, hostname } = new URL(url);
    if (this.hosts.has(host)) return 'internal';
    const isSameDomain = hostname === this.domain || hostname.endsWith(`.${this.domain}`);
    if (!isSameDomain || hostname === this.hostname) return 'external';
    return this.options.includeSubdomains ? 'internal' : 'outside_scope';
  }

  /** The same site under another scheme, port or `www.`: `http://example.com/` and `https://www.example.com:8443/`. */
  isTwin(url: string): boolean {
    return new URL(url).hostname.replace(/^www\./, '') === this.domain;
  }

  /** Takes the host of a twin (see isTwin) into the crawl. */
  adopt(url: string): void {
    this.hosts.add(new URL(url).host);
  }

  /** An internal URL the patterns keep out: `--include` (any of them must match, when given) then `--exclude`. */
  isExcluded(url: string): boolean {
    const { include, exclude } = this.options;
    if (include.length > 0 && !include.some((pattern) => pattern.test(url))) return true;
    return exclude.some((pattern) => pattern.test(url));
  }
}
