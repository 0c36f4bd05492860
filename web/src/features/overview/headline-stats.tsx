import { Group, Paper, RingProgress, SimpleGrid, Text, Tooltip } from '@mantine/core';
import type { Crawl } from '../../api/types.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { ChangeIndicator } from '../../components/change-indicator.tsx';
import { Icon } from '../../components/icon.tsx';
import { rankBand } from '../../lib/rank.ts';
import { healthScoreHint, type Headline } from './overview-model.ts';
import type { DataSourceId } from '../../../../catalog/data-sources.ts';

interface StatProps {
  label: string;
  value: string;
  detail: string;
  change: number | undefined;
  isRiseGood?: boolean;
  context: string | undefined;
  aside?: React.ReactNode;
  /** How the figure is computed, shown on hovering or focusing the label. */
  hint?: string;
  /** Replaces the whole-number change indicator (the health score changes by tenths). */
  changeView?: React.ReactNode;
  /** A companion figure under the card's own. */
  companion?: React.ReactNode;
  testId: string;
}

function Stat(props: StatProps) {
  const { label, value, detail, change, isRiseGood, context, aside, hint, changeView, companion, testId } = props;
  const labelText = (
    <Text size="xs" c="dark.4" fw={600} tt="uppercase" style={{ letterSpacing: '0.04em' }} span={Boolean(hint)}>
      {label}
    </Text>
  );
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          {hint ? (
            <Tooltip
              label={hint}
              multiline
              w={320}
              withArrow
              openDelay={200}
              events={{ hover: true, focus: true, touch: true }}
            >
              <Group
                gap={4}
                wrap="nowrap"
                tabIndex={0}
                aria-label={`${label}: ${hint}`}
                data-hint
                style={{ cursor: 'help' }}
              >
                {labelText}
                <Icon name="info-circle" size={13} color="var(--mantine-color-dark-3)" />
              </Group>
            </Tooltip>
          ) : (
            labelText
          )}
          <Text fz={28} fw={700} lh={1.15} mt={6} c="dark.8" data-value>
            {value}
          </Text>
        </div>
        {aside}
      </Group>
      <Group gap={8} mt={6} wrap="wrap">
        {changeView ?? <ChangeIndicator value={change} isRiseGood={isRiseGood} context={context} />}
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      </Group>
      {companion}
    </Paper>
  );
}

/**
 * The score's change to one decimal, coloured as ChangeIndicator colours a change; a change under 0.05 is no
 * change, as the two rounded scores then agree.
 */
function ScoreChange({ value, context }: { value: number | undefined; context: string | undefined }) {
  if (value === undefined || value === 0) return <ChangeIndicator value={value} context={context} />;
  const color = value > 0 ? '#1e6b2f' : '#a61e1e';
  const text = `${value > 0 ? '+' : '-'}${formatNumber(Math.abs(value), 1)}`;
  return (
    <Group
      gap={2}
      wrap="nowrap"
      c={color}
      role="img"
      aria-label={`${value > 0 ? 'Up' : 'Down'} ${formatNumber(Math.abs(value), 1)}${context ? ` ${context}` : ''}`}
      data-change={value}
    >
      <Icon name={value > 0 ? 'arrow-up' : 'arrow-down'} size={12} stroke={2.4} />
      <Text size="xs" fw={600} c={color} span aria-hidden>
        {text}
      </Text>
    </Group>
  );
}

export function HeadlineStats({
  totals,
  comparison,
  isComparing,
  hasOnlyPartialOlder = false,
  notConnected = [],
}: {
  totals: Headline;
  comparison: Crawl | undefined;
  isComparing: boolean;
  /** Every older crawl is partial, so none is compared with by default. */
  hasOnlyPartialOlder?: boolean;
  /** The data sources the crawl lacks: the score leaves out the reports that need them. */
  notConnected?: readonly DataSourceId[] | undefined;
}) {
  const context = comparison ? `since ${comparison.label}` : undefined;
  const none = hasOnlyPartialOlder ? 'no full earlier crawl' : 'no earlier crawl';
  const since = comparison ? (isComparing ? 'comparing…' : `since ${comparison.label}`) : none;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" component="section" aria-label="Headline totals">
      <Stat
        testId="stat-health"
        label="Health score"
        value={`${formatNumber(totals.healthScore, 1)}/100`}
        detail={since}
        change={isComparing ? undefined : totals.healthScoreChange}
        changeView={<ScoreChange value={isComparing ? undefined : totals.healthScoreChange} context={context} />}
        hint={healthScoreHint(notConnected, totals.trafficHealthScore !== undefined)}
        context={context}
        companion={
          totals.trafficHealthScore === undefined ? null : (
            <Group gap={6} mt={6} wrap="nowrap" data-testid="stat-traffic-health">
              <Text size="xs" c="dark.5" style={{ whiteSpace: 'nowrap' }}>
                Traffic-weighted{' '}
                <Text span fw={700} c="dark.8" data-value>
                  {formatNumber(totals.trafficHealthScore, 1)}/100
                </Text>
              </Text>
              <ScoreChange value={isComparing ? undefined : totals.trafficHealthScoreChange} context={context} />
            </Group>
          )
        }
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
