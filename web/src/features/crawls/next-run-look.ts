/**
 * When the Crawls page reads the run list while no run is active: shortly after the next scheduled time, by the
 * service's clock, and a few more times while that time has passed and its run is not listed yet.
 */
import type { CrawlRunsAnswer } from '../../../../catalog/crawl-runs.ts';

/** How long after a scheduled time the list is read for its run (the service queues due runs every 2 s). */
export const NEXT_RUN_LOOK_MS = 3000;
/** How many more looks, NEXT_RUN_LOOK_MS apart, while a scheduled time has passed and its run is not listed yet. */
export const NEXT_RUN_LOOKS = 3;
/** setTimeout's longest delay; a longer wait looks at the list on the way. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/** The scheduled time the page waits for (epoch ms on the service's clock), and the looks left once it has passed. */
export interface AwaitedRun {
  at: number;
  looksLeft: number;
}

/**
 * What to wait for after this answer: the time that passed while its scheduled run is not listed yet (a look less),
 * or else the next scheduled time.
 */
export function awaitedRunAfter(awaited: AwaitedRun | undefined, answer: CrawlRunsAnswer): AwaitedRun | undefined {
  const now = Date.parse(answer.now);
  if (awaited && awaited.at <= now && awaited.looksLeft > 0) {
    const isListed = answer.runs.some((run) => run.trigger === 'schedule' && Date.parse(run.queuedAt) >= awaited.at);
    if (!isListed) return { at: awaited.at, looksLeft: awaited.looksLeft - 1 };
  }
  return answer.nextRunAt === null ? undefined : { at: Date.parse(answer.nextRunAt), looksLeft: NEXT_RUN_LOOKS };
}

/** How long after this answer to read the list for the awaited scheduled run. */
export function nextLookMs(awaited: AwaitedRun | undefined, answer: CrawlRunsAnswer): number | undefined {
  if (!awaited) return undefined;
  return Math.min(Math.max(awaited.at - Date.parse(answer.now), 0) + NEXT_RUN_LOOK_MS, LONGEST_TIMEOUT_MS);
}
