/**
 * The access rules every report, checklist and approval call goes through (spec §6, issue §4):
 * an ADMIN sees every website, CLIENT and STAFF users only the websites bound to them; internal users (STAFF,
 * ADMIN) see every crawl of a website they see, a CLIENT only its APPROVED crawls. Anonymous calls never reach a route (the auth guard answers 401), but the
 * rules refuse them too. Routes answer a refusal exactly as they answer something that does not exist.
 */
import type { FastifyRequest } from 'fastify';
import type { AccessCheck } from '../routes/access.ts';
import type { CrawlRecord } from '../store/registry.ts';
import type { CrawlStates } from '../app-db/crawls.ts';

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
