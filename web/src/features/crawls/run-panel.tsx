import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { startCrawlRun } from '../../api/crawl-runs.ts';
import { ApiError } from '../../api/client.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { ActiveRunCard } from './active-run-card.tsx';

export interface RunPanelProps {
  websiteId: string;
  /** The queued, running or loading run, if any. */
  active: CrawlRun | undefined;
  /** The settings form holds changes that are not saved. */
  hasUnsavedSettings: boolean;
  /** A run was started or changed: read the list again (and watch this run). */
  onRunChanged: (runId: number) => void;
  /** The service's clock when the run list was read (ISO): activity and stalls are timed by it. */
  now: string;
}

export const ACTIVE_REASON = 'A crawl of this website is already queued or running.';
export const UNSAVED_REASON = 'Save the crawl settings first: a crawl uses the saved settings.';

/** Start now, or the active run's live progress with Cancel. */
export function RunPanel({ websiteId, active, hasUnsavedSettings, onRunChanged, now }: RunPanelProps) {
  const [isStarting, setStarting] = useState(false);
  const reason = active ? ACTIVE_REASON : hasUnsavedSettings ? UNSAVED_REASON : undefined;

  const start = async () => {
    setStarting(true);
    try {
      const run = await startCrawlRun(websiteId);
      showSuccessToast('Crawl started', { message: run.status === 'queued' ? 'It waits for a free crawler.' : '' });
      onRunChanged(run.id);
    } catch (error) {
      showErrorToast('The crawl did not start', {
        message: error instanceof ApiError ? error.message : 'Please try again in a moment.',
      });
    } finally {
      setStarting(false);
    }
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="crawl-now">
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="sm" wrap="wrap">
          <Title order={2} fz="h4" id="crawl-now">
            {active ? 'Crawl in progress' : 'Crawl now'}
          </Title>
          <Group gap="sm" wrap="wrap" justify="flex-end">
            {reason ? (
              <Text size="sm" c="dark.4" id="start-reason" data-testid="start-reason">
                {reason}
              </Text>
            ) : null}
            <Button
              onClick={() => void start()}
              loading={isStarting}
              disabled={reason !== undefined}
              aria-describedby={reason ? 'start-reason' : undefined}
              leftSection={<Icon name="spider" size={16} />}
            >
              Start now
            </Button>
          </Group>
        </Group>
        {active ? (
          <ActiveRunCard websiteId={websiteId} run={active} onRunChanged={onRunChanged} now={now} />
        ) : (
          <Text size="sm" c="dark.5">
            No crawl is running. Start one now, or let the schedule below start it.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
