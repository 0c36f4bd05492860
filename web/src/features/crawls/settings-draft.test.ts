import { describe, expect, it } from 'vitest';
import { defaultCrawlSettings } from '../../../../catalog/crawl-runs.ts';
import { checkDraft, isChanged, toDraft } from './settings-draft.ts';

const saved = { ...defaultCrawlSettings('example.com'), include: ['^https://example\\.com/blog/'] };

describe('settings draft', () => {
  it('round-trips saved settings unchanged', () => {
    const check = checkDraft(toDraft(saved));
    expect(check.settings).toEqual(saved);
    expect(isChanged(check, saved)).toBe(false);
  });

  it('reads lists one per line, ignoring blank lines and spaces', () => {
    const check = checkDraft({
      ...toDraft(saved),
      exclude: ' \\?sort=\n\n/cart/ \n',
      sitemaps: 'https://example.com/s.xml\n',
    });
    expect(check.settings?.exclude).toEqual(['\\?sort=', '/cart/']);
    expect(check.settings?.sitemaps).toEqual(['https://example.com/s.xml']);
    expect(isChanged(check, saved)).toBe(true);
  });

  it('names the field of the first problem with the service message', () => {
    expect(checkDraft({ ...toDraft(saved), maxUrls: '' }).problem).toEqual({
      field: 'maxUrls',
      error: 'Max URLs must be a whole number from 1 to 1,000,000',
    });
    expect(checkDraft({ ...toDraft(saved), startUrl: 'ftp://example.com/' }).problem).toEqual({
      field: 'startUrl',
      error: 'Start URL "ftp://example.com/" must start with http:// or https://',
    });
    expect(checkDraft({ ...toDraft(saved), scheduleTime: '' }).problem?.field).toBe('schedule');
  });

  it('turns the None day into no schedule', () => {
    expect(checkDraft({ ...toDraft(saved), scheduleDay: 'none' }).settings?.schedule).toBeNull();
    expect(checkDraft({ ...toDraft(saved), scheduleDay: 'sunday', scheduleTime: '23:15' }).settings?.schedule).toEqual({
      day: 'sunday',
      time: '23:15',
    });
  });
});
