/** Headline totals and per-severity rows of the overview page. */
import type { ReportDefinition, Severity } from '../../../../catalog/schema.ts';
import type { ReportMetric } from '../../lib/overview-metrics.ts';
import { compareReports } from '../../lib/sidebar-model.ts';

export interface OverviewRow {
  report: ReportDefinition;
  metric: ReportMetric | undefined;
  /** Rows now minus rows in the comparison crawl; undefined without a comparison. */
  change: number | undefined;
  added: number | undefined;
  removed: number | undefined;
}

export interface Headline {
  issues: number;
  issuesChange: number | undefined;
  critical: number;
  criticalChange: number | undefined;
  reportsWithIssues: number;
  reportsWithIssuesChange: number | undefined;
  issueReports: number;
  /** 100 minus the mean rank of issue reports: 100 is a clean site. */
  healthScore: number;
  healthScoreChange: number | undefined;
}

type Metrics = ReadonlyMap<string, ReportMetric>;

export function overviewRows(
  reports: readonly ReportDefinition[],
  metrics: Metrics,
  comparison: Metrics | undefined,
): OverviewRow[] {
  return [...reports].sort(compareReports(metrics)).map((report) => {
    const metric = metrics.get(report.id);
    const before = comparison?.get(report.id);
    const change = metric && comparison ? metric.rows - (before?.rows ?? 0) : undefined;
    return { report, metric, change, added: metric?.added, removed: metric?.removed };
  });
}

function totals(reports: readonly ReportDefinition[], metrics: Metrics) {
  const issueReports = reports.filter((r) => r.severity !== 'NONE');
  let issues = 0;
  let critical = 0;
  let withIssues = 0;
  let rankSum = 0;
  for (const report of issueReports) {
    const metric = metrics.get(report.id);
    const rows = metric?.rows ?? 0;
    issues += rows;
    if (report.severity === 'CRITICAL') critical += rows;
    if (rows > 0) withIssues++;
    rankSum += metric?.rank ?? 0;
  }
  const healthScore = issueReports.length ? Math.round(100 - rankSum / issueReports.length) : 100;
  return { issues, critical, withIssues, healthScore, issueReports: issueReports.length };
}

export function headline(
  reports: readonly ReportDefinition[],
  metrics: Metrics,
  comparison: Metrics | undefined,
): Headline {
  const now = totals(reports, metrics);
  const before = comparison ? totals(reports, comparison) : undefined;
  return {
    issues: now.issues,
    issuesChange: before ? now.issues - before.issues : undefined,
    critical: now.critical,
    criticalChange: before ? now.critical - before.critical : undefined,
    reportsWithIssues: now.withIssues,
    reportsWithIssuesChange: before ? now.withIssues - before.withIssues : undefined,
    issueReports: now.issueReports,
    healthScore: now.healthScore,
    healthScoreChange: before ? now.healthScore - before.healthScore : undefined,
  };
}

export function rowsOfSeverity(rows: readonly OverviewRow[], severity: Severity): OverviewRow[] {
  return rows.filter((r) => r.report.severity === severity);
}
