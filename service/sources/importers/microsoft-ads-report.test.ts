import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { microsoftAdsReport } from './microsoft-ads-report.ts';

const report = path.resolve(import.meta.dirname, '../../../fixtures/sources/microsoft-ads/destination-url-report.csv');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-microsoft-ads-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const variant = (name: string, edit: (text: string) => string): string => {
  const file = path.join(work, name);
  fs.writeFileSync(file, edit(fs.readFileSync(report, 'utf8')));
  return file;
};

describe('the Microsoft Advertising report', () => {
  it('reads the table between the header block and the copyright line, by day and landing URL', async () => {
    const staged = await stageFiles(microsoftAdsReport, [report]);
    expect(staged.coverage).toEqual({ start: '2026-11-02', end: '2026-11-10', granularity: 'day' });
    expect(staged.notes).toEqual(['amounts are in EUR as exported (not converted to pounds)']);
    const rows = staged.tables.ads_two!;
    expect(rows.map((r) => [r.date, r.url, Number(r.impressions), Number(r.clicks)])).toEqual([
      ['2026-11-02', 'https://www.alpine-travel.eu/de/deutschland/berchtesgaden-urlaub-c16/', 418, 12],
      ['2026-11-02', 'https://www.alpine-travel.eu/de/', 1096, 58],
      ['2026-11-02', 'https://www.alpine-travel.eu/de/', 212, 4],
      ['2026-11-10', 'https://www.alpine-travel.eu/de/', 980, 51],
      // No FinalUrl: the destination URL is the landing page.
      ['2026-11-10', 'http://www.alpine-travel.eu/de/deutschland/?utm_source=bing', 377, 9],
    ]);
    expect(rows[1]).toMatchObject({ costs: 17.98, conversions: 3, revenue: 1240.5 });
  });

  it('takes US dates and the web interface column titles, as its download writes them', async () => {
    const file = variant('ui.csv', (text) =>
      text
        .replaceAll('"2026-11-02"', '"11/2/2026"')
        .replace('"TimePeriod"', '"Time period"')
        .replace('"FinalUrl"', '"Final URL"'),
    );
    const rows = (await stageFiles(microsoftAdsReport, [file])).tables.ads_two!;
    expect(rows[0]).toMatchObject({ date: '2026-11-02', clicks: 12n });
  });

  it('places a Summary report on the last day of its Report Time', async () => {
    const file = variant('summary.csv', (text) =>
      text
        .replace('Report Aggregation: Daily', 'Report Aggregation: Summary')
        .replace('"TimePeriod",', '')
        .replace(/^"2026-11-\d\d",/gm, ''),
    );
    const staged = await stageFiles(microsoftAdsReport, [file]);
    expect(staged.coverage).toEqual({ start: '2026-11-02', end: '2026-11-10', granularity: 'period' });
    expect(new Set(staged.tables.ads_two!.map((r) => r.date))).toEqual(new Set(['2026-11-10']));
  });

  it('refuses weekly figures and a bad day, naming the file and cell', async () => {
    const weekly = variant('weekly.csv', (text) => text.replace('Aggregation: Daily', 'Aggregation: Weekly'));
    await expect(stageFiles(microsoftAdsReport, [weekly])).rejects.toThrow(
      `${weekly}: a report aggregated "weekly"; import a Daily report`,
    );
    const bad = variant('bad.csv', (text) =>
      text.replace('"2026-11-10","Alpine Travel","DE | Brand"', '"2026-11-31","Alpine Travel","DE | Brand"'),
    );
    await expect(stageFiles(microsoftAdsReport, [bad])).rejects.toThrow(
      `${bad}:15:1: TimePeriod "2026-11-31" is not a day`,
    );
  });
});
