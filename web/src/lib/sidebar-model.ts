/** Grouping and ordering of the sidebar (spec §2). */
import type { Category, ReportDefinition, Severity } from '../../../catalog/schema.ts';
import type { ReportMetric } from './overview-metrics.ts';

export const SIDEBAR_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const satisfies readonly Severity[];

export type SidebarReport = Pick<ReportDefinition, 'id' | 'category' | 'title' | 'severity'>;

export interface SidebarGroup<R extends SidebarReport = SidebarReport> {
  id: string;
  label: string;
  icon?: string;
  reports: R[];
}

type Metrics = ReadonlyMap<string, Pick<ReportMetric, 'rank' | 'rows'>>;

/** Rank, then row count, both descending; title breaks ties so the order is stable. */
export function compareReports(metrics: Metrics): (a: SidebarReport, b: SidebarReport) => number {
  return (a, b) => {
    const ma = metrics.get(a.id);
    const mb = metrics.get(b.id);
    return (
      (mb?.rank ?? 0) - (ma?.rank ?? 0) || (mb?.rows ?? 0) - (ma?.rows ?? 0) || a.title.localeCompare(b.title, 'en-GB')
    );
  };
}

/** One group per severity CRITICAL, HIGH, MEDIUM, LOW; NONE reports are listed only by category. */
export function severityGroups<R extends SidebarReport>(reports: readonly R[], metrics: Metrics): SidebarGroup<R>[] {
  const order = compareReports(metrics);
  return SIDEBAR_SEVERITIES.map((severity) => ({
    id: severity,
    label: severity.charAt(0) + severity.slice(1).toLowerCase(),
    reports: reports.filter((r) => r.severity === severity).sort(order),
  }));
}

/** One group per category that lists reports, categories sorted by name. */
export function categoryGroups<R extends SidebarReport>(
  reports: readonly R[],
  categories: readonly Pick<Category, 'id' | 'label' | 'icon'>[],
  metrics: Metrics,
): SidebarGroup<R>[] {
  const order = compareReports(metrics);
  return categories
    .map((category) => ({
      id: category.id,
      label: category.label,
      icon: category.icon,
      reports: reports.filter((r) => r.category === category.id).sort(order),
    }))
    .filter((group) => group.reports.length > 0)
    .sort((a, b) => a.label.localeCompare(b.label, 'en-GB'));
}

/** The group holding the current report opens by itself. */
export function groupOfReport(groups: readonly SidebarGroup[], reportId: string | undefined): string | undefined {
  if (!reportId) return undefined;
  return groups.find((g) => g.reports.some((r) => r.id === reportId))?.id;
}
