import { lazy, Suspense } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { useDashboard } from '../layout/dashboard-context.ts';
import { findVisibleReport } from '../../lib/catalog.ts';
import { SECTION_PATH } from '../../lib/routes.ts';
import { formatUrlState, sectionState } from '../../lib/url-state.ts';

/** The report page carries the table, Arrow and the chart: loaded only when a report is opened. */
const ReportPage = lazy(() => import('./report-page.tsx').then((m) => ({ default: m.ReportPage })));

export const REPORT_NOT_FOUND = 'report could not be found.';

export function ReportRoute() {
  const { page, segment, url } = useDashboard();
  const report =
    page.kind === 'report'
      ? findVisibleReport(page.category, page.report, { isHreflang: segment?.isHreflang === true })
      : undefined;

  if (!report) {
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
