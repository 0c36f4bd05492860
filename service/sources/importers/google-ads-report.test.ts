import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { googleAdsReport, keywordText } from './google-ads-report.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/sources/google-ads');
const searchTerms = path.join(FIXTURES, 'search-terms-report.csv');
const landingPages = path.join(FIXTURES, 'landing-page-report.csv');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-google-ads-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const write = (name: string, text: string | Buffer): string => {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
};

describe('keywordText', () => {
  it('drops the match-type notation of exact, phrase and modified broad keywords', () => {
    expect(keywordText('[alpine travel]')).toBe('alpine travel');
    expect(keywordText('"urlaub deutschland"')).toBe('urlaub deutschland');
    expect(keywordText('+berchtesgaden +urlaub')).toBe('berchtesgaden urlaub');
    expect(keywordText('c++ kurs')).toBe('c++ kurs');
  });
});

describe('the Google Ads search terms report', () => {
  it('keeps search terms and keywords, drops the Total rows and places the totals on the range end', async () => {
    const staged = await stageFiles(googleAdsReport, [searchTerms]);
    expect(staged.coverage).toEqual({ start: '2026-11-09', end: '2026-11-15', granularity: 'period' });
    expect(staged.notes).toEqual(['amounts are in EUR as exported (not converted to pounds)']);
    const rows = staged.tables.ads_one!;
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => [r.search_term, r.query, r.url, String(r.date)])).toContainEqual([
      'urlaub, deutschland',
      'urlaub deutschland',
      null,
      '2026-11-15',
    ]);
    expect(rows[0]).toMatchObject({
      search_term: 'alpine travel',
      query: 'alpine travel',
      impressions: 1204n,
      clicks: 87n,
      costs: 36.54,
      conversions: 9,
      all_conversions: 11,
      revenue: 1830.5,
      all_revenue: 2104.1,
    });
    // Two campaigns' rows of one search term and keyword stay two rows here; the import sums them per key.
    expect(rows.filter((r) => r.search_term === 'berchtesgaden urlaub').map((r) => Number(r.clicks))).toEqual([64, 6]);
  });

  it('reads the "Excel" download: UTF-16 with a byte-order mark, tab-separated', async () => {
    const text = fs.readFileSync(searchTerms, 'utf8');
    const tabbed = text
      .split('\r\n')
      .map((line) => line.replace(/"((?:[^"]|"")*)"|,/g, (m, quoted?: string) => (quoted === undefined ? '\t' : m)))
      .join('\r\n');
    const file = write('excel.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tabbed, 'utf16le')]));
    const staged = await stageFiles(googleAdsReport, [file]);
    expect(staged.tables.ads_one).toHaveLength(5);
    expect(staged.tables.ads_one![0]).toMatchObject({ impressions: 1204n, all_revenue: 2104.1 });
  });

  it('needs a date range: the range line, a Day column or --start/--end', async () => {
    const text = fs.readFileSync(searchTerms, 'utf8').replace('"November 9, 2026 - November 15, 2026"', 'All time');
    const file = write('all-time.csv', text);
    await expect(stageFiles(googleAdsReport, [file])).rejects.toThrow(
      'all-time.csv: no date range line above the header and no Day column',
    );
    const staged = await stageFiles(googleAdsReport, [file], { start: '2026-11-01', end: '2026-11-14' });
    expect(staged.coverage).toEqual({ start: '2026-11-01', end: '2026-11-14', granularity: 'period' });
  });

  it('refuses a bad number with its line and column', async () => {
    const text = fs.readFileSync(searchTerms, 'utf8').replace('"2,950",64', '"2.950,5",64');
    const file = write('bad.csv', text);
    await expect(stageFiles(googleAdsReport, [file])).rejects.toThrow(`${file}:6:8: Impr. "2.950,5" is not a number`);
  });
});

describe('the Google Ads landing page report', () => {
  it('keeps landing URLs by day, without query or search term', async () => {
    const staged = await stageFiles(googleAdsReport, [landingPages]);
    expect(staged.coverage).toEqual({ start: '2026-11-02', end: '2026-11-03', granularity: 'day' });
    const rows = staged.tables.ads_one!;
    expect(rows.map((r) => [String(r.date), r.url, r.query, r.search_term, Number(r.clicks)])).toEqual([
      ['2026-11-02', 'https://www.alpine-travel.eu/de/', null, null, 41],
      ['2026-11-02', 'https://www.alpine-travel.eu/de/deutschland/berchtesgaden-urlaub-c16/', null, null, 18],
      ['2026-11-03', 'https://www.alpine-travel.eu/de/', null, null, 37],
      ['2026-11-03', 'https://www.alpine-travel.eu/de/sommer-aktion/', null, null, 3],
    ]);
    // "--" is none (NULL), not zero.
    expect(rows[3]).toMatchObject({ conversions: null, revenue: null, costs: 1.83 });
  });

  it('refuses amounts in two currencies', async () => {
    const text = fs.readFileSync(landingPages, 'utf8').replace('3.65%,EUR', '3.65%,CHF');
    await expect(stageFiles(googleAdsReport, [write('mixed.csv', text)])).rejects.toThrow(
      'amounts in several currencies (EUR, CHF)',
    );
  });
});
