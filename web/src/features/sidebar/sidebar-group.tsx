import { Collapse } from '@mantine/core';
import { Link } from 'wouter';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import type { ReportMetric } from '../../lib/overview-metrics.ts';
import type { SidebarGroup as SidebarGroupModel } from '../../lib/sidebar-model.ts';
import { reportIndicatorKind } from '../../lib/rank.ts';
import { formatNumber, formatShortCount } from '../../../../catalog/format.ts';
import { reportPath } from '../../lib/routes.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { ReportIndicator } from '../../components/report-indicator.tsx';
import { SEVERITY_COLOURS } from '../../lib/severity.ts';
import classes from './sidebar.module.css';

export interface SidebarGroupProps {
  view: 'severity' | 'category';
  group: SidebarGroupModel<ReportDefinition>;
  isOpen: boolean;
  onToggle: () => void;
  metrics: ReadonlyMap<string, ReportMetric>;
  isLoading: boolean;
  isUnavailable: boolean;
  currentReportId: string | undefined;
  search: string;
  onNavigate: () => void;
}

export function SidebarGroup({
  view,
  group,
  isOpen,
  onToggle,
  metrics,
  isLoading,
  isUnavailable,
  currentReportId,
  search,
  onNavigate,
}: SidebarGroupProps) {
  const listId = `sidebar-${view}-${group.id}`;
  const withIssues = group.reports.filter((r) => r.severity !== 'NONE' && (metrics.get(r.id)?.rows ?? 0) > 0).length;
  return (
    <div data-group={group.id}>
      <button
        type="button"
        className={classes.groupButton}
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={onToggle}
        data-testid={`group-${group.id}`}
        data-view={view}
      >
        <Icon name="chevron-right" size={14} className={`${classes.chevron} ${isOpen ? classes.chevronOpen : ''}`} />
        {view === 'severity' ? (
          <span
            className={classes.severityDot}
            style={{ background: SEVERITY_COLOURS[group.id as keyof typeof SEVERITY_COLOURS] }}
            aria-hidden
          />
        ) : (
          <Icon name={group.icon ?? 'info-circle'} size={16} color="var(--mantine-color-gray-7)" />
        )}
        <span className={classes.groupLabel}>{group.label}</span>
        {!isLoading && withIssues > 0 ? (
          <ToneBadge tone="gray" size="xs" aria-label={`${withIssues} reports with issues`}>
            {withIssues}
          </ToneBadge>
        ) : null}
      </button>
      <Collapse expanded={isOpen} id={listId} transitionDuration={120} keepMounted={false}>
        <ul className={classes.list}>
          {group.reports.map((report) => {
            const metric = metrics.get(report.id);
            const kind = reportIndicatorKind({
              isLoading,
              isUnavailable,
              severity: report.severity,
              rank: metric?.rank,
              rows: metric?.rows,
            });
            return (
              <li key={report.id}>
                <Link
                  href={`${reportPath(report.id)}${search}`}
                  className={classes.reportLink}
                  aria-current={report.id === currentReportId ? 'page' : undefined}
                  onClick={onNavigate}
                  title={report.title}
                  data-report={report.id}
                >
                  <span className={classes.indicator}>
                    <ReportIndicator kind={kind} rank={metric?.rank} rows={metric?.rows} size={20} />
                  </span>
                  <span className={classes.reportTitle}>{report.title}</span>
                  {!isLoading && metric && metric.rows > 0 ? (
                    <span className={classes.reportCount} aria-label={`${formatNumber(metric.rows)} rows`}>
                      {formatShortCount(metric.rows)}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </Collapse>
    </div>
  );
}
