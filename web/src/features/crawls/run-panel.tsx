import { useState } from 'react';
import { Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import { cancelCrawlRun, startCrawlRun } from '../../api/crawl-runs.ts';
import { ApiError } from '../../api/client.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toast.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { CancelRunDialog } from './cancel-run-dialog.tsx';
import { ParseFailures } from './parse-failures.tsx';
import {
  STATUS_LABELS,
  STATUS_TONES,
  TRIGGER_LABELS,
  formatCount,
  formatElapsed,
  formatRate,
  formatRunTime,
  progressPercent,
  runActivity,
} from './crawl-run-format.ts';

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

function ActiveRunCard({
  websiteId,
  run,
  onRunChanged,
  now,
}: {
  websiteId: string;
  run: CrawlRun;
  onRunChanged: (runId: number) => void;
  now: string;
}) {
  const [isDialogOpen, setDialogOpen] = useState(false);
  const [isCancelling, setCancelling] = useState(false);
  const { progress } = run;
  const percent = progressPercent(progress);
  const activity = runActivity(run, Date.parse(now));
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

  const stats: [string, string][] = [
    ['Pages done', formatCount(progress.pagesDone)],
    ['Queued', formatCount(progress.queued)],
    ['Pages/s', formatRate(progress.pagesPerSecond)],
    ['Errors', formatCount(progress.errors)],
    ['Elapsed', formatElapsed(progress.elapsedMs)],
  ];

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
      <Progress
        value={percent}
        size="lg"
        radius="sm"
        animated={run.status === 'running'}
        striped={run.status !== 'queued'}
        aria-label={`Crawl progress: ${Math.round(percent)}% of the URLs found so far`}
      />
      <ParseFailures run={run} />
      {activity.line || activity.stalled ? (
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
      ) : null}
      <CancelRunDialog
        opened={isDialogOpen}
        isCancelling={isCancelling}
        onClose={() => setDialogOpen(false)}
        onConfirm={(keep) => void cancel(keep)}
      />
    </Stack>
  );
}
