/**
 * Joins a website's imported sources into a crawl database being built (a new load or a refresh): each source
 * table becomes the slice of the crawl's data window (manifest dataStart..dataEnd) of the live source version, in
 * key order, exactly as an export's own source tables are loaded; a source the store lacks keeps what the export
 * brought. When a slice changed, `urls` takes in the URLs only the sources know again (load-tables.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { dataSources, type DataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, type ExportTable, type Manifest } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { fedRowsOf, rawFeedsOf } from './raw-rows.ts';
import { isConnectedVersion, readSourceVersion, type SourceVersion } from './source-store.ts';

/** How each connected source reached a crawl: the store's version id, or 'export' (the crawl export's tables). */
export type JoinedSources = Record<string, string>;
export const FROM_EXPORT = 'export';

/** Sources of a crawl loaded before joins were recorded: those whose export tables had rows. */
export function joinedFromTables(tables: Record<string, number>): JoinedSources {
  const joined: JoinedSources = {};
  for (const source of dataSources)
    if (source.tables.some((t) => (tables[t] ?? 0) > 0)) joined[source.id] = FROM_EXPORT;
  return joined;
}

export interface JoinResult {
  joined: JoinedSources;
  /** The source tables that now hold other rows than before (a new version whose slice is the same changes none). */
  changedTables: string[];
  /** Rows per source table joined from the store. */
  tables: Record<string, number>;
}

export async function joinSources(
  conn: DuckDBConnection,
  dataDir: string,
  manifest: Manifest,
  before: JoinedSources,
): Promise<JoinResult> {
  const joined: JoinedSources = { ...before };
  const tables: Record<string, number> = {};
  const changedTables: string[] = [];
  for (const source of dataSources) {
    const version = readSourceVersion(dataDir, manifest.websiteId, source.id);
    if (!version || before[source.id] === version.meta.versionId) continue;
    // Every import removed: the store's rows leave the crawl, which no longer counts the source as connected.
    const isRemoved = !isConnectedVersion(version);
    if (isRemoved && (before[source.id] === undefined || before[source.id] === FROM_EXPORT)) continue;
    for (const table of source.tables) {
      const joinedTable = await joinTable(conn, table, isRemoved ? undefined : version, sliceOf(source, manifest));
      tables[table] = joinedTable.rows;
      if (joinedTable.isChanged) changedTables.push(table);
    }
    if (isRemoved) delete joined[source.id];
    else joined[source.id] = version.meta.versionId;
  }
  if (changedTables.length > 0) await addSourceOnlyUrls(conn, manifest);
  return { joined, changedTables, tables };
}

const SLICE = '__thc_source_slice';

/** The rows of the crawl's data window: by day, or (Keyword Planner) by the day their volumes were requested. */
function sliceOf(source: DataSource, manifest: Manifest): string {
  const end = `${quoteLiteral(manifest.dataEnd)}::DATE + ${source.joinDaysAfter}`;
  return `${quoteIdent(source.dateColumn)} BETWEEN ${quoteLiteral(manifest.dataStart)}::DATE AND ${end}`;
}

/**
 * The window's rows of a contract table in a version: its keyed file, and the rows of the raw tables that feed it
 * (raw-rows.ts), summed per key with them.
 */
function sliceSql(table: ExportTable, version: SourceVersion | undefined, inWindow: string): string {
  const rowsOf = (id: string): string | undefined => version?.rowsOf(id);
  const raw = new Map(rawFeedsOf(table.id).flatMap(({ raw: r }) => (rowsOf(r.id) ? [[r.id, rowsOf(r.id)!]] : [])));
  return (
    fedRowsOf(table.id, rowsOf(table.id), raw, inWindow) ??
    `SELECT ${table.columns.map((c) => `NULL::${c.type} AS ${quoteIdent(c.name)}`).join(', ')} WHERE FALSE`
  );
}

