import { useCallback, useEffect, useState } from 'react';
import { Button, Group, Skeleton, Text } from '@mantine/core';
import type { CrawlRunsAnswer, CrawlSettingsAnswer } from '../../../../catalog/crawl-runs.ts';
import { fetchCrawlSettings, saveCrawlSettings } from '../../api/crawl-runs.ts';
import { isAbortError } from '../../api/client.ts';
import { errorText, type LoadState } from '../../lib/load-state.ts';
import { FetchErrorPanel } from '../../components/fetch-error-panel.tsx';
import { Icon } from '../../components/icon.tsx';
import { isActiveRun } from './crawl-run-format.ts';
import { RunHistory } from './run-history.tsx';
import { RunPanel } from './run-panel.tsx';
import { SettingsForm } from './settings-form.tsx';
import { useCrawlRuns } from './use-crawl-runs.ts';

/** The Crawls page below its header: the run panel, the settings form and the history of one website. */
export function CrawlsContent({ websiteId }: { websiteId: string }) {
  const [settings, setSettings] = useState<LoadState<CrawlSettingsAnswer>>({ status: 'pending' });
  const [settingsRequest, setSettingsRequest] = useState(0);
  const [hasUnsavedSettings, setUnsavedSettings] = useState(false);
  const [listAtSave, setListAtSave] = useState<CrawlRunsAnswer | undefined>();
  const runs = useCrawlRuns(websiteId);

  useEffect(() => {
    const controller = new AbortController();
    fetchCrawlSettings(websiteId, controller.signal).then(
      (answer) => setSettings({ status: 'success', data: answer }),
      (error: unknown) => {
        if (!isAbortError(error) && !controller.signal.aborted)
          setSettings({ status: 'error', error: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [websiteId, settingsRequest]);

  const save = useCallback(
    (next: Parameters<typeof saveCrawlSettings>[1]) => saveCrawlSettings(websiteId, next),
    [websiteId],
  );

  const allRuns = runs.answer?.runs ?? [];
  const active = allRuns.find(isActiveRun);
  const ended = allRuns.filter((run) => !isActiveRun(run));
  // The next run time comes from whichever answer is newer: a run list read after the last save, or that save.
  const isListNewer = runs.answer !== undefined && runs.answer !== listAtSave;
  const settingsAnswer =
    settings.status !== 'success'
      ? undefined
      : isListNewer
        ? { ...settings.data, nextRunAt: runs.answer!.nextRunAt }
        : settings.data;

  return (
    <>
      {runs.answer ? (
        <RunPanel
          websiteId={websiteId}
          active={active}
          hasUnsavedSettings={hasUnsavedSettings}
          onRunChanged={runs.track}
          now={runs.answer.now}
        />
      ) : runs.error ? (
        <FetchErrorPanel area="crawl-runs" onRetry={runs.reload} />
      ) : (
        <Skeleton h={120} radius="md" aria-label="Loading the crawl runs" />
      )}
      {settings.status === 'error' ? (
        <FetchErrorPanel area="crawl-settings" onRetry={() => setSettingsRequest((n) => n + 1)} />
      ) : settingsAnswer ? (
        <SettingsForm
          answer={settingsAnswer}
          save={save}
          onSaved={(answer) => {
            setSettings({ status: 'success', data: answer });
            setListAtSave(runs.answer);
            runs.reload();
          }}
          onChangedState={setUnsavedSettings}
        />
      ) : (
        <Skeleton h={420} radius="md" aria-label="Loading the crawl settings" />
      )}
      {runs.answer ? <RunHistory websiteId={websiteId} runs={ended} /> : null}
      {runs.answer && runs.error ? (
        <Group gap="xs" role="status">
          <Text size="xs" c="red.8">
            <Icon name="alert-triangle" size={12} /> The latest runs could not be read.
          </Text>
          <Button variant="subtle" size="compact-xs" onClick={runs.reload}>
            Try again
          </Button>
        </Group>
      ) : null}
    </>
  );
}
