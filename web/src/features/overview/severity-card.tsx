import { useState } from 'react';
import { Button, Group, Paper, Table, Text } from '@mantine/core';
import type { Severity } from '../../../../catalog/schema.ts';
import { categoryLabel } from '../../lib/catalog.ts';
import { formatNumber, formatShortCount } from '../../../../catalog/format.ts';
import { AT_STAKE_FORMULA, moneyOf, stakeText, visitsOf, type Stake } from '../../../../catalog/stakes.ts';
import { reportIndicatorKind } from '../../lib/rank.ts';
import { SEVERITY_COLOURS, SEVERITY_LABELS } from '../../lib/severity.ts';
import { ChangeIndicator } from '../../components/change-indicator.tsx';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { ReportIndicator } from '../../components/report-indicator.tsx';
import { removalSplitText } from '../../../../catalog/removal-reasons.ts';
import { ReportTitleLink } from './report-title-link.tsx';
import type { OverviewRow } from './overview-model.ts';

export interface SeverityCardProps {
  severity: Severity;
  rows: OverviewRow[];
  search: string;
  hasComparison: boolean;
  isComparing: boolean;
  /** Some report has a stake: the At stake column is shown. */
  isShowingStakes?: boolean;
}

/** One severity of the severity map: its reports with rank, rows and change, worst first. */
export function SeverityCard(props: SeverityCardProps) {
  const { severity, rows, search, hasComparison, isComparing, isShowingStakes = false } = props;
  const [isShowingClean, setShowingClean] = useState(false);
  const withIssues = rows.filter((r) => (r.metric?.rows ?? 0) > 0 || (r.metric?.rank ?? 0) > 0);
  const clean = rows.filter((r) => !withIssues.includes(r));
  const total = withIssues.reduce((n, r) => n + (r.metric?.rows ?? 0), 0);
  const headingId = `severity-${severity.toLowerCase()}`;
  const shown = isShowingClean ? [...withIssues, ...clean] : withIssues;

  return (
    <Paper withBorder radius="md" component="section" aria-labelledby={headingId} data-severity={severity}>
      <Group
        justify="space-between"
        px="md"
        py="sm"
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      >
        <Group gap={8} wrap="nowrap">
          <span
            aria-hidden
            style={{ width: 10, height: 10, borderRadius: 3, background: SEVERITY_COLOURS[severity], flex: 'none' }}
          />
          <Text component="h2" id={headingId} fw={700} size="md" m={0}>
            {SEVERITY_LABELS[severity]}
          </Text>
          <Text size="xs" c="dark.3">
            {withIssues.length} of {rows.length} reports with issues
          </Text>
        </Group>
        <ToneBadge tone="gray" size="md" aria-label={`${formatNumber(total)} rows in total`}>
          {formatNumber(total)} rows
        </ToneBadge>
      </Group>
      {shown.length > 0 ? (
        <Table verticalSpacing={6} horizontalSpacing="md" fz="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={52}>
                <Text span size="xs" c="dark.4" fw={600}>
                  Rank
                </Text>
              </Table.Th>
              <Table.Th>
                <Text span size="xs" c="dark.4" fw={600}>
                  Report
                </Text>
              </Table.Th>
              <Table.Th ta="right" w={90}>
                <Text span size="xs" c="dark.4" fw={600}>
                  Rows
                </Text>
              </Table.Th>
              {isShowingStakes ? (
                <Table.Th ta="right" w={90} style={{ whiteSpace: 'nowrap' }}>
                  <Text span size="xs" c="dark.4" fw={600} title={AT_STAKE_FORMULA}>
                    At stake
                  </Text>
                </Table.Th>
              ) : null}
              <Table.Th ta="right" w={100}>
                <Text span size="xs" c="dark.4" fw={600}>
                  Change
                </Text>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <OverviewReportRow
                key={row.report.id}
                row={row}
                search={search}
                hasComparison={hasComparison}
                isComparing={isComparing}
                isShowingStakes={isShowingStakes}
              />
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {withIssues.length === 0 && !isShowingClean ? (
        <Group gap={8} px="md" py="md">
          <ReportIndicator kind="clean" size={20} />
          <Text size="sm" c="dark.5">
            No {SEVERITY_LABELS[severity].toLowerCase()} issues in this crawl.
          </Text>
        </Group>
      ) : null}
      {clean.length > 0 ? (
        <Group px="md" py={6} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Button
            variant="subtle"
            size="compact-xs"
            color="gray"
            c="dark.5"
            onClick={() => setShowingClean((v) => !v)}
            aria-expanded={isShowingClean}
            leftSection={<Icon name={isShowingClean ? 'minus' : 'plus'} size={12} />}
          >
            {isShowingClean ? 'Hide' : 'Show'} {clean.length} report{clean.length === 1 ? '' : 's'} without issues
          </Button>
        </Group>
      ) : null}
    </Paper>
  );
}

function OverviewReportRow({
  row,
  search,
  hasComparison,
  isComparing,
  isShowingStakes,
}: {
  row: OverviewRow;
  search: string;
  hasComparison: boolean;
  isComparing: boolean;
  isShowingStakes: boolean;
}) {
  const { report, metric } = row;
  const kind = reportIndicatorKind({
    isLoading: false,
    severity: report.severity,
    rank: metric?.rank,
    rows: metric?.rows,
  });
  return (
    <Table.Tr data-report={report.id}>
      <Table.Td>
        <ReportIndicator kind={kind} rank={metric?.rank} rows={metric?.rows} size={30} />
      </Table.Td>
      <Table.Td>
        <ReportTitleLink report={report} search={search} />
        <Text size="xs" c="dark.3">
          {categoryLabel(report.category)}
          {metric && metric.rank > 0 ? ` · rank ${metric.rank}` : ''}
        </Text>
      </Table.Td>
      <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {metric?.notConnected ? (
          <Text span size="xs" c="dimmed" data-testid="not-connected">
            not connected
          </Text>
        ) : (
          formatNumber(metric?.rows ?? 0)
        )}
      </Table.Td>
      {isShowingStakes ? (
        <Table.Td ta="right">
          <StakeCell stake={row.stake} />
        </Table.Td>
      ) : null}
      <Table.Td>
        <Group justify="flex-end">
          {isComparing ? (
            <Text size="xs" c="dimmed">
              …
            </Text>
          ) : hasComparison ? (
            <ChangeCell row={row} />
          ) : (
            <Text size="xs" c="dimmed">
              –
            </Text>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Visits at stake, and below them the money at stake; every figure in the tooltip. */
function StakeCell({ stake }: { stake: Stake | undefined }) {
  if (!stake)
    return (
      <Text span size="xs" c="dimmed">
        –
      </Text>
    );
  const visits = visitsOf(stake);
  const money = moneyOf(stake);
  return (
    <div
      title={stakeText(stake)}
      data-testid="stake"
      data-visits={visits ?? undefined}
      style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
    >
      <Text size="sm">{visits === null ? '–' : formatShortCount(visits)}</Text>
      {money !== null && money > 0 ? (
        <Text size="xs" c="dark.3">
          £{formatShortCount(Math.round(money))}
        </Text>
      ) : null}
    </div>
  );
}

/**
 * The change since the comparison, its tooltip the Added and Removed counts; the removed rows fixed, and of those
 * the checked ones (the checklist's fixes this crawl verified).
 */
function ChangeCell({ row }: { row: OverviewRow }) {
  const fixed = row.removedByReason?.fixed ?? 0;
  const verified = row.verified ?? 0;
  const split = row.removedByReason && (row.removed ?? 0) > 0 ? ` (${removalSplitText(row.removedByReason)})` : '';
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end" style={{ whiteSpace: 'nowrap' }}>
      {fixed > 0 ? (
        <Text size="xs" c="#1e6b2f" fw={600} data-testid="fixed-count">
          {formatNumber(fixed)} fixed
        </Text>
      ) : null}
      {verified > 0 ? (
        <ToneBadge
          tone="green"
          size="xs"
          data-testid="verified-count"
          title="Checked rows this crawl verified as fixed"
        >
          {formatNumber(verified)} verified
        </ToneBadge>
      ) : null}
      <span
        title={
          row.added !== undefined && row.removed !== undefined
            ? `${formatNumber(row.added)} added, ${formatNumber(row.removed)} removed${split}`
            : undefined
        }
      >
        <ChangeIndicator value={row.change} />
      </span>
    </Group>
  );
}
