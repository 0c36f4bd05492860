/**
 * A Search Console table may not hold a period's totals and rows by date on the days of that period, whichever comes
 * first, unless --replace says which to keep: the join would count those days twice. The near misses: dates outside
 * the period, and the same period file again.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../sources/import-data.ts';
import { ImportError } from '../sources/import-error.ts';
import { storeDir } from '../store/layout.ts';
import { tempDir } from './auth-fixture.ts';
import { FIXTURES, PERFORMANCE_CSVS, SITE, loadSiteWithoutSources } from './helpers/source-fixtures.ts';
import { snapshotTree } from './helpers/tree-snapshot.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = tempDir('thc-dates-in-periods-');
  await loadSiteWithoutSources(tempDir('thc-dates-in-periods-exports-'), dataDir);
}, 300_000);

const pages = PERFORMANCE_CSVS.find((f) => f.endsWith('Pages.csv'))!;
const byDate = path.join(FIXTURES, 'search-console/api/searchanalytics-date-page.json');
const common = { websiteId: SITE, source: 'search-console' as const, isRefreshDeferred: true };
const period = (start: string, end: string, isReplace = false) =>
  importData({ dataDir, ...common, files: [pages], range: { start, end }, replace: isReplace });
const dated = (isReplace = false) => importData({ dataDir, ...common, files: [byDate], replace: isReplace });

/** The import's refusal, with the store as it was before. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  const before = snapshotTree(storeDir(dataDir));
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).kind).toBe('conflict');
  expect(snapshotTree(storeDir(dataDir))).toEqual(before);
  return (error as Error).message;
}

describe('rows by date and a period’s totals in one table', () => {
  it('refuses rows by date on the days of a period held, and a period over the days of rows by date held', async () => {
    expect((await period('2026-11-05', '2026-11-12')).isUnchanged).toBe(false);
    expect(await refusal(() => dated())).toContain(
      'searchanalytics-date-page.json: its rows on 2026-11-09 to 2026-11-10 overlap the totals for 2026-11-05 to 2026-11-12 (one period, search_console) imported before',
    );
    // The same period file again changes nothing; a period elsewhere is taken.
    expect((await period('2026-11-05', '2026-11-12')).isUnchanged).toBe(true);
    expect((await period('2026-10-01', '2026-10-14')).isUnchanged).toBe(false);
    // With --replace the rows by date take those days, and the period's totals, which cannot be split, go whole.
    expect((await dated(true)).isUnchanged).toBe(false);
    expect(await refusal(() => period('2026-11-03', '2026-11-16'))).toContain(
      'Pages.csv: its totals for 2026-11-03 to 2026-11-16 (one period) overlap the search_console rows by date imported before on 2026-11-09 to 2026-11-10',
    );
    expect((await period('2026-11-11', '2026-11-16')).isUnchanged).toBe(false);
  }, 300_000);
});
