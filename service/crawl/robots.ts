/** robots.txt as the crawler obeys it: the user agent's group (else `*`), its crawl-delay, and `Sitemap:` lines. */
import robotsParser from 'robots-parser';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay of the matching group, in milliseconds (0 when none). */
  crawlDelayMs: number;
  sitemaps: string[];
}

export const allowAll: RobotsRules = { isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] };

/**
 * robots.txt's deadline: a small file, and the crawl's first request, so a start URL that never answers is declared
 * unreachable within 30 s (this, then the start URL's own 20 s). A robots.txt that takes longer counts as none.
 */
export const ROBOTS_TIMEOUT_MS = 8000;

export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const robot = robotsParser(robotsUrl, text);
  const delay = robot.getCrawlDelay(userAgent);
  return {
    isAllowed: (url) => robot.isAllowed(url, userAgent) !== false,
    crawlDelayMs: delay === undefined || !Number.isFinite(delay) ? 0 : Math.max(0, delay * 1000),
    sitemaps: robot.getSitemaps(),
  };
}

/** robots.txt's address for the origin of `url`. */
export const robotsUrlOf = (url: string): string => `${new URL(url).origin}/robots.txt`;
