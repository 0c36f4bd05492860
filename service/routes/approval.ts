/**
 * POST /api/technical-health-check/crawl/approve {moduleId, websiteId}
 *   → {moduleId, websiteId, crawlId, moduleState:'APPROVED', approvedAt, approvedBy, isNew}
 *
 * moduleId is `<websiteId>:<crawlId>`, as the overview returns it for its crawl. Internal users only (a CLIENT
 * gets 403); an unknown website or crawl, or a website a STAFF user is not bound to, is 404. Idempotent: approving an approved crawl
 * answers its existing approval with isNew false. Each approval is audit-logged and emails the website's
 * CLIENT users once (see jobs/approval.ts). 404 bodies are the report routes' (website / crawl could not be
 * found); a malformed moduleId, or one of another website than websiteId, is 400.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isCrawlId } from '../../catalog/export-contract.ts';
import { authOf, sendAppError } from '../auth/http.ts';
import { readBody } from './read-body.ts';
import type { AccessCheck } from '../auth/access.ts';
import type { CrawlStates } from '../app-db/crawls.ts';
import type { Approvals } from '../jobs/approval.ts';
import type { CrawlRegistry } from '../store/registry.ts';
import { CRAWL_NOT_FOUND, WEBSITE_NOT_FOUND } from './technical-health-check.ts';

export const INTERNAL_ONLY = { error: 'Only internal users can approve crawls' } as const;

/** The moduleId of a crawl's record in this module. */
export const moduleIdOf = (websiteId: string, crawlId: number): string => `${websiteId}:${crawlId}`;

export function parseModuleId(moduleId: string): { websiteId: string; crawlId: number } | undefined {
  const match = /^([a-z0-9][a-z0-9-]*):([1-9][0-9]{0,9})$/.exec(moduleId);
  return match && isCrawlId(Number(match[2])) ? { websiteId: match[1]!, crawlId: Number(match[2]) } : undefined;
}

const approveSchema = z.object({ moduleId: z.string().min(1).max(200), websiteId: z.string().min(1).max(100) });

export interface ApprovalRouteDeps {
  registry: CrawlRegistry;
  states: CrawlStates;
  approvals: Approvals;
  /** Registers the crawls the loader added since the last sync (AppState.sync). */
  sync: () => Promise<void>;
  access: AccessCheck;
}

export function registerApprovalRoutes(app: FastifyInstance, deps: ApprovalRouteDeps): void {
  const { registry, states, approvals, access } = deps;
  app.post('/api/technical-health-check/crawl/approve', async (request, reply) => {
    const auth = authOf(request);
    if (!auth.isInternal) return reply.code(403).send(INTERNAL_ONLY);
    const body = readBody(approveSchema, request, reply);
    if (!body) return reply;
    const target = parseModuleId(body.moduleId);
    if (!target) return reply.code(400).send({ error: 'Invalid moduleId: expected <websiteId>:<crawlId>' });
    if (target.websiteId !== body.websiteId)
      return reply.code(400).send({ error: `moduleId ${body.moduleId} is not a crawl of ${body.websiteId}` });
    if (!access.canSeeWebsite(request, body.websiteId) || !registry.website(body.websiteId))
      return reply.code(404).send(WEBSITE_NOT_FOUND);
    const record = registry.crawl(target.websiteId, target.crawlId);
    if (!record || !access.canSeeCrawl(request, record)) return reply.code(404).send(CRAWL_NOT_FOUND);
    // The registry may have seen the crawl a moment before the app database did.
    if (!states.get(target.websiteId, target.crawlId)) await deps.sync();
    try {
      const approval = await approvals.approve(target.websiteId, target.crawlId, auth.email);
      return {
        moduleId: moduleIdOf(approval.websiteId, approval.crawlId),
        websiteId: approval.websiteId,
        crawlId: approval.crawlId,
        moduleState: approval.state.moduleState,
        approvedAt: approval.state.approvedAt?.toISOString() ?? null,
        approvedBy: approval.state.approvedBy,
        isNew: approval.isNew,
      };
    } catch (error) {
      return sendAppError(reply, error);
    }
  });
}
