import { Text } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { parseFailuresText } from './crawl-run-format.ts';

/** Pages of the run whose HTML could not be parsed: their rows lack titles, links and the rest. */
export function ParseFailures({ run }: { run: CrawlRun }) {
  const text = parseFailuresText(run.progress);
  return text ? (
    <Text size="xs" c="orange.9" data-testid="parse-failures">
      {text}
    </Text>
  ) : null;
}
