import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { trendsMultiTimeline } from './trends-multi-timeline.ts';

const timeline = path.resolve(import.meta.dirname, '../../../fixtures/sources/trends/multiTimeline.csv');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-trends-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const variant = (name: string, edit: (text: string) => string): string => {
  const file = path.join(work, name);
  fs.writeFileSync(file, edit(fs.readFileSync(timeline, 'utf8')));
  return file;
};

describe('Google Trends multiTimeline.csv', () => {
  it('keeps each term by week start, the comparison as topic, and <1 as 0.5', async () => {
    const staged = await stageFiles(trendsMultiTimeline, [timeline]);
    expect(staged.coverage).toEqual({ start: '2026-09-27', end: '2026-11-15', granularity: 'week' });
    expect(staged.notes).toEqual(['interest in Germany']);
    const rows = staged.tables.trends!;
    expect(rows).toHaveLength(16);
    expect(rows.slice(8, 10)).toEqual([
      { date: '2026-10-25', topic: 'alpine travel vs berchtesgaden urlaub', query: 'alpine travel', value: 61 },
      { date: '2026-10-25', topic: 'alpine travel vs berchtesgaden urlaub', query: 'berchtesgaden urlaub', value: 0.5 },
    ]);
  });

  it('places monthly values on the first of the month', async () => {
    const file = variant('monthly.csv', (text) =>
      text
        .replace('Week,', 'Month,')
        .replace(/^(\d{4}-\d{2})-\d{2},/gm, '$1,')
        .split('\n')
        .slice(0, 5)
        .join('\n'),
    );
    const staged = await stageFiles(trendsMultiTimeline, [file]);
    expect(staged.coverage).toEqual({ start: '2026-09-01', end: '2026-10-01', granularity: 'month' });
  });

  it('refuses hourly files and a value over 100, naming line and column', async () => {
    const hourly = variant('hourly.csv', (text) => text.replace('Week,', 'Time,'));
    await expect(stageFiles(trendsMultiTimeline, [hourly])).rejects.toThrow(`${hourly}: hourly interest`);
    const bad = variant('bad.csv', (text) => text.replace('2026-11-08,100,33', '2026-11-08,100,133'));
    await expect(stageFiles(trendsMultiTimeline, [bad])).rejects.toThrow(
      `${bad}:10:3: interest "133" is not a whole number from 0 to 100`,
    );
  });
});
