import { Button, Group, Text, Title } from '@mantine/core';
import { pluralise } from '../../../../catalog/format.ts';
import { Icon } from '../../components/icon.tsx';

/** The chart's title (labelling its section), what it shows, and its Reset zoom and Download data buttons. */
export function IssuesChartHeader({
  crawlCount,
  isZoomed,
  onResetZoom,
  onDownload,
}: {
  crawlCount: number;
  isZoomed: boolean;
  onResetZoom: () => void;
  onDownload: () => void;
}) {
  return (
    <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
      <div>
        <Title order={3} fz="md" id="issues-over-time">
          Issues over time
        </Title>
        {crawlCount > 0 ? (
          <Text size="xs" c="dark.3" data-testid="chart-subtitle">
            {crawlCount === 1
              ? 'Issues found by the last crawl'
              : `Issues found by each of the last ${pluralise(crawlCount, 'crawl')} · drag across the chart to zoom`}
          </Text>
        ) : null}
      </div>
      <Group gap="xs">
        {isZoomed ? (
          <Button
            size="compact-sm"
            variant="default"
            onClick={onResetZoom}
            leftSection={<Icon name="zoom-out" size={14} />}
          >
            Reset zoom
          </Button>
        ) : null}
        <Button
          size="compact-sm"
          variant="default"
          onClick={onDownload}
          disabled={crawlCount === 0}
          leftSection={<Icon name="download" size={14} />}
        >
          Download data
        </Button>
      </Group>
    </Group>
  );
}
