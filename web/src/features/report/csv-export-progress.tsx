import { Button, Group, Progress, Text } from '@mantine/core';
import { useStore } from 'zustand';
import { formatNumber } from '../../../../catalog/format.ts';
import type { CsvExport } from './use-csv-export.ts';

/** A running CSV export: rows fetched so far, and Cancel. */
export function CsvExportProgress({ running }: { running: CsvExport }) {
  const progress = useStore(running.progress);
  const { controller } = running;
  return (
    <Group px="md" pb="xs" gap="sm" wrap="nowrap" aria-live="polite">
      <Progress
        value={progress.total ? (100 * progress.done) / progress.total : 0}
        style={{ flex: 1 }}
        aria-label="CSV export progress"
        transitionDuration={0}
      />
      <Text size="xs" c="dark.4">
        {formatNumber(progress.done)} of {formatNumber(progress.total)} rows
      </Text>
      <Button size="compact-xs" variant="subtle" color="red.9" onClick={() => controller.abort()}>
        Cancel
      </Button>
    </Group>
  );
}
