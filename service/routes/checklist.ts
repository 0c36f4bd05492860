/**
 * POST /api/technical-health-check/checklist/get-items {websiteId, reportId, crawlId}
 *   → {items:[{id, url, subKeys, startCrawlId, checkedBy, checkedAt}]}: the items checked at that crawl.
 * POST /api/technical-health-check/checklist/save {websiteId, setChecked:[{url, subKeys}], setUnchecked:[…],
 *   start (crawl id), submodule (report id), module:'technical-health-check', end:null, differenceType?}
 *   → {checked, unchecked}: how many items changed.
 *
 * Save enforces spec §4/§5 on the server: only on the latest crawl the user can see, never from the Removed tab,
 * never for a NONE-severity report; each violation is a 400 with its reason. subKeys are the values of the
 * report's subKeyColumns, in order ([] when it has none). A website, crawl or report the user may not see, or
 * that does not exist, is 404 with the report calls' bodies.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { crawlIdParamSchema } from './crawl-id.ts';
import { categoryById, reportById, type ReportDefinition } from '../../catalog/index.ts';
import { checkedItemsAt, saveChecklist, type ChecklistKey } from '../app-db/checklist.ts';
import { THC_MODULE } from '../app-db/model.ts';
import { authOf } from '../auth/http.ts';
import { readBody } from './read-body.ts';
import type { AppDb } from '../app-db/db.ts';
import type { CrawlRecord, CrawlRegistry } from '../store/registry.ts';
import type { AccessCheck } from '../auth/access.ts';
import { CRAWL_NOT_FOUND, REPORT_NOT_FOUND, WEBSITE_NOT_FOUND } from './technical-health-check.ts';

const MAX_ITEMS_PER_SAVE = 5000;

const crawlIdSchema = crawlIdParamSchema;
const itemSchema = z.object({
  url: z.string().min(1).max(8192),
  subKeys: z.array(z.string().max(8192)).max(8),
});

const getItemsSchema = z.object({
  websiteId: z.string().min(1).max(100),
  reportId: z.string().min(1).max(200),
  crawlId: crawlIdSchema,
});

const saveSchema = z.object({
  websiteId: z.string().min(1).max(100),
  setChecked: z.array(itemSchema).max(MAX_ITEMS_PER_SAVE).default([]),
  setUnchecked: z.array(itemSchema).max(MAX_ITEMS_PER_SAVE).default([]),
  start: crawlIdSchema,
  submodule: z.string().min(1).max(200),
  module: z.string(),
  end: z.unknown(),
  differenceType: z.enum(['all', 'added', 'removed']).optional(),
  segmentId: z.string().max(100).optional(),
});

const keyOf = (item: ChecklistKey): string => JSON.stringify([item.url, item.subKeys]);

export interface ChecklistRouteDeps {
  registry: CrawlRegistry;
  appDb: AppDb;
  clock: () => Date;
  access: AccessCheck;
}

export function registerChecklistRoutes(
  app: FastifyInstance,
  { registry, appDb, clock, access }: ChecklistRouteDeps,
): void {
  /** The crawl when the user may see it; otherwise answers 404 as the report calls do and resolves undefined. */
  const visibleCrawl = (
    request: FastifyRequest,
    reply: FastifyReply,
    websiteId: string,
    crawlId: number,
  ): CrawlRecord | undefined => {
    if (!access.canSeeWebsite(request, websiteId) || !registry.website(websiteId)) {
      void reply.code(404).send(WEBSITE_NOT_FOUND);
      return undefined;
    }
    const record = registry.crawl(websiteId, crawlId);
    if (record && access.canSeeCrawl(request, record)) return record;
    void reply.code(404).send(CRAWL_NOT_FOUND);
    return undefined;
  };

  const knownReport = (reply: FastifyReply, reportId: string): ReportDefinition | undefined => {
    const report = reportById(reportId);
    if (report && !categoryById(report.category)?.isHidden) return report;
    void reply.code(404).send(REPORT_NOT_FOUND);
    return undefined;
  };

  app.post('/api/technical-health-check/checklist/get-items', async (request, reply) => {
    const body = readBody(getItemsSchema, request, reply);
    if (!body) return reply;
    if (!visibleCrawl(request, reply, body.websiteId, body.crawlId)) return reply;
    if (!knownReport(reply, body.reportId)) return reply;
    const items = await checkedItemsAt(appDb, body.websiteId, body.reportId, body.crawlId);
    return { items: items.map((i) => ({ ...i, checkedAt: i.checkedAt.toISOString() })) };
  });

  app.post('/api/technical-health-check/checklist/save', async (request, reply) => {
    const body = readBody(saveSchema, request, reply);
    if (!body) return reply;
    const record = visibleCrawl(request, reply, body.websiteId, body.start);
    if (!record) return reply;
    const report = knownReport(reply, body.submodule);
    if (!report) return reply;
    const refuse = (error: string) => reply.code(400).send({ error });
    if (body.module !== THC_MODULE) return refuse(`Checklist items belong to the ${THC_MODULE} module`);
    if (body.end !== null) return refuse('end must be null: an item stays checked until it is unchecked');
    if (body.differenceType === 'removed') return refuse('Checklist items cannot be saved from the Removed tab');
    if (report.severity === 'NONE') return refuse(`${report.title} has severity NONE: its rows cannot be checked`);
    const latest = registry.crawls(body.websiteId).find((c) => access.canSeeCrawl(request, c));
    if (latest?.crawlId !== record.crawlId)
      return refuse(`Checklist items can only be saved on the latest crawl (${latest?.crawlId ?? 'none'})`);
    const items = [...body.setChecked, ...body.setUnchecked];
    const subKeyCount = report.subKeyColumns.length;
    if (items.some((i) => i.subKeys.length !== subKeyCount))
      return refuse(
        `Items of ${report.id} take ${subKeyCount} sub-key(s)` +
          (subKeyCount ? ` (${report.subKeyColumns.join(', ')})` : ''),
      );
    const checked = new Set(body.setChecked.map(keyOf));
    if (body.setUnchecked.some((i) => checked.has(keyOf(i))))
      return refuse('An item cannot be both checked and unchecked in one save');
    const result = await appDb.transaction((tx) =>
      saveChecklist(tx, {
        websiteId: body.websiteId,
        reportId: report.id,
        crawlId: record.crawlId,
        setChecked: body.setChecked,
        setUnchecked: body.setUnchecked,
        by: authOf(request).email,
        now: clock(),
      }),
    );
    return result;
  });
}
