/**
 * Catalogue validation, layer 3: every report compiled for its tabs and EXPLAINed against a crawl database, both
 * from the precomputed rows (when the crawl has them) and live from the base tables over a non-default date range. A filter that names a missing column, a wrong type or a bad function fails here,
 * before any user asks. Run at boot and in tests.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import { catalog } from '../../catalog/index.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { quoteIdent, withConnection } from '../db/duckdb.ts';
import { CatalogError } from '../catalog/validate.ts';
import { compileRows, type CrawlTarget, type RowsRequest } from './compile.ts';
import { loadCrawlTarget } from './engine.ts';
import { bindingsOf, query } from './execute.ts';
import { REPORT_COUNTS_TABLE } from './stored-precompute.ts';
import type { DateRange } from './report-shape.ts';
import { raw, type SqlFragment } from './sql.ts';

export interface ExplainOptions {
  reports?: readonly ReportDefinition[];
  /** The crawl's default date range; read from report_counts when omitted. */
  defaultRange?: DateRange;
}

async function storedRange(db: DuckDBInstance, alias: string): Promise<DateRange | undefined> {
  return withConnection(db, async (conn) => {
    try {
      const { values } = await query(
        conn,
        raw(
          `SELECT strftime(min(data_start), '%Y-%m-%d'), strftime(min(data_end), '%Y-%m-%d') FROM ${quoteIdent(alias)}.${REPORT_COUNTS_TABLE}`,
        ),
      );
      const [start, end] = values.map((v) => v[0]);
      return typeof start === 'string' && typeof end === 'string' ? { start, end } : undefined;
    } catch {
      return undefined;
    }
  });
}

function requestFor(
  report: ReportDefinition,
  current: CrawlTarget,
  dataDateRange: DateRange,
  differenceType: RowsRequest['differenceType'],
  comparison?: CrawlTarget,
): RowsRequest {
  return {
    report,
    current,
    comparison,
    dataDateRange,
    differenceType,
    showChecked: false,
    orderBy: [],
    limit: 10,
    offset: 0,
  };
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/**
 * EXPLAINs every compiled report against the crawl attached as `alias`; throws a CatalogError listing each
 * statement DuckDB refused, located by report and variant. Resolves the number of statements explained.
 */
export async function explainCatalog(db: DuckDBInstance, alias: string, options: ExplainOptions = {}): Promise<number> {
  const reports = options.reports ?? catalog.reports;
  const range = options.defaultRange ?? (await storedRange(db, alias)) ?? { start: '2000-01-01', end: '2000-01-31' };
  const target: CrawlTarget = await loadCrawlTarget(db, {
    alias,
    crawlId: 1,
    meta: { loadId: 'explain', manifest: { dataStart: range.start, dataEnd: range.end }, sources: {} } as never,
  });
  // Against another crawl (anti-joins), and against the one the rows were diffed with (precomputed parts).
  const comparisons: CrawlTarget[] = [{ ...target, crawlId: 2, dataId: 'other' }];
  const diffedWith = [...target.precomputed.values()].find((p) => p.previousCrawlId !== null);
  if (diffedWith)
    comparisons.push({ ...target, crawlId: diffedWith.previousCrawlId!, dataId: diffedWith.previousDataId ?? '' });
  // The precomputed rows are used only for the crawl's own range, so compile both ways.
  const liveRange = { start: '1999-12-01', end: '1999-12-31' };
  const problems: string[] = [];
  let explained = 0;
  await withConnection(db, async (conn) => {
    const explain = async (where: string, fragment: SqlFragment | undefined): Promise<void> => {
      if (!fragment) return;
      const { values, types } = bindingsOf(fragment);
      try {
        await conn.run(`EXPLAIN ${fragment.sql}`, values, types as never);
        explained += 1;
      } catch (error) {
        problems.push(`${where}: ${firstLine(error)}`);
      }
    };
    for (const [index, report] of reports.entries()) {
      const at = `reports[${index}] (${report.id})`;
      try {
        const shape = compileRows(requestFor(report, target, range, 'all')).shape;
        const lastColumn = shape.columns.at(-1)!.id;
        // Each variant is one way the compiler builds SQL: from precomputed rows or live, a whole tab or an
        // anti-join against another crawl, with the user filter (count) and with a sort (page).
        const variants: [string, RowsRequest][] = [
          ['precomputed all', requestFor(report, target, range, 'all')],
          ['precomputed removed', requestFor(report, target, range, 'removed', comparisons.at(-1))],
          ['precomputed added vs other crawl', requestFor(report, target, range, 'added', comparisons[0])],
          ['live all', requestFor(report, target, liveRange, 'all')],
          ['live removed vs other crawl', requestFor(report, target, liveRange, 'removed', comparisons[0])],
        ];
        for (const [variant, request] of variants) {
          const filtered = compileRows({ ...request, userFilter: 'x' });
          await explain(`${at} ${variant} count`, filtered.count);
          const sorted = compileRows({ ...request, orderBy: [{ id: lastColumn, desc: true }] });
          await explain(`${at} ${variant} page`, sorted.page(1000));
        }
      } catch (error) {
        problems.push(`${at}: ${firstLine(error)}`);
      }
    }
  });
  if (problems.length > 0) throw new CatalogError(problems);
  return explained;
}
