/** Per-report figures from an overview answer, keyed by catalogue report id (`category/report`). */
import type { DataSourceId } from '../../../catalog/data-sources.ts';
import type { RemovalCounts } from '../../../catalog/removal-reasons.ts';
import type { Severity } from '../../../catalog/schema.ts';
import type { Stake } from '../../../catalog/stakes.ts';
import type { Overview, OverviewReport } from '../api/types.ts';
import { toNumber } from '../../../catalog/format.ts';

export interface ReportMetric {
  reportId: string;
  severity: Severity;
  rank: number;
  rows: number;
  added: number | undefined;
  removed: number | undefined;
  /** The removed rows per removal reason; undefined without a comparison. */
  removedByReason?: RemovalCounts | undefined;
  /** Checked rows this crawl removed as fixed; undefined without a comparison. */
  verified?: number | undefined;
  /** What is at stake on its URLs; undefined when no source of it is connected (absent, not zero). */
  stake?: Stake | undefined;
  /** The data source the report needs and the crawl lacks: no figures, not zero. */
  notConnected?: DataSourceId | undefined;
}

export const REPORTED_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE'] as const satisfies readonly Severity[];

function metricOf(report: OverviewReport, severity: Severity): ReportMetric {
  const added = toNumber(report.added);
  const removed = toNumber(report.removed);
  return {
    reportId: report.reportId,
    severity,
    rank: toNumber(report.ems_rank) ?? 0,
    rows: toNumber(report.ems_lumar_row_count) ?? 0,
    added: added ?? undefined,
    removed: removed ?? undefined,
    removedByReason: report.removedByReason ?? undefined,
    verified: toNumber(report.verified) ?? undefined,
    stake: report.stake ?? undefined,
    notConnected: report.notConnected,
  };
}

export function overviewMetrics(overview: Overview | undefined): Map<string, ReportMetric> {
  const metrics = new Map<string, ReportMetric>();
  if (!overview) return metrics;
  for (const severity of REPORTED_SEVERITIES) {
    for (const report of overview.severityMap[severity]?.reports ?? []) {
      metrics.set(report.reportId, metricOf(report, severity));
    }
  }
  return metrics;
}
