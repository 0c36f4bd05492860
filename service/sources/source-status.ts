/**
 * What the Data sources page shows of each of a website's sources: connected or not, rows, the imports that made
 * the live version (who, when, which files), rows per day for the coverage chart (a period import's totals as the
 * period, never as days; the first table with rows and the tables of rows of their own, such as Search Console's
 * property totals), and how its URLs meet the newest crawl's crawled pages.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DataSourceStatus, SourceImport, SourceMatch } from '../../catalog/data-source-calls.ts';
import { dataSources, type DataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { quoteIdent, textOf } from '../db/duckdb.ts';
import { versionTableRowsOf } from './merge-version.ts';
import { columnsOf, rawTablesOf } from '../source-data/raw-rows.ts';
import {
  IMPORT_COLUMN,
  isConnectedVersion,
  readSourceVersion,
  type SourceVersion,
} from '../source-data/source-store.ts';

const EXAMPLES = 5;

/** The newest live crawl of the website, as the registry attached it. */
export interface NewestCrawl {
  crawlId: number;
  alias: string;
  /** The sources it joined from its own export rather than the store. */
  fromExport: ReadonlySet<DataSourceId>;
}

const rowsOf = async (conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> =>
  (await conn.runAndReadAll(sql)).getRowObjectsJS();

export async function sourceStatuses(
  conn: DuckDBConnection,
  dataDir: string,
  websiteId: string,
  crawl: NewestCrawl | undefined,
): Promise<DataSourceStatus[]> {
  const statuses: DataSourceStatus[] = [];
  for (const source of dataSources) {
    // A version replaced (and its folder removed) while it is read: read the new one.
    statuses.push(
      await statusOf(conn, source, readSourceVersion(dataDir, websiteId, source.id), crawl).catch(() =>
        statusOf(conn, source, readSourceVersion(dataDir, websiteId, source.id), crawl),
      ),
    );
  }
  return statuses;
}

const notConnected = (source: DataSource, crawl: NewestCrawl | undefined): DataSourceStatus => ({
  id: source.id,
  title: source.title,
  isConnected: false,
  isInExport: crawl?.fromExport.has(source.id) === true,
  rows: 0,
  tables: {},
  days: [],
  periods: [],
  imports: [],
  match: null,
});

async function statusOf(
  conn: DuckDBConnection,
  source: DataSource,
  version: SourceVersion | undefined,
  crawl: NewestCrawl | undefined,
): Promise<DataSourceStatus> {
  if (!isConnectedVersion(version)) return notConnected(source, crawl);
  const imports: SourceImport[] = version.meta.imports
    .map((i) => ({
      id: i.id ?? null,
      at: i.at,
      by: i.by ?? null,
      files: i.files.map((f) => f.name),
      format: i.format,
      rows: i.rows,
      coverage: i.coverage,
      isReplace: i.isReplace,
    }))
    .reverse();
  const own = source.ownRowsTables ?? [];
  const keyed = source.tables.find((t) => !own.includes(t) && version.fileOf(t) !== undefined);
  const tableIds = [
    ...(keyed ? [keyed] : []),
    ...own.filter((t) => version.fileOf(t) !== undefined),
    ...rawIdsOf(source, version),
  ];
  const coverage = await coverageOf(conn, version, tableIds, imports);
  return {
    id: source.id,
    title: source.title,
    isConnected: true,
    isInExport: false,
    rows: Object.values(version.meta.tables).reduce((a, b) => a + b, 0),
    tables: version.meta.tables,
    ...coverage,
    imports,
    match: tableIds.length > 0 && crawl ? await matchOf(conn, version, source, crawl) : null,
  };
}

/** The version's raw tables (raw-rows.ts): their days hold no keyed rows, so they add to the coverage. */
const rawIdsOf = (source: DataSource, version: SourceVersion): string[] =>
  rawTablesOf(source.id)
    .map((r) => r.id)
    .filter((id) => version.fileOf(id) !== undefined);

const dateColumnOf = (tableId: string): string | undefined => columnsOf(tableId).find((c) => c.type === 'DATE')?.name;

async function coverageOf(
  conn: DuckDBConnection,
  version: SourceVersion,
  tableIds: string[],
  imports: SourceImport[],
): Promise<Pick<DataSourceStatus, 'days' | 'periods'>> {
  const parts: string[] = [];
  for (const tableId of tableIds) {
    const date = dateColumnOf(tableId);
    if (!date) continue;
    const columns = columnsOf(tableId)
      .map((c) => quoteIdent(c.name))
      .join(', ');
    const rows = await versionTableRowsOf(conn, version, tableId, columns);
    parts.push(`SELECT ${quoteIdent(date)} AS day, ${quoteIdent(IMPORT_COLUMN)} AS import FROM ${rows}`);
  }
  if (parts.length === 0) return { days: [], periods: [] };
  const counted = await rowsOf(
    conn,
    `SELECT strftime(day, '%Y-%m-%d') AS day, import, count(*)::INTEGER AS n
     FROM (${parts.join(' UNION ALL ')}) GROUP BY ALL ORDER BY day, import`,
  );
  const periodImports = new Map(imports.filter((i) => i.coverage.granularity === 'period').map((i) => [i.id, i]));
  const days = new Map<string, number>();
  const periods = new Map<string, { start: string; end: string; rows: number }>();
  for (const row of counted) {
    const period = periodImports.get(row.import === null ? null : textOf(row.import));
    const n = Number(row.n);
    if (period) {
      const key = `${period.coverage.start}/${period.coverage.end}`;
      const entry = periods.get(key) ?? { start: period.coverage.start, end: period.coverage.end, rows: 0 };
      entry.rows += n;
      periods.set(key, entry);
    } else days.set(textOf(row.day), (days.get(textOf(row.day)) ?? 0) + n);
  }
  return {
    days: [...days].map(([day, n]) => ({ date: day, rows: n })),
    periods: [...periods.values()].sort((a, b) => a.start.localeCompare(b.start)),
  };
}

/** Crawled pages with rows in the source, and the source's URLs no crawled page has (www/non-www, http/https). */
async function matchOf(
  conn: DuckDBConnection,
  version: SourceVersion,
  source: DataSource,
  crawl: NewestCrawl,
): Promise<SourceMatch | null> {
  const relations = [...source.tables, ...rawIdsOf(source, version)]
    .filter((t) => columnsOf(t).some((c) => c.name === 'url'))
    .flatMap((t) => version.rowsOf(t) ?? []);
  if (relations.length === 0) return null;
  // DISTINCT: one relation alone is no UNION, and a table names a page on many rows (days, channels).
  const sourceUrls = `SELECT DISTINCT url FROM (${relations.map((r) => `SELECT url FROM ${r}`).join(' UNION ALL ')})`;
  const crawled = `SELECT url FROM ${quoteIdent(crawl.alias)}.main.urls WHERE COALESCE(found_in_web_crawl, FALSE)`;
  const [counts] = await rowsOf(
    conn,
    `WITH s AS (${sourceUrls}), c AS (${crawled})
     SELECT (SELECT count(*) FROM c)::INTEGER AS crawled,
            (SELECT count(*) FROM c SEMI JOIN s USING (url))::INTEGER AS matched,
            (SELECT count(*) FROM s)::INTEGER AS source_urls,
            (SELECT count(*) FROM s ANTI JOIN c USING (url))::INTEGER AS unmatched`,
  );
  const examples = await rowsOf(
    conn,
    `WITH s AS (${sourceUrls}), c AS (${crawled})
     SELECT url FROM s ANTI JOIN c USING (url) ORDER BY url LIMIT ${EXAMPLES}`,
  );
  return {
    crawlId: crawl.crawlId,
    crawledPages: Number(counts?.crawled ?? 0),
    matchedPages: Number(counts?.matched ?? 0),
    sourceUrls: Number(counts?.source_urls ?? 0),
    unmatchedUrls: Number(counts?.unmatched ?? 0),
    unmatchedExamples: examples.map((r) => textOf(r.url)),
  };
}
