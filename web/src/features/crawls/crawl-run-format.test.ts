import { describe, expect, it } from 'vitest';
import type { CrawlRun, CrawlRunPhase } from '../../../../catalog/crawl-runs.ts';
import {
  formatElapsed,
  formatNextRun,
  formatRunTime,
  isActiveRun,
  outcomeText,
  formatAgo,
  progressPercent,
  runActivity,
} from './crawl-run-format.ts';

const run = (patch: Partial<CrawlRun>): CrawlRun => ({
  id: 1,
  websiteId: 'w',
  trigger: 'manual',
  startedBy: 'staff@example.com',
  queuedAt: '2026-11-23T20:00:00.000Z',
  startedAt: '2026-11-23T20:00:01.000Z',
  endedAt: null,
  status: 'running',
  progress: { pagesDone: 0, queued: 0, errors: 0, pagesPerSecond: 0, elapsedMs: 0 },
  crawlId: null,
  partial: null,
  reason: null,
  isCancelRequested: false,
  isKeepRequested: false,
  ...patch,
});

describe('formatNextRun', () => {
  it('reads the instant in London time, in winter (GMT) and in summer (BST)', () => {
    expect(formatNextRun('2026-11-30T06:00:00.000Z')).toBe('Monday 30 November 2026, 06:00 (London)');
    expect(formatNextRun('2026-06-01T05:00:00.000Z')).toBe('Monday 1 June 2026, 06:00 (London)');
  });

  it('keeps the London date when UTC is still on the day before', () => {
    expect(formatNextRun('2026-07-05T23:30:00.000Z')).toBe('Monday 6 July 2026, 00:30 (London)');
  });
});

describe('formatRunTime', () => {
  it('is short, London time, and a dash without a time', () => {
    expect(formatRunTime('2026-06-01T05:07:00.000Z')).toBe('1 Jun 2026, 06:07');
    expect(formatRunTime(null)).toBe('—');
  });
});

describe('formatElapsed', () => {
  it('is mm:ss and lets minutes pass 59', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65_999)).toBe('01:05');
    expect(formatElapsed(75 * 60_000 + 3_000)).toBe('75:03');
  });
});

describe('progressPercent', () => {
  it('is done ÷ (done + queued)', () => {
    expect(progressPercent(run({}).progress)).toBe(0);
    expect(progressPercent({ pagesDone: 30, queued: 10, errors: 2, pagesPerSecond: 3, elapsedMs: 1 })).toBe(75);
    expect(progressPercent({ pagesDone: 5, queued: 0, errors: 0, pagesPerSecond: 3, elapsedMs: 1 })).toBe(100);
  });
});

describe('outcomeText', () => {
  it('names the loaded crawl, a cancellation, and a failure in one line', () => {
    expect(outcomeText(run({ status: 'loaded', crawlId: 3 }))).toBe('Loaded as crawl 3');
    expect(outcomeText(run({ status: 'cancelled' }))).toBe('Cancelled');
    expect(outcomeText(run({ status: 'failed', reason: 'Start URL answered 503\n  Service Unavailable' }))).toBe(
      'Failed: Start URL answered 503 Service Unavailable',
    );
  });

  it('counts queued, running and loading runs as active', () => {
    expect(
      ['queued', 'running', 'loading', 'loaded', 'cancelled', 'failed'].map((status) =>
        isActiveRun(run({ status: status as CrawlRun['status'] })),
      ),
    ).toEqual([true, true, true, false, false, false]);
  });
});

describe('runActivity', () => {
  const now = Date.parse('2026-11-23T20:10:00.000Z');
  const progress = { pagesDone: 3, queued: 1, errors: 0, pagesPerSecond: 1, elapsedMs: 9000 };

  it('names the phase and how long ago the last response came', () => {
    const fetching = run({
      progress: { ...progress, phase: 'fetching', lastActivityAt: now - 3_400, progressAt: now },
    });
    expect(runActivity(fetching, now)).toEqual({
      line: 'Fetching pages · last response 3 s ago',
      stalled: undefined,
    });
    const waiting = run({ progress: { ...progress, phase: 'waiting', lastActivityAt: now - 9_000, progressAt: now } });
    expect(runActivity(waiting, now).line).toBe("Waiting on robots.txt's crawl-delay · last response 9 s ago");
    const exporting = run({ progress: { ...progress, phase: 'exporting', progressAt: now } });
    expect(runActivity(exporting, now).line).toBe('Writing the export');
    const loading = run({
      status: 'loading',
      progress: { ...progress, phase: 'loading', lastActivityAt: now - 1000, progressAt: now - 1000 },
    });
    expect(runActivity(loading, now).line).toBe('Loading the crawl · last load step 1 s ago');
  });

  it('says a run is stalled once nothing has moved for a minute, and says nothing of a queued one', () => {
    const at = (ms: number) =>
      runActivity(run({ progress: { ...progress, phase: 'fetching', lastActivityAt: ms, progressAt: ms } }), now);
    expect(at(now - 59_999).stalled).toBeUndefined();
    expect(at(now - 60_000).stalled).toBe('Stalled: no progress for 1 min');
    expect(at(now - 185_000)).toEqual({
      line: 'Fetching pages · last response 3 min ago',
      stalled: 'Stalled: no progress for 3 min',
    });
    expect(runActivity(run({ status: 'queued', progress }), now)).toEqual({ line: undefined, stalled: undefined });
  });

  it('judges a stall only while fetching: a long pause, export step or load step is not one', () => {
    const quiet = (status: CrawlRun['status'], phase: CrawlRunPhase) =>
      runActivity(
        run({ status, progress: { ...progress, phase, lastActivityAt: now - 185_000, progressAt: now - 185_000 } }),
        now,
      );
    expect(quiet('running', 'waiting')).toEqual({
      line: "Waiting on robots.txt's crawl-delay · last response 3 min ago",
      stalled: undefined,
    });
    expect(quiet('running', 'exporting')).toEqual({
      line: 'Writing the export · last export step 3 min ago',
      stalled: undefined,
    });
    expect(quiet('loading', 'loading')).toEqual({
      line: 'Loading the crawl · last load step 3 min ago',
      stalled: undefined,
    });
    expect(quiet('running', 'fetching').stalled).toBe('Stalled: no progress for 3 min');
  });

  it('counts seconds, then minutes, then hours and minutes', () => {
    expect([formatAgo(-5), formatAgo(59_999), formatAgo(60_000), formatAgo(3_600_000), formatAgo(3_900_000)]).toEqual([
      '0 s',
      '59 s',
      '1 min',
      '1 h',
      '1 h 5 min',
    ]);
  });
});
