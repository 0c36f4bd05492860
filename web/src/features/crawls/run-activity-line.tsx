import { Group, Text } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { Icon } from '../../components/icon.tsx';
import { runActivity } from './crawl-run-format.ts';

/** What the run did last and, when it has done nothing for a while, the stall warning. */
export function RunActivityLine({ run, now }: { run: CrawlRun; now: string }) {
  const activity = runActivity(run, Date.parse(now));
  return activity.line || activity.stalled ? (
    <Group gap="sm" wrap="wrap" justify="space-between">
      <Text size="sm" c="dark.5" data-testid="run-activity">
        {activity.line}
      </Text>
      {activity.stalled ? (
        <Text size="sm" c="orange.9" fw={600} role="status" data-testid="run-stalled">
          <Icon name="alert-triangle" size={14} style={{ verticalAlign: '-2px', marginRight: 6 }} />
          {activity.stalled}
        </Text>
      ) : null}
    </Group>
  ) : null;
}
