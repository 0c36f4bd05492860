import { useState } from 'react';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { Icon } from '../../components/icon.tsx';
import { QueryReportDialog } from './query-report-dialog.tsx';

/** A cell carrying a search query: the query, and a button that opens its query report (spec §2). */
export function QueryReportButton({ query }: { query: string }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Tooltip label="Open the query report" openDelay={400} withinPortal>
        <ActionIcon
          size="sm"
          variant="light"
          onClick={() => setIsOpen(true)}
          aria-label={`Open the query report for ${query}`}
          data-testid="query-report-button"
        >
          <Icon name="chart-bar" size={14} />
        </ActionIcon>
      </Tooltip>
      <Text span size="sm" truncate="end" title={query} style={{ minWidth: 0 }}>
        {query}
      </Text>
      {isOpen ? <QueryReportDialog query={query} isOpen={isOpen} onClose={() => setIsOpen(false)} /> : null}
    </Group>
  );
}
