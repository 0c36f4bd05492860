/**
 * What the module's calls share: the caller's visible crawls of a website, the crawl, comparison and report a call
 * names, and, for report calls, the rows request they resolve to. Every step asks `access` (the one access check);
 * what the caller may not see answers 404 exactly like what does not exist. Each step returns undefined once it has
 * sent a 400 or 404.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { categoryById, reportById } from '../../../catalog/index.ts';
import type { ReportDefinition } from '../../../catalog/schema.ts';
import type { ChecklistKey } from '../../app-db/checklist.ts';
import { checkedKeysRelation } from '../../engine/compile.ts';
import type { ReportEngine } from '../../engine/engine.ts';
import { ALLOWED_LIMITS, RequestError, type CrawlTarget, type RowsRequest } from '../../engine/rows-request.ts';
import type { ModuleState } from '../../store/crawl-meta.ts';
import type { CrawlRecord, CrawlRegistry } from '../../store/registry.ts';
import { crawlLabelOf, isPartialCrawl } from '../../store/crawl-labels.ts';
import { defaultComparison } from '../../../catalog/crawl-label.ts';
import type { AccessCheck } from '../../auth/access.ts';
import {
  CRAWL_NOT_FOUND,
  REPORT_NOT_FOUND,
  SEGMENT_NOT_FOUND,
  WEBSITE_NOT_FOUND,
  type ReportCallPayload,
} from './payloads.ts';

/** The checked rows of a report at a crawl (the checklist supplies them; none are checked without it). */
export type CheckedKeysProvider = (websiteId: string, reportId: string, crawlId: number) => Promise<ChecklistKey[]>;

export interface TechnicalHealthCheckDeps {
  registry: CrawlRegistry;
  db: DuckDBInstance;
  access: AccessCheck;
  /** The crawl's module state as approvals left it; defaults to the state recorded at load. */
  moduleStateOf?: (websiteId: string, crawlId: number) => ModuleState;
  checkedKeys?: CheckedKeysProvider;
  /** The reports with an item checked at a crawl; without it the overview counts no verified fixes. */
  checkedReports?: (websiteId: string, crawlId: number) => Promise<string[]>;
  /**
   * The URL scope of a website segment (null for the whole site, undefined for an unknown segment); without it
   * segmentId is ignored.
   */
  segmentScope?: (websiteId: string, segmentId: string) => Promise<string | null | undefined>;
  /** A website registered without crawls yet (the app database knows it, the store does not). */
  isKnownWebsite?: (websiteId: string) => Promise<boolean>;
  /** An engine shared with other users of the same store, so they share its caches; one is created otherwise. */
  engine?: ReportEngine;
}

/** A resolved report call: what get-summary, get-rows and export-csv start from. */
export interface ReportCall {
  report: ReportDefinition;
  crawls: CrawlRecord[];
  current: CrawlRecord;
  currentTarget: CrawlTarget;
  comparisonTarget: CrawlTarget | undefined;
  /** The comparison crawl; null for none. */
  comparison: CrawlRecord | null;
  /** The rows request of the call's tab, first page in the default order. */
  base: RowsRequest;
}

export const moduleIdOf = (websiteId: string, crawlId: number): string => `${websiteId}:${crawlId}`;

export class CallResolver {
  constructor(
    readonly deps: TechnicalHealthCheckDeps,
    readonly engine: ReportEngine,
  ) {}

  moduleStateOf(record: CrawlRecord): ModuleState {
    return this.deps.moduleStateOf?.(record.websiteId, record.crawlId) ?? record.meta.moduleState;
  }

  /** Crawls of the website the caller may see, newest first; undefined (and a 404 sent) for a hidden website. */
  visibleCrawls(request: FastifyRequest, reply: FastifyReply, websiteId: string): CrawlRecord[] | undefined {
    const { access, registry } = this.deps;
    if (!access.canSeeWebsite(request, websiteId) || !registry.website(websiteId)) {
      void reply.code(404).send(WEBSITE_NOT_FOUND);
      return undefined;
    }
    return registry.crawls(websiteId).filter((c) => access.canSeeCrawl(request, c));
  }

  findCrawl(crawls: CrawlRecord[], crawlId: number, reply: FastifyReply): CrawlRecord | undefined {
    const record = crawls.find((c) => c.crawlId === crawlId);
    if (!record) void reply.code(404).send(CRAWL_NOT_FOUND);
    return record;
  }

  /** The crawl's label, unique among its website's crawls (catalog/crawl-label.ts). */
  labelOf(record: CrawlRecord): string {
    return crawlLabelOf(this.deps.registry.crawls(record.websiteId), record);
  }

  /**
   * The chosen comparison, or when none was named the next older visible crawl that is not partial (none when every
   * older one is); null for "none".
   */
  comparisonOf(
    crawls: CrawlRecord[],
    current: CrawlRecord,
    comparisonId: number | null | undefined,
    reply: FastifyReply,
  ): CrawlRecord | null | undefined {
    if (comparisonId === null) return null;
    if (comparisonId === undefined) return defaultComparison(crawls, current.crawlId, isPartialCrawl) ?? null;
    return this.findCrawl(crawls, comparisonId, reply);
  }

  findReport(reportId: string, reply: FastifyReply): ReportDefinition | undefined {
    const report = reportById(reportId);
    if (!report || categoryById(report.category)?.isHidden) {
      void reply.code(404).send(REPORT_NOT_FOUND);
      return undefined;
    }
    return report;
  }

  /** The caller's crawls of the website, the current crawl and the comparison (null for none) a call names. */
  resolveCrawls(
    request: FastifyRequest,
    reply: FastifyReply,
    body: { websiteId: string; currentId: number; comparisonId?: number | null | undefined },
  ): { crawls: CrawlRecord[]; current: CrawlRecord; comparison: CrawlRecord | null } | undefined {
    const crawls = this.visibleCrawls(request, reply, body.websiteId);
    if (!crawls) return undefined;
    const current = this.findCrawl(crawls, body.currentId, reply);
    if (!current) return undefined;
    const comparison = this.comparisonOf(crawls, current, body.comparisonId, reply);
    if (comparison === undefined) return undefined;
    return { crawls, current, comparison };
  }

  /** Resolves what every report call shares. */
  async resolve(
    request: FastifyRequest,
    reply: FastifyReply,
    body: ReportCallPayload,
  ): Promise<ReportCall | undefined> {
    const { deps, engine } = this;
    const resolved = this.resolveCrawls(request, reply, body);
    if (!resolved) return undefined;
    const { crawls, current, comparison } = resolved;
    const report = this.findReport(body.reportId, reply);
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
      removalReason: body.removalReason ?? undefined,
      userFilter: body.userFilter ?? undefined,
      urlScope,
      showChecked: body.showChecked,
      checked: checkedKeysRelation(report, checkedKeys),
      checklistState:
        report.severity !== 'NONE' && (body.showChecked || body.differenceType === 'removed')
          ? {
              crawlId: current.crawlId,
              isStaff: (request.auth?.role ?? 'CLIENT') !== 'CLIENT',
              crawlLabel: this.labelOf(current),
            }
          : undefined,
      orderBy: [],
      stakeOrder: currentTarget.stakeOrder,
      limit: ALLOWED_LIMITS[0]!,
      offset: 0,
    };
    return { report, crawls, current, currentTarget, comparisonTarget, comparison, base };
  }
}

/** A request the compiler refused answers 400 naming the field; anything else is rethrown. */
export function sendRequestError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof RequestError) return reply.code(400).send({ error: error.message, field: error.field });
  throw error;
}
