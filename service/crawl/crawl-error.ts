/** A crawl that cannot start or go on, with one line saying why (the CLI prints it and exits non-zero). */
export class CrawlError extends Error {
  override name = 'CrawlError';
}
