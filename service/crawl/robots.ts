/** robots.txt as the crawler obeys it: the user agent's group (else `*`), its crawl-delay, and `Sitemap:` lines. */
import robotsParser from 'robots-parser';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay of the matching group, in milliseconds (0 when none). */
  crawlDelayMs: number;
  sitemaps: string[];
}

export const allowAll: RobotsRules = { isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] };

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
