/**
 * The report engine as the routes use it: crawl targets (tables and precomputed report state of each attached
 * crawl), rows and counts through the result cache, and per-report statistics that are look-ups in
 * `report_counts` whenever it matches the catalogue, with live queries as the fallback.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import { NO_SITEMAP_NOTICE } from '../../catalog/api.ts';
import { REMOVAL_REASONS, noRemovals, type RemovalCounts, type RemovalReason } from '../../catalog/removal-reasons.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { quoteIdent, textOf, withConnection } from '../db/duckdb.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import type { CrawlRecord, CrawlRegistry } from '../store/registry.ts';
import { LruCache } from './cache.ts';
import { ConnectionPool } from './connection-pool.ts';
import {
  compileCount,
  compileTab,
  type CrawlTarget,
  type DifferenceType,
  type RowsRequest,
  compileRowsOf,
} from './compile.ts';
import { createResultCache, runCount, runRows, tuneInstance, type CachedValue, type RunOptions } from './execute.ts';
import { emsRank } from './precompute.ts';
import { PRECOMPUTE_VERSION, readPrecomputed, scalar } from './stored-precompute.ts';
import { URL_MATCH_PREFIX_TABLE } from './url-match.ts';
import { readStakes, stakeOrderOf } from './stakes.ts';
import { connectedSourcesOf } from '../source-data/connected.ts';
import { baseCountSql, shapeOf } from './report-shape.ts';
import { raw, sql, tableRef } from './sql.ts';
import type { RowsResult } from './result.ts';

export interface ReportStats {
  reportId: string;
  rowCount: number;
  base: number;
  emsRank: number;
  /** Against the comparison crawl; null without one. */
  added: number | null;
  removed: number | null;
  removedByReason: RemovalCounts | null;
}

/** Reads what the engine needs about an attached crawl database. */
export async function loadCrawlTarget(
  db: DuckDBInstance,
  record: Pick<CrawlRecord, 'alias' | 'crawlId' | 'meta'>,
): Promise<CrawlTarget> {
  return withConnection(db, async (conn) => {
    const { tables, reports, version } = await readPrecomputed(conn, record.alias);
    const stakes = version === PRECOMPUTE_VERSION ? await readStakes(conn, record.alias, tables) : undefined;
    const connected = connectedSourcesOf(record.meta);
    const urlMatchPrefix = tables.has(URL_MATCH_PREFIX_TABLE)
      ? textOf(await scalar(conn, raw(`SELECT prefix FROM ${quoteIdent(record.alias)}.${URL_MATCH_PREFIX_TABLE}`)))
      : undefined;
    return {
      alias: record.alias,
      crawlId: record.crawlId,
      dataId: dataIdOf(record.meta),
      defaultRange: { start: record.meta.manifest.dataStart, end: record.meta.manifest.dataEnd },
      tables,
      urlMatchPrefix,
      connected,
      precomputed: reports,
      stakes,
      stakeOrder: stakeOrderOf(connected, tables),
    };
  });
}

/** A request for a whole tab under the crawl's default scope: what counts and statistics are computed over. */
export function tabRequest(
  report: ReportDefinition,
  current: CrawlTarget,
  comparison: CrawlTarget | undefined,
  differenceType: DifferenceType,
): RowsRequest {
  return {
    report,
    current,
    comparison,
    dataDateRange: current.defaultRange,
    differenceType,
    showChecked: true,
    orderBy: [],
    stakeOrder: current.stakeOrder,
    limit: 10,
    offset: 0,
  };
}

export interface EngineOptions {
  cacheEntries?: number;
  cacheBytes?: number;
}

export class ReportEngine {
  readonly cache: LruCache<CachedValue>;
  readonly pool: ConnectionPool;
  /** Each crawl's target (precomputed reports, stakes, tables) by its alias; cleared by `invalidate` (store change). */
  readonly #targets = new Map<string, Promise<CrawlTarget>>();
  /** Each target's sitemap notice; a target is made anew after a store change, so this follows the targets. */
  readonly #notices = new WeakMap<CrawlTarget, Promise<string | undefined>>();
  readonly #stopListening: () => void;
  #tuned: Promise<void> | undefined;

  constructor(
    readonly db: DuckDBInstance,
    readonly registry: CrawlRegistry,
    options: EngineOptions = {},
  ) {
    this.cache = createResultCache(options.cacheEntries, options.cacheBytes);
    this.pool = new ConnectionPool(db);
    this.#stopListening = registry.onChange(() => this.invalidate());
  }

  /** Forgets cached results and crawl targets: the store changed. */
  invalidate(): void {
    this.cache.clear();
    this.pool.clearStatements();
    this.#targets.clear();
  }

  dispose(): void {
    this.#stopListening();
    this.pool.close();
  }

