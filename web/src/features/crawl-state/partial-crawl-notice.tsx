import { Alert, Stack, Text } from '@mantine/core';
import { PARTIAL_COMPARISON_WARNING, PARTIAL_REASON_TEXT } from '../../../../catalog/crawl-label.ts';
import type { Crawl } from '../../api/types.ts';
import { Icon } from '../../components/icon.tsx';

/**
 * Said above the overview and every report when the current crawl or its comparison is partial (stopped, or cut by a
 * limit): its reports cover only the pages it reached, and a comparison with it miscounts Added/Removed.
 */
export function PartialCrawlNotice({ current, comparison }: { current: Crawl; comparison: Crawl | undefined }) {
  const isComparisonPartial = comparison !== undefined && comparison.partial !== null;
  if (current.partial === null && !isComparisonPartial) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      radius="md"
      icon={<Icon name="alert-triangle" size={20} />}
      title={current.partial === null ? 'Compared with a partial crawl' : 'This crawl is partial'}
      data-testid="partial-notice"
      styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Stack gap={4} maw={760}>
        {current.partial === null ? null : (
          <Text size="sm" c="dark.6" data-testid="partial-current">
            The crawl of {current.label} holds only part of the website: {PARTIAL_REASON_TEXT[current.partial]}. Its
            reports cover the pages it reached.
          </Text>
        )}
        {isComparisonPartial ? (
          <Text size="sm" c="dark.6" data-testid="partial-comparison">
            {PARTIAL_COMPARISON_WARNING} Choose a full crawl in Compared with to see what changed.
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
