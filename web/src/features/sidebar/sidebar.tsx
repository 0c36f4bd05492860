import { useMemo, useState } from 'react';
import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { categories, visibleReports } from '../../lib/catalog.ts';
import { overviewMetrics } from '../../lib/overview-metrics.ts';
import { categoryGroups, groupOfReport, severityGroups } from '../../lib/sidebar-model.ts';
import { formatUrlState, sectionState } from '../../lib/url-state.ts';
import { SECTION_PATH } from '../../lib/routes.ts';
import { Icon } from '../../components/icon.tsx';
import { SidebarGroup } from './sidebar-group.tsx';
import classes from './sidebar.module.css';

export type SidebarView = 'severity' | 'category';
const VIEW_KEY = 'thc:sidebar-view';

function readView(): SidebarView {
  try {
    return window.localStorage.getItem(VIEW_KEY) === 'category' ? 'category' : 'severity';
  } catch {
    return 'severity';
  }
}

/** The 250px sidebar: Overview link, Severity/Category switch and collapsible report groups (spec §2). */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { page, segment, overview, url, reloadOverview } = useDashboard();
  const [view, setView] = useState<SidebarView>(readView);
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({});
  const currentReportId = page.kind === 'report' ? `${page.category}/${page.report}` : undefined;

  const reports = useMemo(() => visibleReports({ isHreflang: segment?.isHreflang === true }), [segment]);
  const overviewData = overview.status === 'success' || overview.status === 'pending' ? overview.data : undefined;
  const metrics = useMemo(() => overviewMetrics(overviewData), [overviewData]);
  const isLoading = overview.status === 'pending' || overview.status === 'idle';
  const isUnavailable = overview.status === 'error';
  const groups = useMemo(
    () => (view === 'severity' ? severityGroups(reports, metrics) : categoryGroups(reports, categories, metrics)),
    [view, reports, metrics],
  );

  // The group holding the current page opens by itself, once per page and view (React's derive-from-props pattern).
  const currentGroup = groupOfReport(groups, currentReportId);
  const openKey = `${view}:${currentGroup ?? ''}`;
  const [autoOpened, setAutoOpened] = useState<string | null>(null);
  if (currentGroup && autoOpened !== openKey) {
    setAutoOpened(openKey);
    setOpenGroups((o) => ({ ...o, [`${view}:${currentGroup}`]: true }));
  }

  const search = formatUrlState(sectionState(url));

  return (
    <nav className={classes.root} aria-label="Technical Health Check reports">
      <div className={classes.top}>
        <Link
          href={`${SECTION_PATH}${search}`}
          className={classes.overviewLink}
          aria-current={page.kind === 'overview' ? 'page' : undefined}
          onClick={onNavigate}
        >
          <Icon name="layout-dashboard" size={18} />
          Overview
        </Link>
        <SegmentedControl
          fullWidth
          size="xs"
          value={view}
          onChange={(value) => {
            const next = value === 'category' ? 'category' : 'severity';
            setView(next);
            try {
              window.localStorage.setItem(VIEW_KEY, next);
            } catch {
              // the choice just won't persist
            }
          }}
          data={[
            { value: 'severity', label: 'Severity' },
            { value: 'category', label: 'Category' },
          ]}
          aria-label="Group reports by"
          data-testid="sidebar-view"
        />
        {isUnavailable ? (
          // On the overview its own error panel offers the retry of the same request.
          <Stack gap={4} mt={8} align="flex-start" role="status" data-testid="sidebar-error">
            <Text size="xs" c="red.9">
              Issue counts could not be loaded.
            </Text>
            {page.kind === 'overview' ? null : (
              <Button size="compact-xs" variant="default" onClick={reloadOverview}>
                Try again
              </Button>
            )}
          </Stack>
        ) : null}
      </div>
      <div className={classes.groups} data-testid={`sidebar-${view}`}>
        {groups.map((group) => {
          const key = `${view}:${group.id}`;
          return (
            <SidebarGroup
              key={key}
              view={view}
              group={group}
              isOpen={openGroups[key] === true}
              onToggle={() => setOpenGroups((o) => ({ ...o, [key]: !o[key] }))}
              metrics={metrics}
              isLoading={isLoading}
              isUnavailable={isUnavailable}
              currentReportId={currentReportId}
              search={search}
              onNavigate={onNavigate}
            />
          );
        })}
      </div>
    </nav>
  );
}
