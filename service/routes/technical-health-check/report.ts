/**
 * The report calls (spec §7), each resolved by report-call.ts first:
 *
 *   report/get-summary  → {trends, differences}
 *   report/get-rows     → an Arrow IPC stream of the page when Accept names application/vnd.apache.arrow.stream
 *                         (the total in x-total-count and the schema metadata), else {rows, total, nextCursor} as JSON;
 *                         on reports of links filtered by "URLs containing", x-filter-matches (filterMatches in JSON)
 *                         counts the rows matched in the linking page and in the target
 *   report/export-csv   get-rows' payload without limit, offset and after → the whole tab as a streamed text/csv
 *                       attachment
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { NotConnectedAnswer, ReportSummary, TrendPoint } from '../../../catalog/api.ts';
import { dataSource } from '../../../catalog/data-sources.ts';
import { MAX_TREND_CRAWLS } from '../../../catalog/constants.ts';
import { crawlFileLabel } from '../../../catalog/crawl-label.ts';
import { REMOVAL_REASONS, noRemovals, type RemovalReason } from '../../../catalog/removal-reasons.ts';
import { tabRequest, type ReportEngine } from '../../engine/engine.ts';
import type { RunOptions } from '../../engine/execute.ts';
import { rowsOf, toArrowStream } from '../../engine/result.ts';
import type { RowsRequest } from '../../engine/rows-request.ts';
import { csvFileName, exportCsv } from '../../export/csv.ts';
import { readBody } from '../read-body.ts';
import {
  ARROW_STREAM_TYPE,
  CSV_TYPE,
  FILTER_MATCHES_HEADER,
  TOTAL_COUNT_HEADER,
  exportSchema,
  rowsSchema,
  summarySchema,
} from './payloads.ts';
import { notConnectedFor } from '../../source-data/connected.ts';
import { comparabilityField } from './comparability.ts';
import { sendRequestError, type CallResolver, type ReportCall } from './report-call.ts';

export function registerReportCalls(app: FastifyInstance, calls: CallResolver): void {
  registerSummaryCall(app, calls);
  registerRowsCall(app, calls);
  registerExportCall(app, calls);
}

/** The tab's row counts: all, and against the comparison crawl added, removed and removed per reason. */
async function differencesOf(
  engine: ReportEngine,
  call: ReportCall,
  options: RunOptions,
): Promise<ReportSummary['differences']> {
  const count = (differenceType: RowsRequest['differenceType'], removalReason?: RemovalReason): Promise<number> =>
    engine.count({ ...call.base, differenceType, removalReason }, options);
  const removedByReason = noRemovals();
  if (call.comparisonTarget)
    for (const reason of REMOVAL_REASONS) removedByReason[reason] = await count('removed', reason);
  return {
    all: await count('all'),
    added: call.comparisonTarget ? await count('added') : 0,
    removed: call.comparisonTarget ? await count('removed') : 0,
    removedByReason,
  };
}

/** A trend point as get-summary has always sent it: with the crawl's friendly date and the report's rank. */
type SummaryTrendPoint = TrendPoint & { crawledFriendly: string; ems_rank: number };

/** Issues over time: the report's count and rank in the crawls asked for (default: up to the current one). */
async function trendsOf(
  calls: CallResolver,
  call: ReportCall,
  trendCrawlIds: readonly number[] | null | undefined,
  options: RunOptions,
): Promise<SummaryTrendPoint[]> {
  const { engine } = calls;
  const { report, crawls, current, base } = call;
  const trends: SummaryTrendPoint[] = [];
  if (!report.includeTrends) return trends;
  const wanted = trendCrawlIds
    ? crawls.filter((c) => trendCrawlIds.includes(c.crawlId))
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
      label: calls.labelOf(record),
      issues,
      ems_rank: stats.emsRank,
    });
  }
  return trends;
}

