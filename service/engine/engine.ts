/**
 * The report engine as the routes use it: crawl targets (tables and precomputed report state of each attached
 * crawl), rows and counts through the result cache, and per-report statistics that are look-ups in
 * `report_counts` whenever it matches the catalogue, with live queries as the fallback.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { quoteIdent, withConnection } from '../db/duckdb.ts';
import { dataIdOf } from '../store/crawl-meta.ts';
import type { CrawlRecord, CrawlRegistry } from '../store/registry.ts';
import type { LruCache } from './cache.ts';
import {
  compileCount,
  compileRows,
  type CrawlTarget,
  type DifferenceType,
  type PrecomputedReport,
  type RowsRequest,
} from './compile.ts';
import {
  createResultCache,
  query,
  runCount,
  runRows,
  tuneInstance,
  type CachedValue,
  type RunOptions,
} from './execute.ts';
import { emsRank, PRECOMPUTE_INFO_TABLE, PRECOMPUTE_VERSION, REPORT_COUNTS_TABLE } from './precompute.ts';
import { baseCountSql, shapeOf } from './report-shape.ts';
import { textOf, type RowsResult } from './result.ts';
import { raw, sql } from './sql.ts';

export interface ReportStats {
  reportId: string;
  rowCount: number;
  base: number;
  emsRank: number;
  /** Against the comparison crawl; null without one. */
  added: number | null;
  removed: number | null;
}

/** Reads what the engine needs about an attached crawl database. */
export async function loadCrawlTarget(
  db: DuckDBInstance,
  record: Pick<CrawlRecord, 'alias' | 'crawlId' | 'meta'>,
): Promise<CrawlTarget> {
  return withConnection(db, async (conn) => {
    const tables = await query(
      conn,
      sql`SELECT table_name FROM duckdb_tables() WHERE database_name = ${record.alias} AND schema_name = 'main'`,
    );
    const names = new Set((tables.values[0] ?? []).map(textOf));
    const precomputed = new Map<string, PrecomputedReport>();
    const version = names.has(PRECOMPUTE_INFO_TABLE)
      ? Number(
          (await query(conn, raw(`SELECT max(version) FROM ${quoteIdent(record.alias)}.${PRECOMPUTE_INFO_TABLE}`)))
            .values[0]?.[0],
        )
      : 0;
    if (version === PRECOMPUTE_VERSION) {
      const counts = await query(
        conn,
        raw(
          `SELECT report_id, row_table, removed_table, fingerprint, row_count, base, ems_rank, added_count, removed_count, previous_crawl_id, previous_data_id FROM ${quoteIdent(record.alias)}.${REPORT_COUNTS_TABLE}`,
        ),
      );
      const [
        ids,
        rowTables,
        removedTables,
        fingerprints,
        rowCounts,
        bases,
        ranks,
        added,
        removed,
        previousIds,
        previousData,
      ] = counts.values;
      (ids ?? []).forEach((id, i) => {
        const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
        precomputed.set(textOf(id), {
          reportId: textOf(id),
          rowTable: textOf(rowTables![i]),
          removedTable: textOf(removedTables![i]),
          fingerprint: textOf(fingerprints![i]),
          rowCount: Number(rowCounts![i]),
          base: Number(bases![i]),
          emsRank: Number(ranks![i]),
          added: orNull(added![i]),
          removed: orNull(removed![i]),
          previousCrawlId: orNull(previousIds![i]),
          previousDataId: previousData![i] === null ? null : textOf(previousData![i]),
        });
      });
    }
    return {
      alias: record.alias,
      crawlId: record.crawlId,
      dataId: dataIdOf(record.meta),
      defaultRange: { start: record.meta.manifest.dataStart, end: record.meta.manifest.dataEnd },
      tables: names,
      precomputed,
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
  readonly #targets = new Map<string, Promise<CrawlTarget>>();
  readonly #stopListening: () => void;
  #tuned: Promise<void> | undefined;

  constructor(
    readonly db: DuckDBInstance,
    readonly registry: CrawlRegistry,
    options: EngineOptions = {},
  ) {
    this.cache = createResultCache(options.cacheEntries, options.cacheBytes);
    this.#stopListening = registry.onChange(() => this.invalidate());
  }

  /** Forgets cached results and crawl targets: the store changed. */
  invalidate(): void {
    this.cache.clear();
    this.#targets.clear();
  }

  dispose(): void {
    this.#stopListening();
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
    const compiled = compileRows(req);
    await (this.#tuned ??= tuneInstance(this.db));
    return runRows(this.db, this.cache, compiled, options);
  }

  async count(req: RowsRequest, options: RunOptions = {}): Promise<number> {
    const compiled = compileCount(req);
    return compiled.count ? runCount(this.db, this.cache, compiled.count, options) : (compiled.knownTotal ?? 0);
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
      };
    const rowCount = isFresh
      ? stored.rowCount
      : await this.count(tabRequest(report, current, comparison, 'all'), options);
    const base = isFresh
      ? stored.base
      : await runCount(this.db, this.cache, baseCountSql(shape, current.alias), options);
    const diff = async (type: DifferenceType): Promise<number | null> =>
      comparison ? this.count(tabRequest(report, current, comparison, type), options) : null;
    return {
      reportId: report.id,
      rowCount,
      base,
      emsRank: emsRank(report.severity, rowCount, base),
      added: await diff('added'),
      removed: await diff('removed'),
    };
  }
}
