import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { categoryLabel } from '../../lib/catalog.ts';
import { formatNumber } from '../../../../catalog/format.ts';
import { ReportIndicator } from '../../components/report-indicator.tsx';
import { ReportTitleLink } from './report-title-link.tsx';
import type { OverviewRow } from './overview-model.ts';

/** NONE-severity reports: reference listings with a lock, no rank. */
export function ReferenceCard({ rows, search }: { rows: OverviewRow[]; search: string }) {
  if (rows.length === 0) return null;
  return (
    <Paper withBorder radius="md" component="section" aria-labelledby="reference-listings" p="md">
      <Group gap={8} mb="sm">
        <Text component="h2" id="reference-listings" fw={700} size="md" m={0}>
          Reference listings
        </Text>
        <Text size="xs" c="dark.3">
          Inventories of the crawl, not issues
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="xs" verticalSpacing="xs">
        {rows.map(({ report, metric }) => (
          <Group key={report.id} gap={10} wrap="nowrap" data-report={report.id}>
            <ReportIndicator kind="locked" size={24} />
            <div style={{ minWidth: 0 }}>
              <ReportTitleLink report={report} search={search} />
              <Text size="xs" c="dark.3">
                {categoryLabel(report.category)} · {formatNumber(metric?.rows ?? 0)} rows
              </Text>
            </div>
          </Group>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