function registerSummaryCall(app: FastifyInstance, calls: CallResolver): void {
  const { engine } = calls;
  app.post('/api/technical-health-check/report/get-summary', async (request, reply) => {
    const body = readBody(summarySchema, request, reply);
    if (!body) return reply;
    const call = await calls.resolve(request, reply, body);
    if (!call) return reply;
    const { report, current, base } = call;
    const options = { bypassCache: body.skipCache };
    const notConnected = notConnectedFor(current.meta, report.category);
    if (notConnected)
      return {
        trends: [],
        differences: { all: 0, added: 0, removed: 0, removedByReason: noRemovals() },
        notConnected,
      };
    try {
      const differences = await differencesOf(engine, call, options);
      const trends = await trendsOf(calls, call, body.trendCrawlIds, options);
      const notice = await engine.noticeOf(report, call.currentTarget);
      return {
        trends,
        differences,
        defaultOrder: base.stakeOrder ? 'at-stake' : 'key',
        ...comparabilityField(current, call.comparison),
        ...(notice === undefined ? {} : { notice }),
      };
    } catch (error) {
      return sendRequestError(reply, error);
    }
  });
}

function registerRowsCall(app: FastifyInstance, calls: CallResolver): void {
  const { engine } = calls;
  app.post('/api/technical-health-check/report/get-rows', async (request, reply) => {
    const body = readBody(rowsSchema, request, reply);
    if (!body) return reply;
    const call = await calls.resolve(request, reply, body);
    if (!call) return reply;
    if (refuseNotConnected(reply, call)) return reply;
    const req: RowsRequest = {
      ...call.base,
      orderBy: body.orderBy,
      limit: body.limit,
      offset: body.offset,
      after: body.after ?? undefined,
      // Paging by cursor (after null on the first chunk) continues the key order, never the at-stake one.
      ...(body.after !== undefined && { stakeOrder: undefined }),
    };
    try {
      const [result, filterMatches] = await Promise.all([
        engine.rows(req, { bypassCache: body.skipCache }),
        engine.filterMatches(req, { bypassCache: body.skipCache }),
      ]);
      const nextCursor = result.nextCursor ?? null;
      void reply.header(TOTAL_COUNT_HEADER, String(result.total));
      if (filterMatches) void reply.header(FILTER_MATCHES_HEADER, JSON.stringify(filterMatches));
      if (request.headers.accept?.includes(ARROW_STREAM_TYPE)) {
        const metadata: Record<string, string> = { reportId: call.report.id };
        if (nextCursor) metadata.nextCursor = JSON.stringify(nextCursor);
        const stream = toArrowStream(result, metadata);
        return reply.type(ARROW_STREAM_TYPE).send(Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength));
      }
      return { rows: rowsOf(result), total: result.total, nextCursor, ...(filterMatches && { filterMatches }) };
    } catch (error) {
      return sendRequestError(reply, error);
    }
  });
}

function registerExportCall(app: FastifyInstance, calls: CallResolver): void {
  const { engine } = calls;
  app.post('/api/technical-health-check/report/export-csv', async (request, reply) => {
    const body = readBody(exportSchema, request, reply);
    if (!body) return reply;
    const call = await calls.resolve(request, reply, body);
    if (!call) return reply;
    if (refuseNotConnected(reply, call)) return reply;
    const req: RowsRequest = { ...call.base, orderBy: body.orderBy };
    try {
      const total = await engine.count(req, { bypassCache: body.skipCache });
      // Compiled before streaming starts, so a bad sort column still answers 400.
      const pieces = exportCsv(calls.deps.db, req, total);
      const first = await pieces.next();
      const fileName = csvFileName(`${call.report.title} ${crawlFileLabel(calls.labelOf(call.current))}`);
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

/** Rows of a report whose source the crawl lacks are not an empty table: 409, naming the source. */
function refuseNotConnected(reply: FastifyReply, call: ReportCall): boolean {
  const notConnected = notConnectedFor(call.current.meta, call.report.category);
  if (!notConnected) return false;
  const answer: NotConnectedAnswer = {
    error: `${dataSource(notConnected).title} is not connected for website "${call.current.websiteId}"`,
    notConnected,
  };
  void reply.code(409).send(answer);
  return true;
}

/** The iterator's first result (already taken) followed by the rest. */
async function* prepend<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