/** Replaces the table with the window's slice of the version, unless it holds the same rows already. */
export async function joinTable(
  conn: DuckDBConnection,
  tableId: string,
  version: SourceVersion | undefined,
  inWindow: string,
): Promise<{ rows: number; isChanged: boolean }> {
  const table = exportTable(tableId as never);
  const name = quoteIdent(table.id);
  const columns = table.columns.map((c) => quoteIdent(c.name)).join(', ');
  const key = table.key.map(quoteIdent).join(', ');
  const slice = sliceSql(table, version, inWindow);
  // A crawl loaded before the contract had this table starts with it empty, as a load of an export without it.
  await conn.run(
    `CREATE TABLE IF NOT EXISTS ${name} (${table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`,
  );
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${SLICE} AS ${slice}`);
  try {
    const count = async (sql: string): Promise<number> =>
      Number((await conn.runAndReadAll(sql)).getRowsJS()[0]?.[0] ?? 0);
    const rows = await count(`SELECT count(*) FROM temp.main.${SLICE}`);
    // Row by row only when the counts match (EXCEPT ALL held 1.3 GB at 1M URLs), and then one way is enough: a
    // multiset inside another of its size is that one.
    const isSame =
      rows === (await count(`SELECT count(*) FROM ${name}`)) &&
      (await count(
        `SELECT count(*) FROM (SELECT ${columns} FROM ${name} EXCEPT ALL SELECT * FROM temp.main.${SLICE})`,
      )) === 0;
    if (isSame) return { rows, isChanged: false };
    await conn.run(`DROP TABLE ${name}`);
    await conn.run(`CREATE TABLE ${name} AS SELECT * FROM temp.main.${SLICE} ORDER BY ${key}`);
    return { rows, isChanged: true };
  } finally {
    await conn.run(`DROP TABLE IF EXISTS temp.main.${SLICE}`);
  }
}

/**
 * `urls` without the rows only a source brought (never crawled, in no sitemap, linked from nowhere), then with
 * the URLs the joined search console and analytics rows know and the crawl does not, as the loader adds them. When
 * those are the rows it holds already (a refresh whose sources name no new page), the table stays as it is: at 1M
 * URLs the rewrite, with a copy of the crawl's rows beside it, was 58 s and the refresh's 2.9 GB peak.
 */
export async function addSourceOnlyUrls(conn: DuckDBConnection, manifest: Manifest): Promise<void> {
  const columns = new Set(
    (await conn.runAndReadAll(`SELECT * FROM "urls" LIMIT 0`)).columnNames().map((c) => c.toLowerCase()),
  );
  const hasSitemapFlag = columns.has('found_in_sitemap');
  const isSourceOnly = [
    'NOT COALESCE(found_in_web_crawl, FALSE)',
    'http_status_code IS NULL',
    ...(hasSitemapFlag ? ['NOT COALESCE(found_in_sitemap, FALSE)'] : []),
    ...(columns.has('found_at_url') ? ['found_at_url IS NULL'] : []),
  ].join(' AND ');
  const host = new URL(manifest.startUrl).hostname.toLowerCase();
  const hostOf = `lower(regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]*)', 1))`;
  const crawled = `SELECT url FROM "urls" WHERE NOT (${isSourceOnly})`;
  const added = `((SELECT url FROM "search_console" UNION SELECT url FROM "analytics") EXCEPT ${crawled})`;
  const held = `SELECT url FROM "urls" WHERE ${isSourceOnly}`;
  const differing = await conn.runAndReadAll(
    `SELECT EXISTS (SELECT url FROM ${added} EXCEPT ${held}) OR EXISTS (${held} EXCEPT SELECT url FROM ${added})`,
  );
  if (differing.getRowsJS()[0]?.[0] !== true) return;
  // In the loader's order (load-tables.ts): the crawl's rows as they are, then the source's URLs in URL order.
  await conn.run(`CREATE OR REPLACE TABLE __thc_urls AS
      SELECT * FROM "urls" WHERE NOT (${isSourceOnly})
      UNION ALL BY NAME
      (SELECT url, ${hostOf} = ${quoteLiteral(host)} AS internal, FALSE AS found_in_web_crawl
        ${hasSitemapFlag ? ', FALSE AS found_in_sitemap' : ''}
      FROM ${added} ORDER BY url)`);
  await conn.run('DROP TABLE "urls"');
  await conn.run('ALTER TABLE __thc_urls RENAME TO "urls"');
}

export const sourceIdsOf = (joined: JoinedSources): DataSourceId[] =>
  dataSources.filter((s) => s.id in joined).map((s) => s.id);
