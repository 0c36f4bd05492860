import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';

export const NO_SOURCE_DATA = 'No data for this query in the date range.';

/** One data source of the query report, or its empty state when the source knows nothing of the query. */
export function SourceCard({
  id,
  title,
  isEmpty,
  children,
}: {
  id: string;
  title: string;
  isEmpty: boolean;
  children?: ReactNode;
}) {
  const headingId = `query-source-${id}-title`;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="section"
      aria-labelledby={headingId}
      data-testid={`query-source-${id}`}
      data-empty={isEmpty}
      style={{ minWidth: 0 }}
    >
      <Title order={3} fz="sm" id={headingId} mb={6}>
        {title}
      </Title>
      {isEmpty ? (
        <Text size="sm" c="dark.3" data-testid="query-source-empty">
          {NO_SOURCE_DATA}
        </Text>
      ) : (
        <Stack gap="sm">{children}</Stack>
      )}
    </Paper>
  );
}
