import { describe, expect, it } from 'vitest';
import type { Crawl } from '../api/types.ts';
import {
  formatUrlState,
  nextOlderCrawl,
  parseUrlState,
  resolveCrawlSelection,
  sectionState,
  withCrawl,
  withWebsite,
} from './url-state.ts';

const crawl = (crawlId: number, start: string, end: string, partial: Crawl['partial'] = null): Crawl => ({
  id: `c${crawlId}`,
  crawlId,
  crawledAt: `${end}T10:00:00Z`,
  crawledFriendly: end,
  label: `${end} (crawl ${crawlId})`,
  partial,
  dataStart: start,
  dataEnd: end,
  moduleState: 'APPROVED',
});
const crawls = [
  crawl(6, '2025-03-01', '2025-03-28'),
  crawl(5, '2025-02-01', '2025-02-28'),
  crawl(3, '2025-01-01', '2025-01-31'),
];

describe('query string', () => {
  it('round-trips every field in a stable order', () => {
    const search =
      '?website=northwind&segment=blog&crawl=6&compare=3&from=2025-02-01&to=2025-02-10&filter=%2Fblog%2F&checked=1&tab=added&page=3&size=50&sort=http_status_code.desc%2Curl.asc';
    const state = parseUrlState(search);
    expect(state).toEqual({
      website: 'northwind',
      segment: 'blog',
      crawl: 6,
      compare: 3,
      from: '2025-02-01',
      to: '2025-02-10',
      filter: '/blog/',
      checked: true,
      tab: 'added',
      page: 3,
      size: 50,
      sort: [
        { id: 'http_status_code', desc: true },
        { id: 'url', desc: false },
      ],
    });
    expect(formatUrlState(state)).toBe(search);
  });

  it('keeps a removal reason only on the Removed tab, and only a known one', () => {
    expect(parseUrlState('?tab=removed&reason=not+crawled')).toEqual({ tab: 'removed', reason: 'not crawled' });
    expect(formatUrlState({ tab: 'removed', reason: 'not crawled' })).toBe('?tab=removed&reason=not+crawled');
    expect(parseUrlState('?tab=added&reason=gone')).toEqual({ tab: 'added' });
    expect(parseUrlState('?tab=removed&reason=vanished')).toEqual({ tab: 'removed' });
    expect(formatUrlState({ tab: 'added', reason: 'gone' })).toBe('?tab=added');
  });

  it('drops defaults and invalid values', () => {
    expect(parseUrlState('?crawl=abc&page=1&size=10&tab=all&size=7&from=2025-02-10&to=2025-02-01&sort=x;drop')).toEqual(
      {},
    );
    expect(parseUrlState('?size=33')).toEqual({});
    expect(formatUrlState({ tab: 'all', page: 1, size: 10, checked: false })).toBe('');
  });
});

describe('state rules (spec §4)', () => {
  it('changing the crawl resets the comparison, the data range and paging', () => {
    const next = withCrawl(
      { website: 'w', crawl: 6, compare: 3, from: '2025-02-01', to: '2025-02-02', page: 4, filter: 'x' },
      5,
    );
    expect(next).toEqual({ website: 'w', crawl: 5, filter: 'x' });
    const selection = resolveCrawlSelection(crawls, next);
    expect(selection.comparison?.crawlId).toBe(3);
    expect(selection.range).toEqual({ start: '2025-02-01', end: '2025-02-28' });
  });

  it('changing website resets the crawl state', () => {
    expect(withWebsite({ website: 'a', crawl: 6, compare: 5, filter: 'x', page: 2 }, 'b')).toEqual({ website: 'b' });
  });

  it('defaults to the newest crawl, the next older comparison and the crawl range', () => {
    const selection = resolveCrawlSelection(crawls, {});
    expect(selection.current?.crawlId).toBe(6);
    expect(selection.comparison?.crawlId).toBe(5);
    expect(selection.range).toEqual({ start: '2025-03-01', end: '2025-03-28' });
  });

  it('has no comparison for the oldest crawl', () => {
    expect(resolveCrawlSelection(crawls, { crawl: 3 }).comparison).toBeUndefined();
    expect(nextOlderCrawl(crawls, crawls[2]!)).toBeUndefined();
  });

  it('never defaults to a partial crawl, and still takes one chosen', () => {
    const withPartial = [crawls[0]!, crawl(5, '2025-02-01', '2025-02-28', 'time-limit'), crawls[2]!];
    expect(resolveCrawlSelection(withPartial, {}).comparison?.crawlId).toBe(3);
    expect(resolveCrawlSelection(withPartial, { compare: 5 }).comparison?.crawlId).toBe(5);
    expect(resolveCrawlSelection(withPartial.slice(0, 2), {}).comparison).toBeUndefined();
  });

  it('ignores a comparison that is not older than the current crawl', () => {
    expect(resolveCrawlSelection(crawls, { crawl: 5, compare: 6 }).comparison?.crawlId).toBe(3);
  });

  it('flags a crawl the list does not hold and falls back to the newest', () => {
    const selection = resolveCrawlSelection(crawls, { crawl: 99 });
    expect(selection.isUnknownCrawl).toBe(true);
    expect(selection.current?.crawlId).toBe(6);
  });

  it('keeps the selection and filters, not the paging, across pages', () => {
    expect(
      sectionState({ website: 'w', crawl: 6, filter: 'f', checked: true, page: 3, sort: [{ id: 'url', desc: true }] }),
    ).toEqual({
      website: 'w',
      crawl: 6,
      filter: 'f',
      checked: true,
    });
  });
});
