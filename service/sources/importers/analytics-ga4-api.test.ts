import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { analyticsGa4Api } from './analytics-ga4-api.ts';

const report = path.resolve(import.meta.dirname, '../../../fixtures/sources/analytics/ga4-run-report.json');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-ga4-api-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const variant = (name: string, edit: (body: Record<string, unknown>) => unknown): string => {
  const file = path.join(work, name);
  fs.writeFileSync(file, JSON.stringify(edit(JSON.parse(fs.readFileSync(report, 'utf8')) as Record<string, unknown>)));
  return file;
};

describe('the GA4 Data API runReport response', () => {
  it('reads dimensions and metrics by their API names, by day and channel, leaving "(not set)" out', async () => {
    const staged = await stageFiles(analyticsGa4Api, [report]);
    expect(staged.coverage).toEqual({ start: '2026-11-09', end: '2026-11-10', granularity: 'day' });
    expect(staged.notes).toEqual([
      '1 rows without a page ("(not set)", "(other)") left out',
      'revenue is in EUR as reported (not converted to pounds)',
    ]);
    const rows = staged.tables.analytics!;
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({
      date: '2026-11-09',
      url: '/de/',
      channel: 'Organic Search',
      sessions: 233n,
      users: 221n,
      new_users: 170n,
      conversions: 6n,
      revenue: 11240.5,
      transactions: 5n,
      // Not requested: unknown, not 0.
      page_views: null,
    });
  });

  it('needs --start/--end without the date dimension, and refuses several date ranges', async () => {
    const undated = variant('undated.json', (body) => ({
      ...body,
      dimensionHeaders: [{ name: 'landingPagePlusQueryString' }],
      rows: (body.rows as { dimensionValues: unknown[] }[]).map((r) => ({
        ...r,
        dimensionValues: r.dimensionValues.slice(1, 2),
      })),
    }));
    await expect(stageFiles(analyticsGa4Api, [undated])).rejects.toThrow('no date dimension');
    const staged = await stageFiles(analyticsGa4Api, [undated], { start: '2026-11-01', end: '2026-11-14' });
    expect(staged.coverage).toEqual({ start: '2026-11-01', end: '2026-11-14', granularity: 'period' });
    expect(staged.tables.analytics![0]).toMatchObject({ date: '2026-11-14', channel: '(all)' });
    const ranges = variant('ranges.json', (body) => ({
      ...body,
      dimensionHeaders: [...(body.dimensionHeaders as unknown[]), { name: 'dateRange' }],
    }));
    await expect(stageFiles(analyticsGa4Api, [ranges])).rejects.toThrow('several date ranges');
  });
});
