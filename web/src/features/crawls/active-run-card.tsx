import { useState } from 'react';
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { cancelCrawlRun } from '../../api/crawl-runs.ts';
import { ApiError } from '../../api/client.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { CancelRunDialog } from './cancel-run-dialog.tsx';
import { ParseFailures } from './parse-failures.tsx';
import { RunActivityLine } from './run-activity-line.tsx';
import { RunStats } from './run-stats.tsx';
import { STATUS_LABELS, STATUS_TONES, TRIGGER_LABELS, formatRunTime, progressPercent } from './crawl-run-format.ts';

export interface ActiveRunCardProps {
  websiteId: string;
  run: CrawlRun;
  onRunChanged: (runId: number) => void;
  now: string;
}

/** The queued, running or loading run: its status, counters, progress and Cancel. */
export function ActiveRunCard({ websiteId, run, onRunChanged, now }: ActiveRunCardProps) {
  const [isDialogOpen, setDialogOpen] = useState(false);
  const [isCancelling, setCancelling] = useState(false);
  const percent = progressPercent(run.progress);
  // A cancel keeping what was crawled may still be turned into one that drops it.
  const canDrop = run.isCancelRequested && run.isKeepRequested;

  const cancel = async (keepCrawled: boolean) => {
    setCancelling(true);
    try {
      await cancelCrawlRun(websiteId, run.id, keepCrawled);
      setDialogOpen(false);
      showSuccessToast(keepCrawled ? 'Stopping the crawl; its pages will be loaded' : 'Cancelling the crawl');
      onRunChanged(run.id);
    } catch (error) {
      showErrorToast('The crawl was not cancelled', {
        message: error instanceof ApiError ? error.message : 'Please try again in a moment.',
      });
      onRunChanged(run.id);
    } finally {
      setCancelling(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="active-run" data-status={run.status}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <ToneBadge tone={STATUS_TONES[run.status]} size="lg" data-testid="active-run-status">
            {run.isCancelRequested ? 'Cancelling' : STATUS_LABELS[run.status]}
          </ToneBadge>
          <Text size="sm" c="dark.5">
            {TRIGGER_LABELS[run.trigger]}
            {run.startedBy ? ` by ${run.startedBy}` : ''} · queued {formatRunTime(run.queuedAt)}
          </Text>
        </Group>
        {canDrop ? (
          <Button
            color="red"
            variant="light"
            onClick={() => void cancel(false)}
            loading={isCancelling}
            leftSection={<Icon name="x" size={16} />}
          >
            Cancel without keeping
          </Button>
        ) : (
          <Button
            color="red"
            variant="light"
            onClick={() => setDialogOpen(true)}
            disabled={run.isCancelRequested}
            leftSection={<Icon name="x" size={16} />}
          >
            Cancel
          </Button>
        )}
      </Group>
      <RunStats progress={run.progress} />
      <Progress
        value={percent}
        size="lg"
        radius="sm"
        animated={run.status === 'running'}
        striped={run.status !== 'queued'}
        aria-label={`Crawl progress: ${Math.round(percent)}% of the URLs found so far`}
      />
      <ParseFailures run={run} />
      <RunActivityLine run={run} now={now} />
      <CancelRunDialog
        opened={isDialogOpen}
        isCancelling={isCancelling}
        onClose={() => setDialogOpen(false)}
        onConfirm={(keep) => void cancel(keep)}
      />
    </Stack>
  );
}
