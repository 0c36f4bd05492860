/**
 * The module's calls (spec §7), POST with JSON bodies checked by zod (400 {error, field} on a bad payload):
 *
 *   /api/technical-health-check/crawl/get-redux       {websiteId, currentId?} → crawls newest first
 *   /api/technical-health-check/overview/get-overview {websiteId, currentId, comparisonId?, refresh?}
 *                                                      → {moduleId, module, severityMap}
 *   /api/technical-health-check/report/get-summary    → {trends, differences}
 *   /api/technical-health-check/report/get-rows       → {rows, total, nextCursor} as JSON, or an Arrow IPC stream
 *                                                        when Accept names application/vnd.apache.arrow.stream
 *   /api/technical-health-check/report/export-csv     get-rows' payload without limit, offset and after → the
 *                                                        whole tab as a streamed text/csv attachment
 *
 * Every call asks `access` (the one access check) about the website and each crawl it touches; what the caller
 * may not see answers 404 exactly like what does not exist.
 */
import { Readable } from 'node:stream';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { crawlIdParamSchema } from './crawl-id.ts';
import { readBody } from './read-body.ts';
import { MAX_CRAWL_LIST, MAX_TREND_CRAWLS } from '../../catalog/constants.ts';
import { catalog, categoryById, reportById } from '../../catalog/index.ts';
import { severities, type ReportDefinition, type Severity } from '../../catalog/schema.ts';
import type { ChecklistKey } from '../app-db/checklist.ts';
import {
  ALLOWED_LIMITS,
  checkedKeysRelation,
  differenceTypes,
  MAX_OFFSET,
  MAX_ORDER_BY,
  MAX_USER_FILTER_LENGTH,
  RequestError,
  type CrawlTarget,
  type RowsRequest,
} from '../engine/compile.ts';
import { ReportEngine, tabRequest } from '../engine/engine.ts';
import { rowsOf, toArrowStream } from '../engine/result.ts';
import { csvFileName, exportCsv } from '../export/csv.ts';
import type { ModuleState } from '../store/crawl-meta.ts';
import type { CrawlRecord, CrawlRegistry } from '../store/registry.ts';
import type { AccessCheck } from '../auth/access.ts';

export const MODULE_ID = 'technical-health-check';
export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';
export const TOTAL_COUNT_HEADER = 'x-total-count';
export const CSV_TYPE = 'text/csv; charset=utf-8';
export const REPORT_NOT_FOUND = { error: 'report could not be found.' } as const;
export const WEBSITE_NOT_FOUND = { error: 'website could not be found.' } as const;
export const CRAWL_NOT_FOUND = { error: 'crawl could not be found.' } as const;
export const SEGMENT_NOT_FOUND = { error: 'segment could not be found.' } as const;

/** The checked rows of a report at a crawl (the checklist supplies them; none are checked without it). */
export type CheckedKeysProvider = (websiteId: string, reportId: string, crawlId: number) => Promise<ChecklistKey[]>;

export interface TechnicalHealthCheckDeps {
  registry: CrawlRegistry;
  db: DuckDBInstance;
  access: AccessCheck;
  /** The crawl's module state as approvals left it; defaults to the state recorded at load. */
  moduleStateOf?: (websiteId: string, crawlId: number) => ModuleState;
  checkedKeys?: CheckedKeysProvider;
  /**
   * The URL scope of a website segment (null for the whole site, undefined for an unknown segment); without it
   * segmentId is ignored.
   */
  segmentScope?: (websiteId: string, segmentId: string) => Promise<string | null | undefined>;
  /** A website registered without crawls yet (the app database knows it, the store does not). */
  isKnownWebsite?: (websiteId: string) => Promise<boolean>;
  /** Shared engine (tests, the lead's wiring); one is created otherwise. */
  engine?: ReportEngine;
}

const moduleIdOf = (websiteId: string, crawlId: number): string => `${websiteId}:${crawlId}`;

// Payloads. Ids may arrive as numbers or numeric strings; nulls stand for "not chosen".
const websiteIdSchema = z.string().min(1).max(100);
const crawlIdSchema = crawlIdParamSchema;
const dateSchema = z.iso.date();
const reportIdSchema = z.string().min(1).max(200);

