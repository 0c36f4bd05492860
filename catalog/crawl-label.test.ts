import { describe, expect, it } from 'vitest';
import {
  crawlLabels,
  defaultComparison,
  crawlFileLabel,
  crawlTickText,
  partialReasonOf,
  type LabelledCrawl,
} from './crawl-label.ts';
import { csvFileName } from './csv.ts';

const crawl = (crawlId: number, crawledAt: string, partial: LabelledCrawl['partial'] = null): LabelledCrawl => ({
  crawlId,
  crawledAt,
  partial,
});

// Issue 28: three crawls on 25 Nov all read "25 Nov 2026".
const crawls = [
  crawl(1, '2026-11-18T06:00:00Z'),
  crawl(2, '2026-11-25T06:00:00Z'),
  crawl(3, '2026-11-25T09:41:00Z', 'stopped'),
  crawl(4, '2026-11-25T14:05:30Z'),
];

describe('crawl labels', () => {
  it('gives the date and number alone to a crawl that has its day to itself', () => {
    expect(crawlLabels(crawls).get(1)).toBe('18 Nov 2026 (crawl 1)');
  });

  it('adds the time to every crawl of a day that holds several, and marks a partial one', () => {
    const labels = crawlLabels(crawls);
    expect([2, 3, 4].map((id) => labels.get(id))).toEqual([
      '25 Nov 2026, 06:00 (crawl 2)',
      '25 Nov 2026, 09:41 (crawl 3, partial)',
      '25 Nov 2026, 14:05 (crawl 4)',
    ]);
    expect(new Set(labels.values()).size).toBe(crawls.length);
  });

  it("reads dates and times in London's zone, summer time included", () => {
    // 23:30 UTC on 30 Jun is 00:30 on 1 Jul in London; 06:00 UTC in January is 06:00 there.
    const labels = crawlLabels([crawl(7, '2026-06-30T23:30:00Z'), crawl(8, '2026-07-01T10:00:00Z')]);
    expect(labels.get(7)).toBe('1 Jul 2026, 00:30 (crawl 7)');
    expect(labels.get(8)).toBe('1 Jul 2026, 11:00 (crawl 8)');
    expect(crawlLabels([crawl(9, '2026-01-05T06:00:00+00:00')]).get(9)).toBe('5 Jan 2026 (crawl 9)');
  });

  it('keeps crawls made at the same minute apart by their number', () => {
    const labels = crawlLabels([crawl(10, '2026-11-25T14:05:00Z'), crawl(11, '2026-11-25T14:05:40Z')]);
    expect(labels.get(10)).not.toBe(labels.get(11));
  });

  it('shapes the same label for a chart tick and a file name', () => {
    const labels = crawlLabels(crawls);
    expect(crawlTickText(labels.get(1)!)).toBe('18 Nov 2026\ncrawl 1');
    expect(crawlTickText(labels.get(3)!)).toBe('25 Nov 2026\n09:41, crawl 3, partial');
    expect(crawlTickText('4 Mar 2025')).toBe('4 Mar 2025');
    expect(crawlFileLabel(labels.get(4)!)).toBe('25 Nov 2026 1405 crawl 4');
    expect(csvFileName(`4xx ${crawlFileLabel(labels.get(3)!)}`, new Date(1_764_000_000_000))).toBe(
      '4xx_25_nov_2026_0941_crawl_3_partial_1764000000.csv',
    );
  });
});

describe('partialReasonOf', () => {
  it('reads the reason, or "stopped" from an export that only says it stopped early', () => {
    expect(partialReasonOf({ partialReason: 'max-urls' })).toBe('max-urls');
    expect(partialReasonOf({ stoppedEarly: true, partialReason: 'time-limit' })).toBe('time-limit');
    expect(partialReasonOf({ stoppedEarly: true })).toBe('stopped');
    expect(partialReasonOf({ stoppedEarly: false })).toBeNull();
    expect(partialReasonOf({})).toBeNull();
  });
});

describe('defaultComparison', () => {
  const isPartial = (c: LabelledCrawl) => c.partial !== null;

  it('takes the next older crawl that is not partial, in whatever order the list comes', () => {
    expect(defaultComparison(crawls, 4, isPartial)?.crawlId).toBe(2);
    expect(defaultComparison([...crawls].reverse(), 4, isPartial)?.crawlId).toBe(2);
    expect(defaultComparison(crawls, 3, isPartial)?.crawlId).toBe(2);
    expect(defaultComparison(crawls, 2, isPartial)?.crawlId).toBe(1);
  });

  it('has none when every older crawl is partial, or there is no older one', () => {
    expect(defaultComparison(crawls, 1, isPartial)).toBeUndefined();
    expect(defaultComparison(crawls.slice(2), 4, isPartial)).toBeUndefined();
  });
});
