import { describe, expect, it } from 'vitest';
import { describeNotice, noticeMessage } from './crawl-notices.ts';
import type { NoticeRow } from './run-notices.ts';

const row = (over: Partial<NoticeRow>): NoticeRow => ({
  id: 7,
  user_id: 3,
  website_id: 'north wind',
  run_id: 12,
  created_at: new Date('2026-11-25T14:20:00Z'),
  read_at: null,
  website_name: 'Northwind <Outfitters>',
  status: 'loaded',
  crawl_id: 3,
  reason: null,
  pages_done: 1204,
  errors: 1,
  parse_failures: 0,
  started_at: new Date('2026-11-25T14:05:00Z'),
  queued_at: new Date('2026-11-25T14:04:00Z'),
  ...over,
});

const sources = {
  labelOf: (_: string, crawlId: number) => (crawlId === 3 ? '25 Nov 2026, 14:05 (crawl 3)' : undefined),
  partialOf: () => null,
};

describe('describeNotice', () => {
  it('words a whole crawl with its label and counts, and leads to its overview', () => {
    expect(describeNotice(row({}), sources)).toEqual({
      id: 7,
      websiteId: 'north wind',
      runId: 12,
      crawlId: 3,
      outcome: 'finished',
      title: 'Crawl of Northwind <Outfitters> finished',
      detail: '25 Nov 2026, 14:05 (crawl 3): 1,204 pages crawled, 1 error.',
      path: '/technical-health-check?website=north%20wind&crawl=3',
      createdAt: '2026-11-25T14:20:00.000Z',
      isRead: false,
    });
  });

  it('says why a crawl is partial, and counts the pages not parsed', () => {
    const notice = describeNotice(row({ parse_failures: 2, errors: 0, read_at: new Date() }), {
      ...sources,
      partialOf: () => 'time-limit',
    });
    expect([notice.outcome, notice.title, notice.detail, notice.isRead]).toEqual([
      'partial',
      'Crawl of Northwind <Outfitters> finished, partial',
      '25 Nov 2026, 14:05 (crawl 3): 1,204 pages crawled, 0 errors, 2 pages not parsed. Partial: it was stopped at its time limit.',
      true,
    ]);
  });

  it('gives a failed run its start time and reason, and leads to the Crawls page', () => {
    const failed = row({ status: 'failed', crawl_id: null, pages_done: 1, reason: 'start URL x is unreachable' });
    expect(describeNotice(failed, sources)).toMatchObject({
      crawlId: null,
      outcome: 'failed',
      title: 'Crawl of Northwind <Outfitters> failed',
      detail: 'Started 25 Nov 2026, 14:05: 1 page crawled, 1 error. start URL x is unreachable',
      path: '/crawls?website=north%20wind',
    });
    // Never started (failed while queued behind a restart): its queue time stands in.
    expect(describeNotice({ ...failed, started_at: null }, sources).detail).toMatch(/^Started 25 Nov 2026, 14:04:/);
  });

  it('names a crawl no longer in the store by its number', () => {
    expect(describeNotice(row({ crawl_id: 9 }), sources).detail).toMatch(/^crawl 9: /);
  });
});

describe('noticeMessage', () => {
  it('escapes the HTML part and links from the public URL', () => {
    const message = noticeMessage(describeNotice(row({}), sources), 'https://thc.example');
    expect(message.subject).toBe('Crawl of Northwind <Outfitters> finished');
    expect(message.text).toContain('https://thc.example/technical-health-check?website=north%20wind&crawl=3');
    expect(message.html).toContain('Northwind &lt;Outfitters&gt;');
    expect(message.html).not.toContain('<Outfitters>');
    expect(message.html).toContain('>Open the overview of the crawl</a>');
  });
});
