/** crawl/get-redux {websiteId, currentId?} → the crawls the caller may see, newest first (spec §7). */
import type { FastifyInstance } from 'fastify';
import { MAX_CRAWL_LIST } from '../../../catalog/constants.ts';
import { readBody } from '../read-body.ts';
import { partialOf } from '../../store/crawl-labels.ts';
import { crawlListSchema } from './payloads.ts';
import { moduleIdOf, type CallResolver } from './report-call.ts';

export function registerCrawlCalls(app: FastifyInstance, calls: CallResolver): void {
  const { registry, access } = calls.deps;
  app.post('/api/technical-health-check/crawl/get-redux', async (request, reply) => {
    const body = readBody(crawlListSchema, request, reply);
    if (!body) return reply;
    const isEmptyWebsite =
      !registry.website(body.websiteId) &&
      access.canSeeWebsite(request, body.websiteId) &&
      (await calls.deps.isKnownWebsite?.(body.websiteId));
    if (isEmptyWebsite) return [];
    const crawls = calls.visibleCrawls(request, reply, body.websiteId);
    if (!crawls) return reply;
    return crawls
      .filter((c) => body.currentId === undefined || body.currentId === null || c.crawlId <= body.currentId)
      .slice(0, MAX_CRAWL_LIST)
      .map((c) => ({
        id: moduleIdOf(c.websiteId, c.crawlId),
        crawlId: c.crawlId,
        crawledAt: c.meta.manifest.crawledAt,
        crawledFriendly: c.meta.crawledFriendly,
        label: calls.labelOf(c),
        partial: partialOf(c),
        dataStart: c.meta.manifest.dataStart,
        dataEnd: c.meta.manifest.dataEnd,
        moduleState: calls.moduleStateOf(c),
      }));
  });
}
