/**
 * Not connected is not zero (issue 26 §4): "In Search Console" and "In Analytics" of a crawl that lacks the source
 * are empty (NULL), and "not found" (FALSE) only for a page a connected source does not know. Checked on the
 * precomputed rows and on live ones, through the engine as the routes call it, with a report that shows both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportById } from '../../catalog/index.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { openDatabase, textOf } from '../db/duckdb.ts';
import type { CrawlTarget } from '../engine/compile.ts';
import { ReportEngine } from '../engine/engine.ts';
import { tableOf } from '../engine/result.ts';
import { FROM_EXPORT } from '../source-data/join-sources.ts';
import { CRAWL_META_FILE } from '../store/layout.ts';
import { makeTempDataDir, writeCrawlToStore, type FixtureRow } from './helpers/make-store.ts';
import { openCrawlRegistry } from '../source-data/mid-refresh.ts';

const page = (site: string, p: string): FixtureRow => ({
  url: `https://${site}.example${p}`,
  http_status_code: 200,
  indexable: true,
  internal: true,
  found_in_web_crawl: true,
  html_size: 20000,
});

/** A report of every crawled page with both boolean metrics as columns. */
const inSources: ReportDefinition = {
  ...reportById('analytics/missing')!,
  id: 'test/in-sources',
  filter: 'COALESCE(found_in_web_crawl, FALSE)',
  datatableColumns: ['url', 'gsc_exists', 'ga_exists'],
};

let dataDir: string;
let engine: ReportEngine;
let close: () => void;
const targets = new Map<string, CrawlTarget>();

beforeAll(async () => {
  dataDir = makeTempDataDir('thc-not-connected-');
  const reports = [inSources, reportById('analytics/missing')!];
  await writeCrawlToStore(
    dataDir,
    { websiteId: 'bare', crawlId: 1, tables: { urls: [page('bare', '/a'), page('bare', '/b')] } },
    { reports },
  );
  await writeCrawlToStore(
    dataDir,
    {
      websiteId: 'tracked',
      crawlId: 1,
      tables: {
        urls: [page('tracked', '/a'), page('tracked', '/b')],
        analytics: [{ date: '2025-01-05', url: 'https://tracked.example/a', channel: 'organic', sessions: 3 }],
      },
    },
    { reports },
  );
  // Connected (crawl.json names the sources) with no rows in the window: every page is "not found". Not
  // precomputed, so both variants read it live, connected as the engine reads crawl.json.
  const quiet = await writeCrawlToStore(
    dataDir,
    { websiteId: 'quiet', crawlId: 1, tables: { urls: [page('quiet', '/a')] }, isPrecomputed: false },
    { reports },
  );
  fs.writeFileSync(
    path.join(quiet.dir, CRAWL_META_FILE),
    JSON.stringify({ ...quiet.meta, sources: { analytics: 'v1', 'search-console': FROM_EXPORT } }),
  );
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  engine = new ReportEngine(db, registry);
  for (const site of ['bare', 'tracked', 'quiet']) targets.set(site, await engine.target(registry.crawls(site)[0]!));
  close = () => {
    engine.dispose();
    db.closeSync();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}, 120_000);

afterAll(() => close?.());

async function rowsOf(report: ReportDefinition, target: CrawlTarget): Promise<unknown[][]> {
  const result = await engine.rows({
    report,
    current: target,
    dataDateRange: target.defaultRange,
    differenceType: 'all',
    showChecked: true,
    orderBy: [],
    limit: 100,
    offset: 0,
  });
  const table = tableOf(result.columns);
  const column = (id: string): unknown[] => [...(table.getChild(id) ?? [])];
  const urls = column('url').map(textOf);
  return urls.map((url, i) => [url, ...report.datatableColumns.slice(1).map((id) => column(id)[i] ?? null)]);
}

describe.each([
  ['precomputed', (t: CrawlTarget): CrawlTarget => t],
  ['live', (t: CrawlTarget): CrawlTarget => ({ ...t, precomputed: new Map() })],
])('boolean source columns, %s rows', (_, as) => {
  it('are empty for a source the crawl lacks, not "not found"', async () => {
    expect(await rowsOf(inSources, as(targets.get('bare')!))).toEqual([
      ['https://bare.example/a', null, null],
      ['https://bare.example/b', null, null],
    ]);
  });

  it('are "not found" for a page a connected source does not know', async () => {
    // Analytics connected (its rows), search console not.
    expect(await rowsOf(inSources, as(targets.get('tracked')!))).toEqual([
      ['https://tracked.example/a', null, true],
      ['https://tracked.example/b', null, false],
    ]);
  });

  it('are "not found" for every page of a source connected without rows in the window', async () => {
    expect(await rowsOf(inSources, as(targets.get('quiet')!))).toEqual([['https://quiet.example/a', false, false]]);
  });

  it('leave the filters that read them as they were', async () => {
    const missing = reportById('analytics/missing')!;
    expect((await rowsOf(missing, as(targets.get('tracked')!))).map((r) => r[0])).toEqual([
      'https://tracked.example/b',
    ]);
    // Not connected, its rows would be every page (the overview and the routes answer "not connected" instead).
    expect((await rowsOf(missing, as(targets.get('bare')!))).map((r) => r[0])).toEqual([
      'https://bare.example/a',
      'https://bare.example/b',
    ]);
  });
});
