/**
 * Which URLs a crawl fetches. Internal URLs are on the start URL's host (or, with --include-subdomains, any host
 * of its domain); other hosts of the same domain are outside the scope, and every other host is external:
 * linked-to and checked, never crawled.
 */
import type { CrawlOptions } from './crawl-options.ts';

export type RestrictedReason =
  'robots_disallowed' | 'meta_nofollow' | 'link_nofollow' | 'excluded_by_pattern' | 'outside_scope' | 'crawl_limit';

export type Placement = 'internal' | 'outside_scope' | 'external';

export class Scope {
  private readonly host: string;
  private readonly domain: string;

  constructor(
    startUrl: string,
    private readonly options: Pick<CrawlOptions, 'includeSubdomains' | 'include' | 'exclude'>,
  ) {
    const url = new URL(startUrl);
    this.host = url.host;
    this.domain = url.hostname.replace(/^www\./, '');
  }

  place(url: string): Placement {
    const { host, hostname } = new URL(url);
    if (host === this.host) return 'internal';
    const isSameDomain = hostname === this.domain || hostname.endsWith(`.${this.domain}`);
    if (!isSameDomain || hostname === new URL(`http://${this.host}`).hostname) return 'external';
    return this.options.includeSubdomains ? 'internal' : 'outside_scope';
  }

  /** An internal URL the patterns keep out: `--include` (any of them must match, when given) then `--exclude`. */
  isExcluded(url: string): boolean {
    const { include, exclude } = this.options;
    if (include.length > 0 && !include.some((pattern) => pattern.test(url))) return true;
    return exclude.some((pattern) => pattern.test(url));
  }
}
