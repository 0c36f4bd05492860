import { describe, expect, it } from 'vitest';
import { dataWindowBefore, requiredSourceOf, sourceOfTable } from './data-sources.ts';

describe('dataWindowBefore', () => {
  it('is the 28 whole days before the crawl date, across a month end and whatever the hour', () => {
    expect(dataWindowBefore(new Date('2026-11-16T09:00:00Z'))).toEqual({
      dataStart: '2026-10-19',
      dataEnd: '2026-11-15',
    });
    expect(dataWindowBefore(new Date('2026-03-01T23:59:59Z'))).toEqual({
      dataStart: '2026-02-01',
      dataEnd: '2026-02-28',
    });
  });

  it("is the website's setting when it has one (crawl settings, Data window)", () => {
    expect(dataWindowBefore(new Date('2026-11-16T09:00:00Z'), 7)).toEqual({
      dataStart: '2026-11-09',
      dataEnd: '2026-11-15',
    });
  });
});

describe('sources of reports and tables', () => {
  it('names the source a category needs, and none for crawl-fed ones', () => {
    expect(requiredSourceOf('search-console')).toBe('search-console');
    expect(requiredSourceOf('analytics')).toBe('analytics');
    expect(requiredSourceOf('status-code')).toBeUndefined();
    expect(sourceOfTable('search_console_queries')).toBe('search-console');
    expect(sourceOfTable('ads_one')).toBe('google-ads');
    expect(sourceOfTable('urls')).toBeUndefined();
  });
});
