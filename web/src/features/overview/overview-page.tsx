import { useMemo, useState } from 'react';
import { Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { AT_STAKE_FORMULA } from '../../../../catalog/stakes.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { visibleReports } from '../../lib/catalog.ts';
import { overviewMetrics } from '../../lib/overview-metrics.ts';
import { formatUrlState, sectionState } from '../../lib/url-state.ts';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { CrawlNotice } from '../../components/crawl-notice.tsx';
import { useOverviewStore } from '../../stores/overview-store.ts';
import { SIDEBAR_SEVERITIES } from '../../lib/sidebar-model.ts';
import { hasStakes, headline, orderRows, overviewRows, rowsOfSeverity, type OverviewOrder } from './overview-model.ts';
import { HeadlineStats } from './headline-stats.tsx';
import { SeverityCard } from './severity-card.tsx';
import { ReferenceCard } from './reference-card.tsx';

const retryComparison = (websiteId: string, crawlId: number) =>
  useOverviewStore.getState().load(websiteId, crawlId, { refresh: true });

/** The severity map of the current crawl against its comparison: what an account manager opens first. */
export function OverviewPage() {
  const { overview, comparisonOverview, segment, url, reloadOverview, website, ...selection } = useDashboard();
  // A comparison whose overview failed is left out (no change shown) rather than waited for forever.
  const comparison = comparisonOverview.status === 'error' ? undefined : selection.comparison;
  const reports = useMemo(() => visibleReports({ isHreflang: segment?.isHreflang === true }), [segment]);
  const data = overview.status === 'success' ? overview.data : undefined;
  const comparisonData = comparisonOverview.status === 'success' ? comparisonOverview.data : undefined;
  const metrics = useMemo(() => overviewMetrics(data), [data]);
  const comparisonMetrics = useMemo(
    () => (comparison && comparisonData ? overviewMetrics(comparisonData) : undefined),
    [comparison, comparisonData],
  );
  const rows = useMemo(() => overviewRows(reports, metrics, comparisonMetrics), [reports, metrics, comparisonMetrics]);
  const totals = useMemo(() => headline(reports, metrics, comparisonMetrics), [reports, metrics, comparisonMetrics]);
  const search = formatUrlState(sectionState(url));
  const isComparing = comparison !== undefined && comparisonOverview.status !== 'success';
  const [order, setOrder] = useState<OverviewOrder>('rank');
  const isShowingStakes = hasStakes(rows);

  if (overview.status === 'error') return <FetchErrorPanel area="overview" onRetry={reloadOverview} />;
  if (!data) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the overview" data-testid="overview-loading">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={104} radius="md" />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={260} radius="md" />
          ))}
        </SimpleGrid>
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="overview">
      {selection.comparison && comparisonOverview.status === 'error' ? (
        <FetchErrorPanel
          area="comparison"
          onRetry={() => void retryComparison(website.id, selection.comparison!.crawlId)}
        />
      ) : null}
      <HeadlineStats
        totals={totals}
        comparison={comparison}
        isComparing={isComparing}
        hasOnlyPartialOlder={
          selection.comparison === undefined &&
          selection.crawls.some((c) => c.crawlId < (selection.current?.crawlId ?? 0))
        }
        notConnected={data.notConnected}
      />
      <CrawlNotice notice={data.notice} />
      {isShowingStakes ? (
        <Group justify="flex-end" gap="xs">
          <Text size="xs" c="dark.4" fw={600} title={AT_STAKE_FORMULA}>
            Order reports by
          </Text>
          <SegmentedControl
            size="xs"
            aria-label="Order reports by"
            data-testid="overview-order"
            value={order}
            onChange={(value) => setOrder(value)}
            data={[
              { value: 'rank', label: 'Rank' },
              { value: 'stake', label: 'At stake' },
            ]}
          />
        </Group>
      ) : null}
      {/* The At stake column needs the width: two cards a row only on wide screens then. */}
      <SimpleGrid cols={isShowingStakes ? { base: 1, xl: 2 } : { base: 1, lg: 2 }} spacing="md" verticalSpacing="md">
        {SIDEBAR_SEVERITIES.map((severity) => (
          <SeverityCard
            key={severity}
            severity={severity}
            rows={orderRows(rowsOfSeverity(rows, severity), isShowingStakes ? order : 'rank')}
            search={search}
            hasComparison={comparison !== undefined}
            isComparing={isComparing}
            isShowingStakes={isShowingStakes}
          />
        ))}
      </SimpleGrid>
      <ReferenceCard rows={rowsOfSeverity(rows, 'NONE')} search={search} />
    </Stack>
  );
}
