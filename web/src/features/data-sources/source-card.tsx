import { useState } from 'react';
import { Alert, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { DataSourceStatus, ImportJob, SourceImport } from '../../../../catalog/data-source-calls.ts';
import { removeSourceImport, uploadSourceFiles } from '../../api/data-sources.ts';
import { errorText } from '../../lib/load-state.ts';
import { dropDashboardCaches } from '../../stores/data-sources-store.ts';
import { Icon } from '../../components/icon.tsx';
import { ToneBadge } from '../../components/tone-badge.tsx';
import { ConnectedSourceDetails } from './connected-source-details.tsx';
import { DropZone } from './drop-zone.tsx';
import { JobProgress } from './job-progress.tsx';
import { RemoveImportDialog } from './remove-import-dialog.tsx';

export interface SourceCardProps {
  websiteId: string;
  source: DataSourceStatus;
  /** The source's latest job, if any. */
  job: ImportJob | undefined;
  /** A job of the website runs: another cannot start. */
  isBusy: boolean;
  onChanged: () => void;
}

/** One data source: connected or not, its coverage, rows, imports, matched pages, and the files to import. */
export function SourceCard({ websiteId, source, job, isBusy, onChanged }: SourceCardProps) {
  const [uploaded, setUploaded] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [toRemove, setToRemove] = useState<SourceImport | undefined>();
  const [isRemoving, setRemoving] = useState(false);
  /** The next upload replaces the source's data on the dates its files cover (a corrected export). */
  const [isReplace, setReplace] = useState(false);
  /** A failed job the user has read and closed. */
  const [dismissedJob, setDismissedJob] = useState<string | undefined>();
  const isUploading = uploaded !== undefined;

  const afterStart = (started: ImportJob) => {
    if (started.status === 'done') dropDashboardCaches(websiteId);
    onChanged();
  };

  const upload = (files: File[]) => {
    setError(undefined);
    setUploaded(0);
    uploadSourceFiles(websiteId, source.id, files, setUploaded, isReplace).then(
      (started) => {
        setUploaded(undefined);
        setReplace(false);
        afterStart(started);
      },
      (failure: unknown) => {
        setUploaded(undefined);
        setError(errorText(failure));
        onChanged();
      },
    );
  };

  const remove = (record: SourceImport) => {
    setError(undefined);
    setRemoving(true);
    removeSourceImport(websiteId, source.id, record.id!).then(
      (started) => {
        setRemoving(false);
        setToRemove(undefined);
        afterStart(started);
      },
      (failure: unknown) => {
        setRemoving(false);
        setToRemove(undefined);
        setError(errorText(failure));
        onChanged();
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="source-card" data-source={source.id} component="section">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} fz="lg" lh={1.3}>
            {source.title}
          </Title>
          <ToneBadge
            tone={source.isConnected ? 'green' : source.isInExport ? 'blue' : 'gray'}
            data-testid="source-status"
          >
            {source.isConnected ? 'Connected' : source.isInExport ? 'In the crawl export' : 'Not connected'}
          </ToneBadge>
        </Group>
        {source.isConnected ? (
          <ConnectedSourceDetails source={source} isBusy={isBusy} onRemove={setToRemove} />
        ) : (
          <Text size="sm" c="dark.4">
            {source.isInExport
              ? `The newest crawl brought its own ${source.title} data in its export; an import takes its place.`
              : 'Its reports show "not connected" until an export is imported.'}
          </Text>
        )}
        {job && (job.status === 'running' || (job.status === 'failed' && !error && job.id !== dismissedJob)) ? (
          <JobProgress job={job} onDismiss={() => setDismissedJob(job.id)} />
        ) : null}
        {error ? (
          <Alert
            color="red"
            variant="light"
            icon={<Icon name="alert-triangle" size={18} />}
            title="Refused"
            role="alert"
            data-testid="source-error"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => {
              setError(undefined);
              setDismissedJob(job?.id);
            }}
          >
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {error}
            </Text>
          </Alert>
        ) : null}
        <DropZone
          title={source.title}
          isDisabled={isBusy || isUploading}
          uploaded={uploaded}
          onFiles={upload}
          isReplace={isReplace}
          onReplace={setReplace}
          testId={`drop-${source.id}`}
        />
      </Stack>
      <RemoveImportDialog
        record={toRemove}
        title={source.title}
        isRemoving={isRemoving}
        onClose={() => setToRemove(undefined)}
        onConfirm={remove}
      />
    </Card>
  );
}