const reportCallSchema = z.object({
  websiteId: websiteIdSchema,
  currentId: crawlIdSchema,
  comparisonId: crawlIdSchema.nullish(),
  reportId: reportIdSchema,
  tableId: z.string().max(100).nullish(),
  segmentId: z.union([z.string().max(100), z.number()]).nullish(),
  dataDateRange: z.object({ start: dateSchema, end: dateSchema }).nullish(),
  channel: z.string().max(200).nullish(),
  differenceType: z.enum(differenceTypes).default('all'),
  showChecked: z.boolean().default(false),
  userFilter: z.string().max(MAX_USER_FILTER_LENGTH).nullish(),
  skipCache: z.boolean().default(false),
});

const summarySchema = reportCallSchema.extend({
  trendCrawlIds: z.array(crawlIdSchema).max(50).nullish(),
});

const orderBySchema = z
  .array(z.object({ id: z.string().min(1).max(100), desc: z.boolean().default(false) }))
  .max(MAX_ORDER_BY)
  .default([]);

const rowsSchema = reportCallSchema.extend({
  limit: z
    .number()
    .int()
    .refine((n) => ALLOWED_LIMITS.includes(n), { message: `limit must be one of ${ALLOWED_LIMITS.join(', ')}` })
    .default(ALLOWED_LIMITS[0]!),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  orderBy: orderBySchema,
  /** Keyset cursor for chunked export: the key values of the last row received. */
  after: z.array(z.string().max(8192)).max(5).nullish(),
});

/** get-rows without paging: the whole tab in the requested order. */
const exportSchema = reportCallSchema.extend({ orderBy: orderBySchema });

const crawlListSchema = z.object({ websiteId: websiteIdSchema, currentId: crawlIdSchema.nullish() });
const overviewSchema = z.object({
  websiteId: websiteIdSchema,
  currentId: crawlIdSchema,
  comparisonId: crawlIdSchema.nullish(),
  refresh: z.boolean().default(false),
});

const severityOrder: readonly Severity[] = severities;

interface OverviewEntry {
  tableId: string;
  reportId: string;
  ems_rank: number;
  ems_lumar_row_count: number;
  added: number | null;
  removed: number | null;
  title: string;
  category: string;
  severity: Severity;
}

