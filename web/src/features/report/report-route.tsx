import { lazy, Suspense } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { SECTION_PATH } from '../../lib/routes.ts';
import { formatUrlState, sectionState } from '../../lib/url-state.ts';

/** The report page carries the table, Arrow and the chart: loaded only when a report is opened. */
const ReportPage = lazy(() => import('./report-page.tsx').then((m) => ({ default: m.ReportPage })));

export const REPORT_NOT_FOUND = 'report could not be found.';

/** An unknown report or path: the message alone, without the crawl controls, filters or notices. */
export function ReportNotFound() {
  const { url } = useDashboard();
  return (
    <Paper withBorder radius="md" p="xl" data-testid="report-not-found">
      <Stack gap="xs">
        <Title order={2} fz="h3">
          Report not found
        </Title>
        <Text size="sm" c="dark.5">
          This {REPORT_NOT_FOUND}
        </Text>
        <Text size="sm">
          <Link href={`${SECTION_PATH}${formatUrlState(sectionState(url))}`}>Back to the overview</Link>
        </Text>
      </Stack>
    </Paper>
  );
}

export function ReportRoute({ report }: { report: ReportDefinition }) {
  return (
    <Suspense
      fallback={
        <Stack gap="md" aria-busy="true" aria-label="Loading the report">
          <Skeleton h={72} radius="md" />
          <Skeleton h={300} radius="md" />
        </Stack>
      }
    >
      <ReportPage key={report.id} report={report} />
    </Suspense>
  );
}
