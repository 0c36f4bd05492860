/**
 * Per-host politeness: each host's robots.txt (read once, for the hosts the crawl fetches pages from) and the pause
 * between two requests to it (--delay, raised to robots.txt's crawl-delay when respected).
 */
import type { CrawlOptions } from './crawl-options.ts';
import type { Fetcher } from './fetcher.ts';
import { allowAll, parseRobots, ROBOTS_TIMEOUT_MS, robotsUrlOf, type RobotsRules } from './robots.ts';
import type { Scope } from './scope.ts';

/** The longest crawl-delay obeyed: a robots.txt asking for more (86400 is one page a day) gets this. */
export const MAX_CRAWL_DELAY_MS = 10_000;

export interface HostState {
  rules: RobotsRules;
  delayMs: number;
  nextAt: number;
}

/** `scheme://host:port` of a normalised URL, without parsing it again. */
export const originOf = (url: string): string => {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? url : url.slice(0, slash);
};

export class Hosts {
  private readonly hosts = new Map<string, Promise<HostState>>();
  /** Requests waiting out a host's pause now. */
  pausing = 0;
  /** Hosts whose robots.txt asked for a crawl-delay over MAX_CRAWL_DELAY_MS, and what they asked for. */
  readonly cappedDelays: { origin: string; askedMs: number }[] = [];

  constructor(
    private readonly fetcher: Fetcher,
    private readonly scope: Scope,
    private readonly options: Pick<CrawlOptions, 'delayMs' | 'respectRobots' | 'userAgent'>,
  ) {}

  host(url: string): Promise<HostState> {
    const key = originOf(url);
    let host = this.hosts.get(key);
    if (!host) {
      host = this.load(url);
      this.hosts.set(key, host);
    }
    return host;
  }

  /** robots.txt is read for the hosts the crawl fetches pages from; external hosts only get their links checked. */
  private async load(url: string): Promise<HostState> {
    let rules = allowAll;
    if (this.scope.place(url) === 'internal') {
      const robotsUrl = robotsUrlOf(url);
      const response = await this.fetcher.fetch(robotsUrl, { wantsBody: () => true, timeoutMs: ROBOTS_TIMEOUT_MS });
      if (response.status !== null && response.status >= 200 && response.status < 300 && response.body) {
        rules = parseRobots(robotsUrl, response.body.toString('utf8'), this.options.userAgent);
      }
    }
    const asked = this.options.respectRobots ? rules.crawlDelayMs : 0;
    if (asked > MAX_CRAWL_DELAY_MS) this.cappedDelays.push({ origin: originOf(url), askedMs: asked });
    const crawlDelay = Math.min(asked, MAX_CRAWL_DELAY_MS);
    return { rules, delayMs: Math.max(this.options.delayMs, crawlDelay), nextAt: 0 };
  }

  /** Waits for the host's next slot when a delay applies. */
  async politely(url: string): Promise<void> {
    const host = await this.host(url);
    if (host.delayMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, host.nextAt);
    host.nextAt = at + host.delayMs;
    if (at === now) return;
    this.pausing++;
    try {
      await this.fetcher.pause(at - now);
    } finally {
      this.pausing--;
    }
  }
}
