import { ActionIcon, Group, Paper, Text, Title, Tooltip } from '@mantine/core';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { reportHeading } from '../../lib/catalog.ts';
import { SEVERITY_LABELS, SEVERITY_TONES } from '../../lib/severity.ts';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { Icon } from '../../components/icon.tsx';

export interface ReportHeaderProps {
  report: ReportDefinition;
  isRefreshing: boolean;
  onRefresh: () => void;
}

/** The report's heading, severity and description, with the button that refreshes its summary and rows. */
export function ReportHeader({ report, isRefreshing, onRefresh }: ReportHeaderProps) {
  return (
    <Paper withBorder radius="md" p="md" component="header">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} fz={{ base: 'h4', sm: 'h3' }} data-testid="report-title">
              {reportHeading(report)}
            </Title>
            <ToneBadge tone={SEVERITY_TONES[report.severity]} size="sm">
              {SEVERITY_LABELS[report.severity]}
            </ToneBadge>
          </Group>
          <Text size="sm" c="dark.5" mt={4} maw={900}>
            {report.description}
          </Text>
        </div>
        <Tooltip label="Refresh the summary and rows">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Refresh the report"
            onClick={onRefresh}
            loading={isRefreshing}
          >
            <Icon name="refresh" size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}
