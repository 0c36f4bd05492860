import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importerOf, openSourceFile } from './detect-format.ts';
import { searchConsolePerformance } from './importers/search-console-performance.ts';
import { stageFiles } from './stage-files.ts';
import { expandZips } from './zip-files.ts';

const zip = path.resolve(import.meta.dirname, '../../fixtures/sources/search-console/performance-export.zip');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-zip-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('expandZips', () => {
  it('puts the files of a Performance report ZIP in its place, named inside it, each told by its content', async () => {
    const files = await expandZips([openSourceFile('export.zip', zip)], fs.mkdtempSync(path.join(work, 'a-')));
    expect(files.map((f) => f.name)).toEqual([
      'export.zip/Queries.csv',
      'export.zip/Pages.csv',
      'export.zip/Countries.csv',
      'export.zip/Devices.csv',
      'export.zip/Search appearance.csv',
      'export.zip/Dates.csv',
      'export.zip/Filters.csv',
    ]);
    expect(new Set(files.map((f) => importerOf(f, 'search-console')))).toEqual(new Set([searchConsolePerformance]));
    const staged = await stageFiles(
      searchConsolePerformance,
      files.map((f) => f.path),
    );
    expect(staged.coverage).toEqual({ start: '2026-11-01', end: '2026-11-14', granularity: 'period' });
    expect(staged.tables.search_console).toHaveLength(5);
  });

  it('refuses a truncated ZIP, naming it', async () => {
    const cut = path.join(work, 'cut.zip');
    fs.writeFileSync(cut, fs.readFileSync(zip).subarray(0, 900));
    await expect(expandZips([openSourceFile('cut.zip', cut)], work)).rejects.toThrow(
      /^cut\.zip: a truncated or damaged ZIP \(/,
    );
  });

  it('leaves other files as they are', async () => {
    const csv = openSourceFile('Pages.csv', path.join(path.dirname(zip), 'performance/Pages.csv'));
    expect(await expandZips([csv], work)).toEqual([csv]);
  });
});
