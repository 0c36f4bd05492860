/**
 * POST /api/ai/get-data {url, type: 'page-title'|'meta-description', websiteId} → the suggested text (text/plain).
 *
 * The same session and access check as the report calls: a website the caller may not see answers 404, and the
 * page is looked up in the newest crawl the caller may see. Offered only for websites whose default segment has
 * AI enabled and for rows with http_status_code 200; otherwise 400 {error}.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NoSuggestionError, type AiSuggestions } from '../ai/suggestions.ts';
import { suggestionTypes } from '../ai/provider.ts';
import type { CrawlRegistry } from '../store/registry.ts';
import type { AccessCheck } from '../auth/access.ts';
import { CRAWL_NOT_FOUND, WEBSITE_NOT_FOUND } from './technical-health-check.ts';
import { readBody } from './read-body.ts';

export const AI_NOT_ENABLED = { error: 'AI suggestions are not enabled for this website.' } as const;
export const AI_NEEDS_STATUS_200 = {
  error: 'AI suggestions are offered only for pages with http_status_code 200.',
} as const;
export const URL_NOT_FOUND = { error: 'url could not be found.' } as const;

export interface AiRouteDeps {
  registry: CrawlRegistry;
  access: AccessCheck;
  suggestions: AiSuggestions;
  /** Whether the website's default segment has AI enabled; left out (route unit tests), every website has. */
  isAiWebsite?: (websiteId: string) => Promise<boolean>;
  /** The website's name as the dashboard shows it; the store's (named after its host by a first crawl) else. */
  websiteName?: (websiteId: string) => Promise<string | undefined>;
}

const aiCallSchema = z.object({
  url: z.string().min(1).max(8192),
  type: z.enum(suggestionTypes),
  websiteId: z.string().min(1).max(100),
});

export function registerAiRoutes(app: FastifyInstance, deps: AiRouteDeps): void {
  const { registry, access, suggestions } = deps;

  app.post('/api/ai/get-data', async (request, reply) => {
    const body = readBody(aiCallSchema, request, reply);
    if (!body) return reply;
    const website = registry.website(body.websiteId);
    if (!website || !access.canSeeWebsite(request, body.websiteId)) return reply.code(404).send(WEBSITE_NOT_FOUND);
    const current = registry.crawls(body.websiteId).find((c) => access.canSeeCrawl(request, c));
    if (!current) return reply.code(404).send(CRAWL_NOT_FOUND);
    if (deps.isAiWebsite && !(await deps.isAiWebsite(body.websiteId))) return reply.code(400).send(AI_NOT_ENABLED);
    const name = (await deps.websiteName?.(body.websiteId)) ?? website.name;
    const page = await suggestions.page(current, name, body.url);
    if (!page) return reply.code(404).send(URL_NOT_FOUND);
    if (page.httpStatusCode !== 200) return reply.code(400).send(AI_NEEDS_STATUS_200);
    try {
      const suggestion = await suggestions.suggest(current, body.type, page.facts);
      void reply.header('x-ai-provider', suggestion.provider);
      return reply.type('text/plain; charset=utf-8').send(suggestion.text);
    } catch (error) {
      if (error instanceof NoSuggestionError) return reply.code(422).send({ error: error.message });
      throw error;
    }
  });
}
