/** Headline totals and per-severity rows of the overview page. */
import { dataSource, dataSources, type DataSourceId } from '../../../../catalog/data-sources.ts';
import type { RemovalCounts } from '../../../../catalog/removal-reasons.ts';
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
  removedByReason?: RemovalCounts | undefined;
  /** Checked rows this crawl removed as fixed. */
  verified?: number | undefined;
}

export interface Headline {
  issues: number;
  issuesChange: number | undefined;
  critical: number;
  criticalChange: number | undefined;
  reportsWithIssues: number;
  reportsWithIssuesChange: number | undefined;
  issueReports: number;
  /** HEALTH_SCORE_FORMULA, to one decimal: 100 is a clean site. */
  healthScore: number;
  /** The difference of the two rounded scores, so that the figures on the card add up. */
  healthScoreChange: number | undefined;
}

/** Weight of one issue (a row of an issue report) by its report's severity. */
export const SEVERITY_WEIGHTS = { CRITICAL: 8, HIGH: 4, MEDIUM: 2, LOW: 1 } as const satisfies Record<
  Exclude<Severity, 'NONE'>,
  number
>;

/** The report whose rows are every URL of the crawl: the score is per URL, so sites of any size compare. */
export const URLS_REPORT_ID = 'crawl/all';

export const HEALTH_SCORE_FORMULA =
  'Health score = 100 × URLs ÷ (URLs + weighted issues), where weighted issues = 8 × critical + 4 × high + 2 × medium + 1 × low issues and URLs are the crawl’s URLs (All crawled URLs). A clean crawl scores 100; one weighted issue per URL scores 50. The score falls whenever weighted issues per URL rise.';

/** The formula, and which data sources the score includes: reports of a source not connected are left out. */
export function healthScoreHint(notConnected: readonly DataSourceId[]): string {
  const titles = (ids: readonly DataSourceId[]): string => ids.map((id) => dataSource(id).title).join(', ');
  const included = dataSources.filter((s) => s.categories.length > 0 && !notConnected.includes(s.id)).map((s) => s.id);
  const missing = notConnected.filter((id) => dataSource(id).categories.length > 0);
  return `${HEALTH_SCORE_FORMULA} Sources included: the crawl${included.length > 0 ? `, ${titles(included)}` : ''}.${
    missing.length > 0 ? ` Not connected, so left out: ${titles(missing)}.` : ''
  }`;
}

/** HEALTH_SCORE_FORMULA, unrounded. */
export function healthScoreOf(weightedIssues: number, urls: number): number {
  const n = Math.max(urls, 1);
  return (100 * n) / (n + weightedIssues);
}

const toTenths = (value: number): number => Math.round(value * 10) / 10;

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
    return {
      report,
      metric,
      change,
      added: metric?.added,
      removed: metric?.removed,
      removedByReason: metric?.removedByReason,
      verified: metric?.verified,
    };
  });
}

function totals(reports: readonly ReportDefinition[], metrics: Metrics) {
  const issueReports = reports.filter((r) => r.severity !== 'NONE');
  let issues = 0;
  let critical = 0;
  let withIssues = 0;
  let weighted = 0;
  for (const report of issueReports) {
    if (metrics.get(report.id)?.notConnected) continue;
    const rows = metrics.get(report.id)?.rows ?? 0;
    issues += rows;
    if (report.severity === 'CRITICAL') critical += rows;
    if (rows > 0) withIssues++;
    if (report.severity !== 'NONE') weighted += SEVERITY_WEIGHTS[report.severity] * rows;
  }
  const healthScore = toTenths(healthScoreOf(weighted, metrics.get(URLS_REPORT_ID)?.rows ?? 0));
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
    healthScoreChange: before ? toTenths(now.healthScore - before.healthScore) : undefined,
  };
}

export function rowsOfSeverity(rows: readonly OverviewRow[], severity: Severity): OverviewRow[] {
  return rows.filter((r) => r.report.severity === severity);
}
