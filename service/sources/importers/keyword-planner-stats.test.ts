import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stageFiles } from '../stage-files.ts';
import { keywordPlannerStats } from './keyword-planner-stats.ts';

const stats = path.resolve(import.meta.dirname, '../../../fixtures/sources/keyword-planner/keyword-stats.csv');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-keyword-planner-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The fixture edited as text and written back as Keyword Planner writes it: UTF-16LE with a byte-order mark. */
const variant = (name: string, edit: (text: string) => string): string => {
  const file = path.join(work, name);
  const text = edit(fs.readFileSync(stats).subarray(2).toString('utf16le'));
  fs.writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  return file;
};

describe('the Keyword Planner "Keyword Stats" export', () => {
  it('reads the UTF-16 tab-separated table: volumes, competition and the monthly searches', async () => {
    const staged = await stageFiles(keywordPlannerStats, [stats]);
    expect(staged.coverage).toEqual({ start: '2026-11-16', end: '2026-11-16', granularity: 'period' });
    expect(staged.notes).toEqual(['monthly searches 2025-11 to 2026-10']);
    const rows = staged.tables.keyword_planner!;
    expect(rows.map((r) => r.query)).toEqual([
      'alpine travel',
      'berchtesgaden urlaub',
      'urlaub deutschland',
      'alpine travel angebote',
    ]);
    expect(rows[1]).toMatchObject({
      customer_id: null,
      request_date: '2026-11-16',
      average_search_volume: 12100n,
      total_search_volume: 146_900n,
      competition: 'MEDIUM',
      competition_index: 41,
      average_cpc: null,
    });
    expect((rows[1]!.monthly_records as unknown[])[0]).toEqual({ year: 2025, month: 11, search_volume: 6600n });
    // "49500.0" is a count; a keyword without data has no volumes (NULL), not zero.
    expect(rows[2]).toMatchObject({ average_search_volume: 49500n, competition: 'HIGH' });
    expect(rows[3]).toMatchObject({ average_search_volume: null, total_search_volume: null, monthly_records: [] });
  });

  it('leaves out the summary rows of a segmentation (no keyword)', async () => {
    const file = variant('segmented.csv', (text) =>
      text.replace('\r\nalpine travel\t', '\r\n\tEUR\tAll\t220\t\t\t\t\t\t\t\t\t\t\r\nalpine travel\t'),
    );
    const staged = await stageFiles(keywordPlannerStats, [file]);
    expect(staged.tables.keyword_planner).toHaveLength(4);
    expect(staged.notes).toContain('1 segmentation summary rows (no keyword) left out');
  });

  it('refuses volume ranges and an unknown competition, naming line and column', async () => {
    const ranged = variant('ranged.csv', (text) => text.replace('\t12100\t-18%', '\t10K – 100K\t-18%'));
    await expect(stageFiles(keywordPlannerStats, [ranged])).rejects.toThrow(
      `${ranged}:5:4: Avg. monthly searches "10K – 100K" is a range`,
    );
    const odd = variant('odd.csv', (text) => text.replace('\tMedium\t', '\tOrta\t'));
    await expect(stageFiles(keywordPlannerStats, [odd])).rejects.toThrow(
      `${odd}:5:7: Competition "Orta" is not Low, Medium or High`,
    );
  });
});
