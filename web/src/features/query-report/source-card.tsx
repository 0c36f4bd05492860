import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { DataSourceId } from '../../../../catalog/data-sources.ts';
import { NotConnectedPanel } from '../../components/not-connected-panel.tsx';
import { useDashboard } from '../../lib/dashboard-context.ts';

export const NO_SOURCE_DATA = 'No data for this query in the date range.';

/**
 * One data source of the query report; when the website lacks the source, its "not connected" state (never the same
 * as the empty state of a connected source that knows nothing of the query).
 */
export function SourceCard({
  id,
  title,
  isEmpty,
  notConnected,
  children,
}: {
  id: string;
  title: string;
  isEmpty: boolean;
  /** The source the website lacks, from the query call's `notConnected`. */
  notConnected?: DataSourceId | undefined;
  children?: ReactNode;
}) {
  const { isInternal } = useDashboard();
  const headingId = `query-source-${id}-title`;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="section"
      aria-labelledby={headingId}
      data-testid={`query-source-${id}`}
      data-empty={notConnected === undefined && isEmpty}
      data-not-connected={notConnected}
      style={{ minWidth: 0 }}
    >
      <Title order={3} fz="sm" id={headingId} mb={6}>
        {title}
      </Title>
      {notConnected ? (
        <NotConnectedPanel source={notConnected} isStaff={isInternal} subject="section" />
      ) : isEmpty ? (
        <Text size="sm" c="dark.3" data-testid="query-source-empty">
          {NO_SOURCE_DATA}
        </Text>
      ) : (
        <Stack gap="sm">{children}</Stack>
      )}
    </Paper>
  );
}
