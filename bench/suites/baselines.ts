/**
 * The naive baseline: for each case, the plain DuckDB query a naive implementation would run (the report filter
 * straight over the export's Parquet files, no precomputation), and DuckDB writing the streamed export's CSV itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalog } from '../../catalog/index.ts';
import { filterConstants } from '../../catalog/constants.ts';
import { parquetFileOf } from '../../catalog/export-contract.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import { openDatabase, withConnection } from '../../service/db/duckdb.ts';
import { exportColumns } from '../../service/export/csv.ts';
import { BASELINE_RUNS, BENCH_DIR, CSV_CHUNK_1000, ROWS_PAGE_100 } from '../support/config.ts';
import { round } from '../support/stats.ts';
import { measure } from '../support/timing.ts';
import type { CaseResult } from './calls.ts';

/** The naive implementation's SQL for a report: its filter straight over the export's Parquet file. */
function naiveFilter(report: ReportDefinition): string {
  return report.filter.replace(/\{([A-Z_]+)\}/g, (_, name: string) => {
    const value = (filterConstants as Record<string, number | readonly number[]>)[name];
    if (value === undefined) throw new Error(`unknown constant ${name}`);
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

const parquet = (dir: string, table: string): string => `read_parquet('${path.join(dir, parquetFileOf(table))}')`;
const key = (r: ReportDefinition): string => r.keyColumns.join(', ');

export interface NaiveCases {
  urlReport: ReportDefinition;
  linkReport: ReportDefinition;
  sortColumn: string;
  linkSort: string;
  lastOffset: number;
  middleOffset: number;
}

/** The naive query of each case, by the case's name. */
function naiveQueries(c: NaiveCases, currentDir: string, previousDir: string): Record<string, string> {
  const { urlReport, linkReport, sortColumn, linkSort, lastOffset, middleOffset } = c;
  const page = (r: ReportDefinition, dir: string, order: string, offset: number, limit = 10, extra = 'TRUE'): string =>
    `SELECT * FROM ${parquet(dir, r.tableId)} WHERE (${naiveFilter(r)}) AND ${extra} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  const counts = catalog.reports
    .filter((r) => !/\b(gsc|ga)_/.test(r.filter))
    .map((r) => `(SELECT count(*) FROM ${parquet(currentDir, r.tableId)} WHERE ${naiveFilter(r)})`)
    .join(', ');
  const added = (r: ReportDefinition, from: string, against: string): string =>
    `SELECT * FROM ${parquet(from, r.tableId)} a WHERE (${naiveFilter(r)}) AND NOT EXISTS (SELECT 1 FROM ${parquet(against, r.tableId)} b WHERE ${r.keyColumns
      .map((k) => `b.${k} = a.${k}`)
      .join(
        ' AND ',
      )} AND (${naiveFilter(r).replace(/\b([a-z_]+)\b/g, (w) => (r.keyColumns.includes(w) ? `b.${w}` : w))})) ORDER BY ${r.keyColumns.map((k) => `a.${k}`).join(', ')} LIMIT 10`;
  return {
    overview: `SELECT ${counts}`,
    summary: `SELECT count(*) FROM ${parquet(currentDir, urlReport.tableId)} WHERE ${naiveFilter(urlReport)}`,
    'rows: first page, default sort': page(urlReport, currentDir, key(urlReport), 0),
    [`rows: first page, sort ${sortColumn} desc`]: page(
      urlReport,
      currentDir,
      `${sortColumn} DESC, ${key(urlReport)}`,
      0,
    ),
    'rows: last page, default sort': page(urlReport, currentDir, key(urlReport), lastOffset),
    [`rows: middle page, sort ${sortColumn}`]: page(
      urlReport,
      currentDir,
      `${sortColumn}, ${key(urlReport)}`,
      middleOffset,
    ),
    'rows: Added tab': added(urlReport, currentDir, previousDir),
    'rows: Removed tab': added(urlReport, previousDir, currentDir),
    'links report: first page': page(linkReport, currentDir, key(linkReport), 0),
    [`links report: sort ${linkSort}`]: page(linkReport, currentDir, `${linkSort} DESC, ${key(linkReport)}`, 0),
    "rows: 'URLs containing' filter": page(urlReport, currentDir, key(urlReport), 0, 10, `url ILIKE '%product%'`),
    [ROWS_PAGE_100]: page(urlReport, currentDir, key(urlReport), 0, 100),
    [CSV_CHUNK_1000]: page(urlReport, currentDir, key(urlReport), 0, 1000),
  };
}

/** What DuckDB's own CSV writer does with the streamed export's report. */
export type NaiveExport = { rows?: number; columns?: number; rowsPerSecond?: number };

/** Times each case's naive query into its `baseline` and `ratio`; answers DuckDB's own CSV export of the URL report. */
export async function baselines(cases: CaseResult[], c: NaiveCases, crawlDirs: string[]): Promise<NaiveExport> {
  const currentDir = crawlDirs.at(-1)!;
  const previousDir = crawlDirs.at(-2)!;
  const naive = naiveQueries(c, currentDir, previousDir);
  const { urlReport } = c;
  const naiveExport: NaiveExport = {};
  const db = await openDatabase();
  await withConnection(db, async (conn) => {
    for (const result of cases) {
      const sql = naive[result.name] ?? naive[result.name.replace(/sort \w+$/, '')];
      if (!sql) continue;
      result.baseline = await measure(BASELINE_RUNS, async () => {
        const started = performance.now();
        await conn.run(sql);
        return performance.now() - started;
      });
      result.ratio = round(result.baseline.p50 / result.service.p50);
    }
    // DuckDB writing the same report's CSV itself: its columns that the export file holds, in key order.
    const held = new Set(
      (await conn.runAndReadAll(`SELECT * FROM ${parquet(currentDir, urlReport.tableId)} LIMIT 0`)).columnNames(),
    );
    const columns = exportColumns(urlReport)
      .map((column) => column.id)
      .filter((id) => held.has(id));
    const out = path.join(BENCH_DIR, 'naive-export.csv');
    const copy = `COPY (SELECT ${columns.join(', ')} FROM ${parquet(currentDir, urlReport.tableId)} WHERE ${naiveFilter(urlReport)} ORDER BY ${key(urlReport)}) TO '${out}' (HEADER)`;
    const rows = Number((await conn.runAndReadAll(copy)).getRowsJS()[0]?.[0] ?? 0);
    const copied = await measure(3, async () => {
      const started = performance.now();
      await conn.run(copy);
      return performance.now() - started;
    });
    fs.rmSync(out, { force: true });
    naiveExport.rows = rows;
    naiveExport.columns = columns.length;
    naiveExport.rowsPerSecond = Math.round(rows / (copied.p50 / 1000));
  });
  return naiveExport;
}
