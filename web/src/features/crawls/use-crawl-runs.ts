import { useCallback, useEffect, useRef, useState } from 'react';
import type { CrawlRunsAnswer } from '../../../../catalog/crawl-runs.ts';
import { fetchCrawlRuns } from '../../api/crawl-runs.ts';
import { isAbortError } from '../../api/client.ts';
import { errorText } from '../../lib/load-state.ts';
import { useCrawlsStore } from '../../stores/crawls-store.ts';
import { useNotificationsStore } from '../../stores/notifications-store.ts';
import { isActiveRun } from './crawl-run-format.ts';
import { awaitedRunAfter, nextLookMs, type AwaitedRun } from './next-run-look.ts';

/** How often the run list is read while a run is queued, running or loading. */
export const POLL_MS = 1000;
export interface CrawlRunsState {
  answer: CrawlRunsAnswer | undefined;
  /** The last read failed (an earlier answer, if any, is kept). */
  error: string | undefined;
  reload: () => void;
  /** Reads the list again, counting this run as seen active even if it has already ended by then. */
  track: (runId: number) => void;
}

function usePageVisible(onShown: () => void): boolean {
  const [isVisible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    let wasVisible = document.visibilityState !== 'hidden';
    const update = () => {
      const isNowVisible = document.visibilityState !== 'hidden';
      setVisible(isNowVisible);
      if (isNowVisible && !wasVisible) onShown();
      wasVisible = isNowVisible;
    };
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, [onShown]);
  return isVisible;
}

/**
 * The website's runs, read again every second while one is active and the page is visible. With none active it reads
 * them only shortly after the next scheduled time and when the page is shown again, so a scheduled run shows up
 * without a reload. A run seen active that has been loaded refreshes the crawl list, so the new pending crawl is
 * offered.
 */
export function useCrawlRuns(websiteId: string): CrawlRunsState {
  const [read, setRead] = useState<{ answer?: CrawlRunsAnswer; error?: string; count: number; lookMs?: number }>({
    count: 0,
  });
  const [requested, setRequested] = useState(0);
  const reload = useCallback(() => setRequested((n) => n + 1), []);
  const isVisible = usePageVisible(reload);
  const seenActive = useRef(new Set<number>());
  const awaited = useRef<AwaitedRun | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    fetchCrawlRuns(websiteId, controller.signal).then(
      (answer) => {
        const loadedNow = answer.runs.some((run) => run.status === 'loaded' && seenActive.current.has(run.id));
        // A run seen active has ended: its notice is in the bell now, not at the bell's next read.
        if (answer.runs.some((run) => !isActiveRun(run) && seenActive.current.has(run.id)))
          void useNotificationsStore.getState().load();
        seenActive.current = new Set(answer.runs.filter(isActiveRun).map((run) => run.id));
        if (loadedNow) void useCrawlsStore.getState().load(websiteId, { isRefresh: true });
        awaited.current = awaitedRunAfter(awaited.current, answer);
        const lookMs = nextLookMs(awaited.current, answer);
        setRead((current) => ({ answer, count: current.count + 1, lookMs }));
      },
      (error: unknown) => {
        if (isAbortError(error) || controller.signal.aborted) return;
        setRead((current) => ({ answer: current.answer, error: errorText(error), count: current.count + 1 }));
      },
    );
    return () => controller.abort();
  }, [websiteId, requested]);

  const hasActive = read.answer?.runs.some(isActiveRun) === true;
  const waitMs = hasActive ? POLL_MS : read.lookMs;
  useEffect(() => {
    if (waitMs === undefined || !isVisible) return;
    const timer = window.setTimeout(reload, waitMs);
    return () => window.clearTimeout(timer);
  }, [waitMs, isVisible, read.count, reload]);

  const track = useCallback(
    (runId: number) => {
      seenActive.current.add(runId);
      reload();
    },
    [reload],
  );
  return { answer: read.answer, error: read.error, reload, track };
}
