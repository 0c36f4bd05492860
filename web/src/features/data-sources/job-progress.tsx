import { Alert, Progress, Text } from '@mantine/core';
import type { ImportJob } from '../../../../catalog/data-source-calls.ts';
import { Icon } from '../../components/icon.tsx';

/** What a job is doing, as a sentence and a bar; a failed one (seen by polling) says why in the service's words. */
export function JobProgress({ job, onDismiss }: { job: ImportJob; onDismiss: () => void }) {
  if (job.status === 'failed')
    return (
      <Alert
        color="red"
        variant="light"
        icon={<Icon name="alert-triangle" size={18} />}
        title={job.kind === 'remove' ? 'Not removed' : 'Not imported'}
        data-testid="job-failed"
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={onDismiss}
      >
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {job.summary}
        </Text>
      </Alert>
    );
  const step = job.step;
  const what = job.kind === 'remove' ? 'Removing the import' : `Importing ${job.files.join(', ')}`;
  const doing =
    step?.phase === 'refreshing'
      ? `refreshing crawl ${step.crawlId} (${step.done + 1} of ${step.total})`
      : step?.phase === 'writing'
        ? 'writing the new version'
        : 'reading and checking the files';
  const value = step?.phase === 'refreshing' ? 20 + (80 * step.done) / Math.max(1, step.total) : 10;
  return (
    <div role="status" data-testid="job-progress">
      <Text size="xs" c="dark.4" mb={4} style={{ wordBreak: 'break-word' }}>
        {what}: {doing}…
      </Text>
      <Progress value={value} animated aria-label="Import progress" />
    </div>
  );
}
