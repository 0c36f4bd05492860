/** Opens the sample crawls (sample-crawls.ts) as the service sees them: a store, a registry and an engine. */
import fs from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { dataSources } from '../../../catalog/data-sources.ts';
import { reportById } from '../../../catalog/index.ts';
import type { ReportDefinition } from '../../../catalog/schema.ts';
import { openDatabase } from '../../db/duckdb.ts';
import type { CrawlTarget, RowsRequest } from '../../engine/compile.ts';
import { ReportEngine } from '../../engine/engine.ts';
import type { PrecomputeOptions } from '../../engine/precompute.ts';
import { PRECOMPUTE_VERSION, type StoredPrecompute } from '../../engine/stored-precompute.ts';
import { CrawlRegistry } from '../../store/registry.ts';
import { makeTempDataDir, writeCrawlToStore } from './make-store.ts';
import { SITE, sampleCrawls } from './sample-crawls.ts';
import { openCrawlRegistry } from '../../source-data/mid-refresh.ts';

export interface SampleStore {
  dataDir: string;
  db: DuckDBInstance;
  registry: CrawlRegistry;
  engine: ReportEngine;
  /** Crawl targets by crawl id. */
  crawls: Map<number, CrawlTarget>;
  close(): void;
}

export async function openSampleStore(
  options: { isPrecomputed?: boolean; withoutSources?: boolean } & CopyOptions = {},
): Promise<SampleStore> {
  const dataDir = makeTempDataDir();
  const { isPrecomputed = true, withoutSources = false, ...precompute } = options;
  const noSources = Object.fromEntries(dataSources.flatMap((s) => s.tables).map((t) => [t, []]));
  for (const crawl of sampleCrawls())
    await writeCrawlToStore(
      dataDir,
      { ...crawl, isPrecomputed, ...(withoutSources && { tables: { ...crawl.tables, ...noSources } }) },
      precompute,
    );
  const db = await openDatabase();
  const registry = await openCrawlRegistry(dataDir, db);
  const engine = new ReportEngine(db, registry);
  const crawls = new Map<number, CrawlTarget>();
  for (const record of registry.crawls(SITE)) crawls.set(record.crawlId, await engine.target(record));
  return {
    dataDir,
    db,
    registry,
    engine,
    crawls,
    close() {
      engine.dispose();
      db.closeSync();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function report(id: string): ReportDefinition {
  const found = reportById(id);
  if (!found) throw new Error(`no report ${id}`);
  return found;
}

/** A rows request on crawl `current` against `comparison`, over the current crawl's default range. */
export function rowsRequest(
  store: SampleStore,
  reportId: string,
  extra: Partial<RowsRequest> & { currentId?: number; comparisonId?: number | null } = {},
): RowsRequest {
  const { currentId = 2, comparisonId = 1, ...rest } = extra;
  const current = store.crawls.get(currentId)!;
  return {
    report: report(reportId),
    current,
    comparison: comparisonId === null ? undefined : store.crawls.get(comparisonId),
    dataDateRange: current.defaultRange,
    differenceType: 'all',
    showChecked: false,
    orderBy: [],
    limit: 10,
    offset: 0,
    ...rest,
  };
}

/** What crawl `crawlId` holds of precomputed reports, as the refresh's staleness check reads it. */
export function storedPrecomputeOf(store: SampleStore, crawlId = 2): StoredPrecompute {
  const target = store.crawls.get(crawlId)!;
  return { tables: new Set(target.tables), version: PRECOMPUTE_VERSION, reports: new Map(target.precomputed) };
}

type CopyOptions = Pick<PrecomputeOptions, 'sortedCopyMinRows' | 'urlMatchCopyMinRows'>;
/**
 * Two stores of the sample crawls per storage order (the at-stake order, then key order without sources): one
 * without copies beside its row tables and one with `copies` (a low minimum, to get them beside small tables).
 */
export async function openCopyPairs(copies: CopyOptions): Promise<{ plain: SampleStore; copied: SampleStore }[]> {
  const pairs = [];
  for (const withoutSources of [false, true])
    pairs.push({
      plain: await openSampleStore({ withoutSources }),
      copied: await openSampleStore({ withoutSources, ...copies }),
    });
  return pairs;
}