  target(record: CrawlRecord): Promise<CrawlTarget> {
    let target = this.#targets.get(record.alias);
    if (!target) {
      target = loadCrawlTarget(this.db, record);
      target.catch(() => this.#targets.delete(record.alias));
      this.#targets.set(record.alias, target);
    }
    return target;
  }

  async rows(req: RowsRequest, options: RunOptions = {}): Promise<RowsResult> {
    const compiled = compileRowsOf(req, compileTab);
    await (this.#tuned ??= tuneInstance(this.db));
    return runRows(this.pool, this.cache, compiled, options);
  }

  /**
   * How many of the filtered rows 'URLs containing' found in the linking page and in the target; undefined unless
   * the request filters a report of links.
   */
  async filterMatches(
    req: RowsRequest,
    options: RunOptions = {},
  ): Promise<{ linking: number; target: number } | undefined> {
    // Only a filtered request has any: the others skip compiling their tab a second time (the page compiles it).
    if (!req.userFilter?.trim()) return undefined;
    const matches = compileTab(req).filterMatches;
    if (!matches) return undefined;
    const [linking, target] = await Promise.all([
      runCount(this.pool, this.cache, matches.linking, options),
      runCount(this.pool, this.cache, matches.target, options),
    ]);
    return { linking, target };
  }

  async count(req: RowsRequest, options: RunOptions = {}): Promise<number> {
    const compiled = compileCount(req);
    return compiled.count ? runCount(this.pool, this.cache, compiled.count, options) : (compiled.knownTotal ?? 0);
  }

  /** The notice a report of the crawl carries: on sitemap reports, that the crawl fetched no sitemap. */
  async noticeOf(report: ReportDefinition, target: CrawlTarget): Promise<string | undefined> {
    return report.category === 'sitemap' ? this.sitemapNotice(target) : undefined;
  }

  /**
   * NO_SITEMAP_NOTICE for a crawl that fetched no sitemap (no 2xx); a crawl without the sitemaps table says nothing.
   * A fact of the crawl, like its precomputed counts: counted once per target (so cleared with the targets), not on
   * every overview, which asks for it each time.
   */
  sitemapNotice(target: CrawlTarget): Promise<string | undefined> {
    let notice = this.#notices.get(target);
    if (!notice) {
      notice = this.#countSitemapNotice(target);
      notice.catch(() => this.#notices.delete(target));
      this.#notices.set(target, notice);
    }
    return notice;
  }

  async #countSitemapNotice(target: CrawlTarget): Promise<string | undefined> {
    if (!target.tables.has('sitemaps')) return undefined;
    const fetched = sql`SELECT count(*) AS n FROM ${tableRef(target.alias, 'sitemaps')}
      WHERE http_status_code BETWEEN 200 AND 299`;
    return (await runCount(this.pool, this.cache, fetched, { bypassCache: true })) === 0
      ? NO_SITEMAP_NOTICE
      : undefined;
  }

  /** Row count, base, rank and Added/Removed of a report: look-ups when precomputed for this comparison. */
  async stats(
    report: ReportDefinition,
    current: CrawlTarget,
    comparison: CrawlTarget | undefined,
    options: RunOptions = {},
  ): Promise<ReportStats> {
    const shape = shapeOf(report);
    const stored = current.precomputed.get(report.id);
    const isFresh = stored !== undefined && stored.fingerprint === shape.fingerprint;
    const isSameComparison =
      comparison === undefined ||
      (stored?.previousCrawlId === comparison.crawlId && stored.previousDataId === comparison.dataId);
    if (isFresh && isSameComparison)
      return {
        reportId: report.id,
        rowCount: stored.rowCount,
        base: stored.base,
        emsRank: stored.emsRank,
        added: comparison ? (stored.added ?? 0) : null,
        removed: comparison ? (stored.removed ?? 0) : null,
        removedByReason: comparison ? (stored.removedByReason ?? noRemovals()) : null,
      };
    const rowCount = isFresh
      ? stored.rowCount
      : await this.count(tabRequest(report, current, comparison, 'all'), options);
    const base = isFresh
      ? stored.base
      : await runCount(this.pool, this.cache, baseCountSql(shape, current.alias), options);
    const diff = async (type: DifferenceType, removalReason?: RemovalReason): Promise<number | null> =>
      comparison ? this.count({ ...tabRequest(report, current, comparison, type), removalReason }, options) : null;
    let removedByReason: RemovalCounts | null = null;
    if (comparison) {
      removedByReason = noRemovals();
      for (const reason of REMOVAL_REASONS) removedByReason[reason] = (await diff('removed', reason)) ?? 0;
    }
    return {
      reportId: report.id,
      rowCount,
      base,
      emsRank: emsRank(report.severity, rowCount, base),
      added: await diff('added'),
      removed: await diff('removed'),
      removedByReason,
    };
  }
}
