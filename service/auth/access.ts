/**
 * The one place a route asks whether the caller may see a website or a crawl, and the rules that answer it
 * (spec §6): an ADMIN sees every website, CLIENT and STAFF users only the websites bound to them; internal users
 * (STAFF, ADMIN) see every crawl of a website they see, a CLIENT only its APPROVED crawls. Anonymous calls never
 * reach a route (the auth guard answers 401), but the rules refuse them too. Routes answer a refusal exactly as
 * they answer something that does not exist (404), so neither leaks which.
 */
import type { FastifyRequest } from 'fastify';
import type { CrawlStates } from '../app-db/crawls.ts';
import type { CrawlRecord } from '../store/registry.ts';

export interface AccessCheck {
  canSeeWebsite(req: FastifyRequest, websiteId: string): boolean;
  canSeeCrawl(req: FastifyRequest, record: Pick<CrawlRecord, 'websiteId' | 'crawlId'>): boolean;
}

export function createAccessCheck(states: CrawlStates): AccessCheck {
  const canSeeWebsite = (req: FastifyRequest, websiteId: string): boolean => {
    const auth = req.auth;
    if (!auth) return false;
    return auth.seesAllWebsites || auth.websites.has(websiteId);
  };
  return {
    canSeeWebsite,
    canSeeCrawl(req, record: Pick<CrawlRecord, 'websiteId' | 'crawlId'>) {
      if (!canSeeWebsite(req, record.websiteId)) return false;
      return req.auth!.isInternal || states.moduleStateOf(record.websiteId, record.crawlId) === 'APPROVED';
    },
  };
}
