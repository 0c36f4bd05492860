import { describe, expect, it } from 'vitest';
import type { CrawlRun } from '../../../../catalog/crawl-runs.ts';
import {
  formatElapsed,
  formatNextRun,
  formatRunTime,
  isActiveRun,
  outcomeText,
  progressPercent,
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
