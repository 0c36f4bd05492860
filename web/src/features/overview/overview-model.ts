/** Headline totals and per-severity rows of the overview page. */
import { dataSource, dataSources, type DataSourceId } from '../../../../catalog/data-sources.ts';
import type { RemovalCounts } from '../../../../catalog/removal-reasons.ts';
import type { ReportDefinition, Severity } from '../../../../catalog/schema.ts';
import type { ReportMetric } from '../../lib/overview-metrics.ts';
import { compareReports } from '../../lib/sidebar-model.ts';
import {
  SEVERITY_WEIGHTS,
  TRAFFIC_HEALTH_SCORE_FORMULA,
  compareStakes,
  trafficHealthScoreOf,
  visitsOf,
  type Stake,
} from '../../../../catalog/stakes.ts';

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
  /** What is at stake on its URLs; undefined without a connected source. */
  stake?: Stake | undefined;
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
  /** TRAFFIC_HEALTH_SCORE_FORMULA to one decimal; undefined without search console or analytics (absent, not 100). */
  trafficHealthScore: number | undefined;
  trafficHealthScoreChange: number | undefined;
}

export { SEVERITY_WEIGHTS };

/** The report whose rows are every URL of the crawl: the score is per URL, so sites of any size compare. */
export const URLS_REPORT_ID = 'crawl/all';

export const HEALTH_SCORE_FORMULA =
  'Health score = 100 × URLs ÷ (URLs + weighted issues), where weighted issues = 8 × critical + 4 × high + 2 × medium + 1 × low issues and URLs are the crawl’s URLs (All crawled URLs). A clean crawl scores 100; one weighted issue per URL scores 50. The score falls whenever weighted issues per URL rise.';

/** The formula, and which data sources the score includes: reports of a source not connected are left out. */
export function healthScoreHint(notConnected: readonly DataSourceId[], hasTrafficScore = false): string {
  const titles = (ids: readonly DataSourceId[]): string => ids.map((id) => dataSource(id).title).join(', ');
  const included = dataSources.filter((s) => s.categories.length > 0 && !notConnected.includes(s.id)).map((s) => s.id);
  const missing = notConnected.filter((id) => dataSource(id).categories.length > 0);
  return `${HEALTH_SCORE_FORMULA} Sources included: the crawl${included.length > 0 ? `, ${titles(included)}` : ''}.${
    missing.length > 0 ? ` Not connected, so left out: ${titles(missing)}.` : ''
  }${hasTrafficScore ? ` ${TRAFFIC_HEALTH_SCORE_FORMULA}` : ''}`;
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
      stake: metric?.stake,
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
  const urlsStake = metrics.get(URLS_REPORT_ID)?.stake;
  const traffic = trafficHealthScoreOf(
    urlsStake ? visitsOf(urlsStake) : null,
    issueReports
      .filter((r) => !metrics.get(r.id)?.notConnected)
      .map((r) => {
        const stake = metrics.get(r.id)?.stake;
        return { severity: r.severity, visits: stake ? visitsOf(stake) : null };
      }),
  );
  const trafficHealthScore = traffic === undefined ? undefined : toTenths(traffic);
  return { issues, critical, withIssues, healthScore, trafficHealthScore, issueReports: issueReports.length };
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
    trafficHealthScore: now.trafficHealthScore,
    trafficHealthScoreChange:
      now.trafficHealthScore !== undefined && before?.trafficHealthScore !== undefined
        ? toTenths(now.trafficHealthScore - before.trafficHealthScore)
        : undefined,
  };
}

export function rowsOfSeverity(rows: readonly OverviewRow[], severity: Severity): OverviewRow[] {
  return rows.filter((r) => r.report.severity === severity);
}

/** How the overview orders the reports of a severity: by rank, or by what is at stake on their URLs. */
export type OverviewOrder = 'rank' | 'stake';

/** Rows in `order`; by stake, reports with equal stakes keep their rank order. */
export const orderRows = (rows: readonly OverviewRow[], order: OverviewOrder): OverviewRow[] =>
  order === 'stake' ? [...rows].sort((a, b) => compareStakes(a.stake, b.stake)) : [...rows];

/** Whether any report has a stake: the At stake column and order are offered only then. */
export const hasStakes = (rows: readonly OverviewRow[]): boolean => rows.some((r) => r.stake !== undefined);
