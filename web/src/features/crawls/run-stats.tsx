import { SimpleGrid, Text } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { formatCount, formatElapsed, formatRate } from './crawl-run-format.ts';

/** The active run's counters: pages done, queued, pages/s, errors and elapsed time. */
export function RunStats({ progress }: { progress: CrawlRun['progress'] }) {
  const stats: [string, string][] = [
    ['Pages done', formatCount(progress.pagesDone)],
    ['Queued', formatCount(progress.queued)],
    ['Pages/s', formatRate(progress.pagesPerSecond)],
    ['Errors', formatCount(progress.errors)],
    ['Elapsed', formatElapsed(progress.elapsedMs)],
  ];
  return (
    <SimpleGrid cols={{ base: 3, xs: 5 }} spacing="sm" verticalSpacing="xs">
      {stats.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dark.4" fw={500}>
            {label}
          </Text>
          <Text size="lg" fw={650} ff="monospace" data-stat={label}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
