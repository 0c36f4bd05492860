/**
 * A source's older version stays while a live crawl still joins it: the query report reads which rows are a period's
 * totals from the version the crawl joined (period-days.ts), so imports whose refresh has not run yet (or failed)
 * must not take it away. Once the refresh has moved every crawl to the live version, the older ones go.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_META_FILE, sourceDir } from '../source-data/source-store.ts';
import { importData, refreshJoins } from '../sources/import-data.ts';
import { readCrawlMeta, readCurrentLoad } from '../store/layout.ts';
import { tempDir } from './auth-fixture.ts';
import { PERFORMANCE_CSVS, SITE, loadSiteWithoutSources } from './helpers/source-fixtures.ts';

let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('thc-source-versions-');
  await loadSiteWithoutSources(tempDir('thc-source-versions-exports-'), dataDir);
}, 300_000);

const versionsOnDisk = (): string[] => {
  const dir = sourceDir(dataDir, SITE, 'search-console');
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, SOURCE_META_FILE)))
    .sort();
};
const joinedBy = (crawlId: number): string | undefined =>
  readCrawlMeta(readCurrentLoad(dataDir, SITE, crawlId)!.dir).sources?.['search-console'];

const pages = PERFORMANCE_CSVS.find((f) => f.endsWith('Pages.csv'))!;
const importPeriod = async (start: string, end: string): Promise<string> => {
  const result = await importData({
    dataDir,
    websiteId: SITE,
    source: 'search-console',
    files: [pages],
    range: { start, end },
    isRefreshDeferred: true,
  });
  expect(result.isUnchanged).toBe(false);
  return result.versionId!;
};

describe('source versions a crawl joined', () => {
  it('keeps the version live crawls joined until their refresh is done, then removes it', async () => {
    const first = await importData({ dataDir, websiteId: SITE, source: 'search-console', files: PERFORMANCE_CSVS });
    expect(first.refreshFailure).toBeNull();
    const joined = first.versionId!;
    expect([joinedBy(1), joinedBy(2)]).toEqual([joined, joined]);
    expect(versionsOnDisk()).toEqual([joined]);

    const second = await importPeriod('2026-10-01', '2026-10-14');
    expect(versionsOnDisk()).toEqual([joined, second].sort());
    // The second import's own version goes: it is neither live nor joined by a crawl.
    const third = await importPeriod('2026-09-01', '2026-09-14');
    expect(versionsOnDisk()).toEqual([joined, third].sort());
    expect([joinedBy(1), joinedBy(2)]).toEqual([joined, joined]);

    const refreshed = await refreshJoins(dataDir, { websiteId: SITE });
    expect(refreshed.refreshFailure).toBeNull();
    expect([joinedBy(1), joinedBy(2)]).toEqual([third, third]);
    expect(versionsOnDisk()).toEqual([third]);
  }, 300_000);

  it('`load-crawl -- --refresh`, which finishes a refresh that failed, removes the versions no crawl joins any more', async () => {
    const live = await importPeriod('2026-08-01', '2026-08-14');
    expect(versionsOnDisk()).toHaveLength(2);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/load-crawl.ts', '--refresh'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect([joinedBy(1), joinedBy(2)]).toEqual([live, live]);
    expect(versionsOnDisk()).toEqual([live]);
  }, 300_000);
});
