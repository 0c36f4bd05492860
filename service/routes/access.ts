/**
 * The one place a route asks whether the caller may see a website or a crawl. Routes answer a refusal exactly as
 * they answer something that does not exist (404), so neither leaks which.
 */
import type { FastifyRequest } from 'fastify';
import type { CrawlRecord } from '../store/registry.ts';

export interface AccessCheck {
  canSeeWebsite(req: FastifyRequest, websiteId: string): boolean;
  canSeeCrawl(req: FastifyRequest, record: Pick<CrawlRecord, 'websiteId' | 'crawlId'>): boolean;
}

/** Every website and crawl is visible: the rule until accounts supply theirs. */
export const allowAll: AccessCheck = {
  canSeeWebsite: () => true,
  canSeeCrawl: () => true,
};
