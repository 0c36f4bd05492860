/**
 * The refresh an import runs holds DuckDB to its own memory limit (REFRESH_MEMORY), not a crawl load's 2 GB:
 * the limit given reaches the database each crawl is rebuilt in, and a refresh that fails on it leaves the import
 * published and the crawls as they were, for the next refresh to finish.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importData, refreshJoins } from '../sources/import-data.ts';
import { readCrawlMeta, readCurrentLoad } from '../store/layout.ts';
import { tempDir } from './auth-fixture.ts';
import { BULK_CSV, SITE, loadSiteWithoutSources } from './helpers/source-fixtures.ts';

let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('thc-refresh-memory-');
  await loadSiteWithoutSources(tempDir('thc-refresh-memory-exports-'), dataDir);
}, 300_000);

const joinedBy = (crawlId: number): string | undefined =>
  readCrawlMeta(readCurrentLoad(dataDir, SITE, crawlId)!.dir).sources?.['search-console'];

describe("the refresh after an import, within the import's memory", () => {
  it('applies the memory limit to the rebuilt crawl databases', async () => {
    const imported = await importData({
      dataDir,
      websiteId: SITE,
      source: 'search-console',
      files: [BULK_CSV],
      isRefreshDeferred: true,
    });
    const starved = await refreshJoins(dataDir, { websiteId: SITE, memoryLimit: '1MB' });
    expect(starved.refreshFailure).toMatch(/memory/i);
    expect([joinedBy(1), joinedBy(2)]).toEqual([undefined, undefined]);

    const refreshed = await refreshJoins(dataDir, { websiteId: SITE });
    expect(refreshed.refreshFailure).toBeNull();
    expect([joinedBy(1), joinedBy(2)]).toEqual([imported.versionId, imported.versionId]);
  }, 300_000);
});
