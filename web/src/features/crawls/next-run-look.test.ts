import { describe, expect, it } from 'vitest';
import type { CrawlRun, CrawlRunsAnswer } from '../../../../catalog/crawl-runs.ts';
import { NEXT_RUN_LOOKS, NEXT_RUN_LOOK_MS, awaitedRunAfter, nextLookMs } from './next-run-look.ts';

const due = '2026-11-30T06:00:00.000Z';
const nextWeek = '2026-12-07T06:00:00.000Z';
const scheduledRun = (queuedAt: string): CrawlRun => ({
  id: 1,
  websiteId: 'w',
  trigger: 'schedule',
  startedBy: null,
  queuedAt,
  startedAt: null,
  endedAt: null,
  status: 'queued',
  progress: { pagesDone: 0, queued: 0, errors: 0, pagesPerSecond: 0, elapsedMs: 0 },
  crawlId: null,
  partial: null,
  reason: null,
  isCancelRequested: false,
  isKeepRequested: false,
});
const answer = (now: string, nextRunAt: string | null, runs: CrawlRun[] = []): CrawlRunsAnswer => ({
  runs,
  nextRunAt,
  now,
});

describe('the look at the next scheduled run', () => {
  it('comes shortly after the next run time by the service clock, whatever the browser clock says', () => {
    const first = answer('2026-11-30T05:58:30.000Z', due);
    const awaited = awaitedRunAfter(undefined, first);
    expect(awaited).toEqual({ at: Date.parse(due), looksLeft: NEXT_RUN_LOOKS });
    expect(nextLookMs(awaited, first)).toBe(90_000 + NEXT_RUN_LOOK_MS);
  });

  it('is none without a schedule', () => {
    const none = answer('2026-11-30T05:58:30.000Z', null);
    expect(awaitedRunAfter(undefined, none)).toBeUndefined();
    expect(nextLookMs(undefined, none)).toBeUndefined();
  });

  it('is repeated a few times while the time has passed and its run is not listed, then waits for the next', () => {
    let awaited = awaitedRunAfter(undefined, answer('2026-11-30T05:59:00.000Z', due));
    for (let look = 1; look <= NEXT_RUN_LOOKS; look++) {
      const late = answer(`2026-11-30T06:00:0${2 * look}.000Z`, nextWeek);
      awaited = awaitedRunAfter(awaited, late);
      expect(awaited).toEqual({ at: Date.parse(due), looksLeft: NEXT_RUN_LOOKS - look });
      expect(nextLookMs(awaited, late)).toBe(NEXT_RUN_LOOK_MS);
    }
    awaited = awaitedRunAfter(awaited, answer('2026-11-30T06:00:09.000Z', nextWeek));
    expect(awaited).toEqual({ at: Date.parse(nextWeek), looksLeft: NEXT_RUN_LOOKS });
  });

  it('moves on to the next time once the scheduled run is listed', () => {
    const awaited = awaitedRunAfter(undefined, answer('2026-11-30T05:59:00.000Z', due));
    const listed = answer('2026-11-30T06:00:03.000Z', nextWeek, [scheduledRun('2026-11-30T06:00:01.000Z')]);
    expect(awaitedRunAfter(awaited, listed)).toEqual({ at: Date.parse(nextWeek), looksLeft: NEXT_RUN_LOOKS });
  });

  it('follows a schedule saved while waiting', () => {
    const awaited = awaitedRunAfter(undefined, answer('2026-11-30T05:00:00.000Z', due));
    const saved = answer('2026-11-30T05:01:00.000Z', '2026-12-01T09:00:00.000Z');
    expect(awaitedRunAfter(awaited, saved)).toEqual({ at: Date.parse('2026-12-01T09:00:00.000Z'), looksLeft: 3 });
  });
});
