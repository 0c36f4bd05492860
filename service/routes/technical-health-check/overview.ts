/**
 * overview/get-overview {websiteId, currentId, comparisonId?, refresh?} → {moduleId, module, severityMap, comparability?, notice?}:
 * every shown report's rank, rows, Added/Removed (with the removal reasons), the checked rows the crawl verified as
 * fixed and what is at stake on its URLs (catalog/stakes.ts), by severity (spec §7), and the crawl's notice.
 */
import type { FastifyInstance } from 'fastify';
import { catalog, categoryById } from '../../../catalog/index.ts';
import { dataSourceIds, type DataSourceId } from '../../../catalog/data-sources.ts';
import { severities, type ReportDefinition } from '../../../catalog/schema.ts';
import { presentStakeFigures, stakeFrom, type Stake } from '../../../catalog/stakes.ts';
import { comparabilityField } from './comparability.ts';
import type { CrawlTarget } from '../../engine/rows-request.ts';
import { connectedSourcesOf, missingSources, notConnectedFor } from '../../source-data/connected.ts';
import { readBody } from '../read-body.ts';
import { MODULE_ID, overviewSchema, type OverviewEntry } from './payloads.ts';
import { moduleIdOf, type CallResolver } from './report-call.ts';
import { verifiedFixesByReport } from './verified-fixes.ts';

/**
 * A report's entry as one literal, so that every entry has one object shape (`notConnected` is undefined on a connected
 * report's, which JSON leaves out): entries spread from a partial one and extended took a slower shape, which cost 0.3 ms of the overview's 1.0 (server p50, 1M-URL benchmark).
 */
const entryOf = (
  report: ReportDefinition,
  figures: Omit<OverviewEntry, 'tableId' | 'reportId' | 'title' | 'category' | 'severity'>,
): OverviewEntry => ({
  tableId: report.tableId,
  reportId: report.id,
  title: report.title,
  category: report.category,
  severity: report.severity,
  ems_rank: figures.ems_rank,
  ems_lumar_row_count: figures.ems_lumar_row_count,
  added: figures.added,
  removed: figures.removed,
  removedByReason: figures.removedByReason,
  verified: figures.verified,
  stake: figures.stake,
  notConnected: figures.notConnected,
});

/**
 * What is at stake on a report's URLs, of the sources connected; null without one, or without precomputed stakes. Which
 * figures are present depends only on the sources, so it is worked out once for the overview, not per report.
 */
function stakesOf(target: CrawlTarget, connected: ReadonlySet<DataSourceId>): (reportId: string) => Stake | null {
  const present = presentStakeFigures(connected);
  return (reportId) => {
    const sums = target.stakes?.get(reportId);
    return sums && present ? stakeFrom(sums, present) : null;
  };
}

const NOT_CONNECTED_FIGURES = {
  ems_rank: 0,
  ems_lumar_row_count: 0,
  added: null,
  removed: null,
  removedByReason: null,
  verified: null,
  stake: null,
};

export function registerOverviewCalls(app: FastifyInstance, calls: CallResolver): void {
  const { engine } = calls;
  app.post('/api/technical-health-check/overview/get-overview', async (request, reply) => {
    const body = readBody(overviewSchema, request, reply);
    if (!body) return reply;
    if (body.refresh) await calls.deps.registry.refresh();
    const resolved = calls.resolveCrawls(request, reply, body);
    if (!resolved) return reply;
    const { current, comparison } = resolved;
    const currentTarget = await engine.target(current);
    const comparisonTarget = comparison ? await engine.target(comparison) : undefined;
    const shown = catalog.reports.filter((r) => !categoryById(r.category)?.isHidden);
    const { checkedReports, checkedKeys } = calls.deps;
    const verified =
      comparison && checkedReports && checkedKeys
        ? await verifiedFixesByReport(engine, { checkedReports, checkedKeys }, current, comparison)
        : undefined;
    const entries: OverviewEntry[] = [];
    const stakeOfReport = stakesOf(currentTarget, connectedSourcesOf(current.meta));
    for (const report of shown) {
      const notConnected = notConnectedFor(current.meta, report.category);
      if (notConnected) {
        entries.push(entryOf(report, { ...NOT_CONNECTED_FIGURES, notConnected }));
        continue;
      }
      const stats = await engine.stats(report, currentTarget, comparisonTarget, { bypassCache: body.refresh });
      entries.push(
        entryOf(report, {
          ems_rank: stats.emsRank,
          ems_lumar_row_count: stats.rowCount,
          added: stats.added,
          removed: stats.removed,
          removedByReason: stats.removedByReason,
          verified: verified ? (verified.get(report.id) ?? 0) : null,
          stake: stakeOfReport(report.id),
        }),
      );
    }
    const severityMap = Object.fromEntries(
      severities.map((severity) => [
        severity,
        {
          reports: entries
            .filter((e) => e.severity === severity)
            .sort((a, b) => b.ems_rank - a.ems_rank || b.ems_lumar_row_count - a.ems_lumar_row_count),
        },
      ]),
    );
    const notice = await engine.sitemapNotice(currentTarget);
    return {
      moduleId: moduleIdOf(current.websiteId, current.crawlId),
      module: MODULE_ID,
      crawlId: current.crawlId,
      comparisonId: comparison?.crawlId ?? null,
      notConnected: missingSources(current.meta, dataSourceIds),
      severityMap,
      ...comparabilityField(current, comparison),
      ...(notice === undefined ? {} : { notice }),
    };
  });
}
