/**
 * The module's calls (spec §7), POST with JSON bodies checked by zod (400 {error, field} on a bad payload), one
 * file per call group under technical-health-check/:
 *
 *   crawl.ts     /api/technical-health-check/crawl/get-redux
 *   overview.ts  /api/technical-health-check/overview/get-overview
 *   report.ts    /api/technical-health-check/report/get-summary, get-rows, export-csv
 *
 * Payload schemas and response bodies are in payloads.ts; what every call resolves first (the caller's crawls, the
 * crawl, comparison and report named, the rows request of a report call) in report-call.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ReportEngine } from '../engine/engine.ts';
import { registerCrawlCalls } from './technical-health-check/crawl.ts';
import { registerOverviewCalls } from './technical-health-check/overview.ts';
import { CallResolver, type TechnicalHealthCheckDeps } from './technical-health-check/report-call.ts';
import { registerReportCalls } from './technical-health-check/report.ts';

export {
  ARROW_STREAM_TYPE,
  CRAWL_NOT_FOUND,
  REPORT_NOT_FOUND,
  TOTAL_COUNT_HEADER,
  WEBSITE_NOT_FOUND,
} from './technical-health-check/payloads.ts';
export type { CheckedKeysProvider } from './technical-health-check/report-call.ts';

export function registerTechnicalHealthCheckRoutes(app: FastifyInstance, deps: TechnicalHealthCheckDeps): void {
  const engine = deps.engine ?? new ReportEngine(deps.db, deps.registry);
  if (!deps.engine) app.addHook('onClose', () => engine.dispose());
  const calls = new CallResolver(deps, engine);
  registerCrawlCalls(app, calls);
  registerOverviewCalls(app, calls);
  registerReportCalls(app, calls);
}
