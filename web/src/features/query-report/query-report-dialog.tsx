import { useCallback, useEffect, useMemo, useState } from 'react';
import { Center, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS } from '../../../../catalog/constants.ts';
import { fetchQueryReport, type QueryReport } from '../../api/query-report.ts';
import { isAbortError } from '../../api/client.ts';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { formatDate } from '../../../../catalog/format.ts';
import { errorText, type LoadState } from '../../lib/load-state.ts';
import { useDashboard } from '../../lib/dashboard-context.ts';
import { AdsOneSection } from './ads-one-section.tsx';
import { AdsTwoSection } from './ads-two-section.tsx';
import { KeywordPlannerSection } from './keyword-planner-section.tsx';
import { SearchConsoleSection } from './search-console-section.tsx';
import { TrendsSection } from './trends-section.tsx';

/** The query report of spec §2 for one query, over the report page's crawl and date range. */
export function QueryReportDialog({ query, isOpen, onClose }: { query: string; isOpen: boolean; onClose: () => void }) {
  const { website, current, range } = useDashboard();
  const isNarrow = useMediaQuery(`(max-width: ${BREAKPOINTS.md}px)`);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const input = useMemo(
    () => ({
      websiteId: website.id,
      query,
      ...(current ? { currentId: current.crawlId } : {}),
      ...(range ? { dataDateRange: range } : {}),
    }),
    [website.id, query, current, range],
  );
  const key = `${JSON.stringify(input)}#${attempt}`;
  // The answer is kept with the request it answers, so a changed request reads as pending without a reset.
  const [answer, setAnswer] = useState<{ key: string; state: LoadState<QueryReport> }>();
  const state: LoadState<QueryReport> = answer?.key === key ? answer.state : { status: 'pending' };

  useEffect(() => {
    if (!isOpen) return;
    const controller = new AbortController();
    fetchQueryReport(input, controller.signal).then(
      (data) => setAnswer({ key, state: { status: 'success', data } }),
      (error: unknown) => {
        if (!isAbortError(error)) setAnswer({ key, state: { status: 'error', error: errorText(error) } });
      },
    );
    return () => controller.abort();
  }, [isOpen, input, key]);

  const report = state.status === 'success' ? state.data : undefined;
  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      fullScreen={isNarrow}
      size={1120}
      padding="md"
      title={
        <div>
          <Text component="span" fw={650} size="lg">
            Query report: “{query}”
          </Text>
          {report ? (
            <Text size="xs" c="dark.3" data-testid="query-report-range">
              {formatDate(report.dataDateRange.start)} to {formatDate(report.dataDateRange.end)}
              {current ? ` · crawl of ${current.label}` : ''}
            </Text>
          ) : null}
        </div>
      }
      closeButtonProps={{ 'aria-label': 'Close the query report' }}
      data-testid="query-report-dialog"
    >
      {state.status === 'error' ? (
        <FetchErrorPanel area="query-report" onRetry={retry} />
      ) : report ? (
        <Stack gap="sm" data-testid="query-report">
          <SearchConsoleSection report={report} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" verticalSpacing="sm" style={{ alignItems: 'start' }}>
            <AdsOneSection report={report} />
            <Stack gap="sm">
              <KeywordPlannerSection report={report} />
              <TrendsSection report={report} />
              <AdsTwoSection report={report} />
            </Stack>
          </SimpleGrid>
        </Stack>
      ) : (
        <Center h={200}>
          <Loader size="sm" aria-label="Loading the query report" />
        </Center>
      )}
    </Modal>
  );
}
