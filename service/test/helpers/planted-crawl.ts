import type { CrawlOptions } from '../../crawl/crawl-options.ts';

export const PLANTED_WEBSITE = 'planted';

/** How the tests crawl the planted site (helpers/planted-site.ts): all of it, as fast as it answers. */
export const plantedCrawlOptions = (origin: string, outDir: string, render: number): CrawlOptions => ({
  startUrl: `${origin}/`,
  outDir,
  websiteId: PLANTED_WEBSITE,
  crawlId: 1,
  maxUrls: 10_000,
  maxDepth: 100,
  concurrency: 8,
  delayMs: 0,
  userAgent: 'thc-planted-test',
  respectRobots: true,
  includeSubdomains: false,
  include: [],
  exclude: [],
  sitemaps: [],
  render,
});