export function registerTechnicalHealthCheckRoutes(app: FastifyInstance, deps: TechnicalHealthCheckDeps): void {
  const { registry, access } = deps;
  const engine = deps.engine ?? new ReportEngine(deps.db, registry);
  if (!deps.engine) app.addHook('onClose', () => engine.dispose());
  const moduleStateOf = (record: CrawlRecord): ModuleState =>
    deps.moduleStateOf?.(record.websiteId, record.crawlId) ?? record.meta.moduleState;

  /** Crawls of the website the caller may see, newest first; undefined (and a 404 sent) for a hidden website. */
  const visibleCrawls = (
    request: FastifyRequest,
    reply: FastifyReply,
    websiteId: string,
  ): CrawlRecord[] | undefined => {
    if (!access.canSeeWebsite(request, websiteId) || !registry.website(websiteId)) {
      void reply.code(404).send(WEBSITE_NOT_FOUND);
      return undefined;
    }
    return registry.crawls(websiteId).filter((c) => access.canSeeCrawl(request, c));
  };

  const findCrawl = (crawls: CrawlRecord[], crawlId: number, reply: FastifyReply): CrawlRecord | undefined => {
    const record = crawls.find((c) => c.crawlId === crawlId);
    if (!record) void reply.code(404).send(CRAWL_NOT_FOUND);
    return record;
  };

  /** The chosen comparison, or the next older visible crawl when none was named; null for "none". */
  const comparisonOf = (
    crawls: CrawlRecord[],
    current: CrawlRecord,
    comparisonId: number | null | undefined,
    reply: FastifyReply,
  ): CrawlRecord | null | undefined => {
    if (comparisonId === null) return null;
    if (comparisonId === undefined) return crawls.find((c) => c.crawlId < current.crawlId) ?? null;
    return findCrawl(crawls, comparisonId, reply);
  };

  const findReport = (reportId: string, reply: FastifyReply): ReportDefinition | undefined => {
    const report = reportById(reportId);
    if (!report || categoryById(report.category)?.isHidden) {
      void reply.code(404).send(REPORT_NOT_FOUND);
      return undefined;
    }
    return report;
  };

  const sendRequestError = (reply: FastifyReply, error: unknown): FastifyReply => {
    if (error instanceof RequestError) return reply.code(400).send({ error: error.message, field: error.field });
    throw error;
  };

  /** Resolves what every report call shares; undefined when a reply (400/404) has been sent. */
  const resolveReportCall = async (
    request: FastifyRequest,
    reply: FastifyReply,
    body: z.infer<typeof reportCallSchema>,
  ): Promise<
    | {
        report: ReportDefinition;
        crawls: CrawlRecord[];
        current: CrawlRecord;
        currentTarget: CrawlTarget;
        comparisonTarget: CrawlTarget | undefined;
        base: RowsRequest;
      }
    | undefined
  > => {
    const crawls = visibleCrawls(request, reply, body.websiteId);
    if (!crawls) return undefined;
    const current = findCrawl(crawls, body.currentId, reply);
    if (!current) return undefined;
    const comparison = comparisonOf(crawls, current, body.comparisonId, reply);
    if (comparison === undefined) return undefined;
    const report = findReport(body.reportId, reply);
    if (!report) return undefined;
    let urlScope: string | undefined;
    if (deps.segmentScope && body.segmentId !== undefined && body.segmentId !== null) {
      const scope = await deps.segmentScope(body.websiteId, String(body.segmentId));
      if (scope === undefined) {
        void reply.code(404).send(SEGMENT_NOT_FOUND);
        return undefined;
      }
      urlScope = scope ?? undefined;
    }
    const currentTarget = await engine.target(current);
    const comparisonTarget = comparison ? await engine.target(comparison) : undefined;
    const checkedKeys =
      deps.checkedKeys && report.severity !== 'NONE'
        ? await deps.checkedKeys(body.websiteId, report.id, current.crawlId)
        : [];
    const base: RowsRequest = {
      report,
      current: currentTarget,
      comparison: comparisonTarget,
      dataDateRange: body.dataDateRange ?? currentTarget.defaultRange,
      channel: body.channel || undefined,
      differenceType: body.differenceType,
      userFilter: body.userFilter ?? undefined,
      urlScope,
      showChecked: body.showChecked,
      checked: checkedKeysRelation(report, checkedKeys),
      orderBy: [],
      limit: ALLOWED_LIMITS[0]!,
      offset: 0,
    };
    return { report, crawls, current, currentTarget, comparisonTarget, base };
  };

  app.post('/api/technical-health-check/crawl/get-redux', async (request, reply) => {
    const body = readBody(crawlListSchema, request, reply);
    if (!body) return reply;
    const isEmptyWebsite =
      !registry.website(body.websiteId) &&
      access.canSeeWebsite(request, body.websiteId) &&
      (await deps.isKnownWebsite?.(body.websiteId));
    if (isEmptyWebsite) return [];
    const crawls = visibleCrawls(request, reply, body.websiteId);
    if (!crawls) return reply;
    return crawls
      .filter((c) => body.currentId === undefined || body.currentId === null || c.crawlId <= body.currentId)
      .slice(0, MAX_CRAWL_LIST)
      .map((c) => ({
        id: moduleIdOf(c.websiteId, c.crawlId),
        crawlId: c.crawlId,
        crawledAt: c.meta.manifest.crawledAt,
        crawledFriendly: c.meta.crawledFriendly,
        dataStart: c.meta.manifest.dataStart,
        dataEnd: c.meta.manifest.dataEnd,
        moduleState: moduleStateOf(c),
      }));
  });

  app.post('/api/technical-health-check/overview/get-overview', async (request, reply) => {
    const body = readBody(overviewSchema, request, reply);
    if (!body) return reply;
    if (body.refresh) await registry.refresh();
    const crawls = visibleCrawls(request, reply, body.websiteId);
    if (!crawls) return reply;
    const current = findCrawl(crawls, body.currentId, reply);
    if (!current) return reply;
    const comparison = comparisonOf(crawls, current, body.comparisonId, reply);
    if (comparison === undefined) return reply;
    const currentTarget = await engine.target(current);
    const comparisonTarget = comparison ? await engine.target(comparison) : undefined;
    const shown = catalog.reports.filter((r) => !categoryById(r.category)?.isHidden);
    const entries: OverviewEntry[] = [];
    for (const report of shown) {
      const stats = await engine.stats(report, currentTarget, comparisonTarget, { bypassCache: body.refresh });
      entries.push({
        tableId: report.tableId,
        reportId: report.id,
        ems_rank: stats.emsRank,
        ems_lumar_row_count: stats.rowCount,
        added: stats.added,
        removed: stats.removed,
        title: report.title,
        category: report.category,
        severity: report.severity,
      });
    }
    const severityMap = Object.fromEntries(
      severityOrder.map((severity) => [
        severity,
        {
          reports: entries
            .filter((e) => e.severity === severity)
            .sort((a, b) => b.ems_rank - a.ems_rank || b.ems_lumar_row_count - a.ems_lumar_row_count),
        },
      ]),
    );
    return {
      moduleId: moduleIdOf(current.websiteId, current.crawlId),
      module: MODULE_ID,
      crawlId: current.crawlId,
      comparisonId: comparison?.crawlId ?? null,
      severityMap,
    };
  });

  app.post('/api/technical-health-check/report/get-summary', async (request, reply) => {
    const body = readBody(summarySchema, request, reply);
    if (!body) return reply;
    const call = await resolveReportCall(request, reply, body);
    if (!call) return reply;
    const { report, crawls, current, base } = call;
    const options = { bypassCache: body.skipCache };
    try {
      const count = (differenceType: RowsRequest['differenceType']): Promise<number> =>
        engine.count({ ...base, differenceType }, options);
      const differences = {
        all: await count('all'),
        added: call.comparisonTarget ? await count('added') : 0,
        removed: call.comparisonTarget ? await count('removed') : 0,
      };
      const trends = [];
      if (report.includeTrends) {
        const wanted = body.trendCrawlIds
          ? crawls.filter((c) => body.trendCrawlIds!.includes(c.crawlId))
          : crawls.filter((c) => c.crawlId <= current.crawlId);
        for (const record of wanted.slice(0, MAX_TREND_CRAWLS).reverse()) {
          const target = await engine.target(record);
          const stats = await engine.stats(report, target, undefined, options);
          // A segment's trend counts its own URLs; the rank stays the whole site's.
          const issues = base.urlScope
            ? await engine.count({ ...tabRequest(report, target, undefined, 'all'), urlScope: base.urlScope }, options)
            : stats.rowCount;
          trends.push({
            crawlId: record.crawlId,
            crawledAt: record.meta.manifest.crawledAt,
            crawledFriendly: record.meta.crawledFriendly,
            issues,
            ems_rank: stats.emsRank,
          });
        }
      }
      return { trends, differences };
    } catch (error) {
      return sendRequestError(reply, error);
    }
  });

  app.post('/api/technical-health-check/report/get-rows', async (request, reply) => {
    const body = readBody(rowsSchema, request, reply);
    if (!body) return reply;
    const call = await resolveReportCall(request, reply, body);
    if (!call) return reply;
    const req: RowsRequest = {
      ...call.base,
      orderBy: body.orderBy,
      limit: body.limit,
      offset: body.offset,
      after: body.after ?? undefined,
    };
    try {
      const result = await engine.rows(req, { bypassCache: body.skipCache });
      const rows = rowsOf(result);
      const nextCursor = result.nextCursor ?? null;
      void reply.header(TOTAL_COUNT_HEADER, String(result.total));
      if (request.headers.accept?.includes(ARROW_STREAM_TYPE)) {
        const metadata: Record<string, string> = { reportId: call.report.id };
        if (nextCursor) metadata.nextCursor = JSON.stringify(nextCursor);
        return reply.type(ARROW_STREAM_TYPE).send(Buffer.from(toArrowStream(result, metadata)));
      }
      return { rows, total: result.total, nextCursor };
    } catch (error) {
      return sendRequestError(reply, error);
    }
  });

  app.post('/api/technical-health-check/report/export-csv', async (request, reply) => {
    const body = readBody(exportSchema, request, reply);
    if (!body) return reply;
    const call = await resolveReportCall(request, reply, body);
    if (!call) return reply;
    const req: RowsRequest = { ...call.base, orderBy: body.orderBy };
    try {
      const total = await engine.count(req, { bypassCache: body.skipCache });
      // Compiled before streaming starts, so a bad sort column still answers 400.
      const pieces = exportCsv(deps.db, req, total);
      const first = await pieces.next();
      const fileName = csvFileName(call.report.title);
      return reply
        .header(TOTAL_COUNT_HEADER, String(total))
        .header(
          'content-disposition',
          `attachment; filename="${fileName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .type(CSV_TYPE)
        .send(Readable.from(prepend(first, pieces)));
    } catch (error) {
      return sendRequestError(reply, error);
    }
  });
}

/** The iterator's first result (already taken) followed by the rest. */
async function* prepend<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
