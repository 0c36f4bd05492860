import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { Crawl } from '../../api/types.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { ChangeIndicator } from '../../components/change-indicator.tsx';
import { RingProgress } from '@mantine/core';
import { rankBand } from '../../lib/rank.ts';
import type { Headline } from './overview-model.ts';

interface StatProps {
  label: string;
  value: string;
  detail: string;
  change: number | undefined;
  isRiseGood?: boolean;
  context: string | undefined;
  aside?: React.ReactNode;
  testId: string;
}

function Stat({ label, value, detail, change, isRiseGood, context, aside, testId }: StatProps) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dark.4" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.15} mt={6} c="dark.8" data-value>
            {value}
          </Text>
        </div>
        {aside}
      </Group>
      <Group gap={8} mt={6} wrap="wrap">
        <ChangeIndicator value={change} isRiseGood={isRiseGood} context={context} />
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      </Group>
    </Paper>
  );
}

export function HeadlineStats({
  totals,
  comparison,
  isComparing,
}: {
  totals: Headline;
  comparison: Crawl | undefined;
  isComparing: boolean;
}) {
  const context = comparison ? `since ${comparison.crawledFriendly}` : undefined;
  const since = comparison ? (isComparing ? 'comparing…' : `since ${comparison.crawledFriendly}`) : 'no earlier crawl';
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" component="section" aria-label="Headline totals">
      <Stat
        testId="stat-health"
        label="Health score"
        value={`${totals.healthScore}/100`}
        detail={since}
        change={isComparing ? undefined : totals.healthScoreChange}
        isRiseGood
        context={context}
        aside={
          <RingProgress
            size={48}
            thickness={5}
            roundCaps
            rootColor="gray.2"
            sections={[{ value: totals.healthScore, color: rankBand(100 - totals.healthScore).color }]}
            aria-hidden
          />
        }
      />
      <Stat
        testId="stat-issues"
        label="Issues found"
        value={formatNumber(totals.issues)}
        detail={since}
        change={isComparing ? undefined : totals.issuesChange}
        context={context}
      />
      <Stat
        testId="stat-critical"
        label="Critical issues"
        value={formatNumber(totals.critical)}
        detail={since}
        change={isComparing ? undefined : totals.criticalChange}
        context={context}
      />
      <Stat
        testId="stat-reports"
        label="Reports with issues"
        value={`${formatNumber(totals.reportsWithIssues)} of ${formatNumber(totals.issueReports)}`}
        detail={since}
        change={isComparing ? undefined : totals.reportsWithIssuesChange}
        context={context}
      />
    </SimpleGrid>
  );
}
