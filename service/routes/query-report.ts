/**
 * POST /api/technical-health-check/query/get-report {websiteId, query, dataDateRange?{start,end}, currentId?}
 * → the query report of query-report.ts from the crawl's data sources. The crawl is currentId, else the newest
 * the caller may see; the range defaults to the crawl's dataStart..dataEnd. Refusals answer 404 as elsewhere.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { crawlIdParamSchema } from './crawl-id.ts';
import { queryReport } from '../query-report/query-report.ts';
import type { CrawlRegistry } from '../store/registry.ts';
import type { AccessCheck } from '../auth/access.ts';
import { CRAWL_NOT_FOUND, WEBSITE_NOT_FOUND } from './technical-health-check.ts';
import { readBody } from './read-body.ts';
import { missingSources } from '../source-data/connected.ts';

/** The sources the query report's parts come from. */
const QUERY_REPORT_SOURCES = ['search-console', 'google-ads', 'microsoft-ads', 'trends', 'keyword-planner'] as const;

export interface QueryReportDeps {
  registry: CrawlRegistry;
  db: DuckDBInstance;
  access: AccessCheck;
}

const querySchema = z.object({
  websiteId: z.string().min(1).max(100),
  query: z.string().trim().min(1).max(500),
  dataDateRange: z
    .object({ start: z.iso.date(), end: z.iso.date() })
    .refine((r) => r.start <= r.end, { message: 'start must not be after end' })
    .nullish(),
  currentId: crawlIdParamSchema.nullish(),
});

export function registerQueryReportRoutes(app: FastifyInstance, deps: QueryReportDeps): void {
  const { registry, access } = deps;
  app.post('/api/technical-health-check/query/get-report', async (request, reply) => {
    const body = readBody(querySchema, request, reply);
    if (!body) return reply;
    if (!registry.website(body.websiteId) || !access.canSeeWebsite(request, body.websiteId))
      return reply.code(404).send(WEBSITE_NOT_FOUND);
    const visible = registry.crawls(body.websiteId).filter((c) => access.canSeeCrawl(request, c));
    const current =
      body.currentId === undefined || body.currentId === null
        ? visible[0]
        : visible.find((c) => c.crawlId === body.currentId);
    if (!current) return reply.code(404).send(CRAWL_NOT_FOUND);
    const { dataStart, dataEnd } = current.meta.manifest;
    const report = await queryReport(
      deps.db,
      current,
      body.query,
      body.dataDateRange ?? { start: dataStart, end: dataEnd },
      { dataDir: registry.dataDir, websiteId: body.websiteId, versionId: current.meta.sources?.['search-console'] },
    );
    return { ...report, notConnected: missingSources(current.meta, QUERY_REPORT_SOURCES) };
  });
}
