/** The export's tables created in the new crawl database, in key order (the links in the export's), from the validated plan. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { exportTables } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral } from '../db/duckdb.ts';
import { missingTables } from '../store/missing-tables.ts';
import { firstLine } from '../error-text.ts';
import type { Interrupter } from './interrupter.ts';
import { LoadError } from './load-error.ts';
import type { Progress } from './load-progress.ts';
import type { ExportPlan, TablePlan } from './validate-export.ts';

/** Rows per table, and the URLs `urls` gained from search console and analytics. */
export interface TableCounts {
  tables: Record<string, number>;
  addedUrls: number;
}

/** `urls` comes last: it takes in the URLs that only the search console and analytics tables know. */
export async function loadTables(
  conn: DuckDBConnection,
  plan: ExportPlan,
  progress: Progress,
  interrupter: Interrupter,
): Promise<TableCounts> {
  if (plan.tables.some((t) => t.needsUtc)) await conn.run(`SET TimeZone = 'UTC'`);
  const urlsPlan = plan.tables.find((t) => t.table.id === 'urls');
  for (const table of [...plan.tables.filter((t) => t !== urlsPlan), ...(urlsPlan ? [urlsPlan] : [])]) {
    interrupter.check();
    progress.step('load', `loading ${table.table.id}`);
    const sql = table === urlsPlan ? createUrlsSql(table, plan) : createTableSql(table);
    try {
      await conn.run(sql);
    } catch (error) {
      if (interrupter.isAborted) throw error;
      throw new LoadError(`${table.file}: could not be loaded (${firstLine(error)})`, 'invalid-export', {
        cause: error,
      });
    }
  }
  const tables: Record<string, number> = {};
  for (const table of plan.tables) {
    const reader = await conn.runAndReadAll(`SELECT count(*) AS n FROM ${quoteIdent(table.table.id)}`);
    tables[table.table.id] = Number(reader.getRowObjectsJS()[0]?.n ?? 0);
  }
  return { tables, addedUrls: (tables.urls ?? 0) - (urlsPlan?.rowCount ?? 0) };
}

/** A refresh gives a crawl loaded before the contract gained a table that table, empty, as a load of an export without it. */
export async function addMissingTables(conn: DuckDBConnection): Promise<void> {
  for (const id of await missingTables(conn)) {
    const table = exportTables.find((t) => t.id === id)!;
    const columns = table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
    await conn.run(`CREATE TABLE ${quoteIdent(id)} (${columns})`);
  }
}

/** The column list of a table: contract columns (widened by CAST, absent ones as typed NULLs), then extras. */
function projection(table: TablePlan): string {
  return table.columns
    .map((c) => {
      const name = quoteIdent(c.name);
      if (c.source === 'absent') return `CAST(NULL AS ${c.type}) AS ${name}`;
      if (c.source === 'widening') return `CAST(${name} AS ${c.type}) AS ${name}`;
      return name;
    })
    .join(', ');
}

const orderBy = (table: TablePlan): string => table.table.key.map(quoteIdent).join(', ');

/**
 * Tables kept in the export's own row order. Sorting the links (about 20 a URL, 23 columns) by key was half of a
 * load's CPU at every size and spilled 9.4 GB at 3M URLs; a cheaper key saved nothing, as the cost is moving the
 * rows, not comparing them. The dashboard's link pages read the precomputed row copies, which come out the same
 * either way (bench/history.md, 27 Nov: the 1M load 343 → 234 s of CPU). The same holds for `urls` (120 columns):
 * every report sorts its own rows, and only a page's AI suggestion looks one URL up (28 Nov: 9.0 s against 11.1–13.1
 * s at 1M, and the sort's time varied 15–27 s between loads).
 */
const KEPT_IN_EXPORT_ORDER: ReadonlySet<string> = new Set(['links', 'urls']);

export function createTableSql(table: TablePlan): string {
  const name = quoteIdent(table.table.id);
  if (!table.isPresent) {
    return `CREATE TABLE ${name} (${table.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`;
  }
  const order = KEPT_IN_EXPORT_ORDER.has(table.table.id) ? '' : ` ORDER BY ${orderBy(table)}`;
  return `CREATE TABLE ${name} AS SELECT ${projection(table)} FROM read_parquet(${quoteLiteral(table.file)})${order}`;
}

/**
 * `urls` plus every URL the search console or analytics source knows that the crawl does not (catalogue guide
 * §5.6): not found in the web crawl, internal when on the start URL's host, every crawl column NULL. When the
 * export carries found_in_sitemap it covers every sitemap URL, so those rows are also not in a sitemap. The crawl's
 * rows keep the export's order, and the source's URLs follow them in URL order.
 */
export function createUrlsSql(urls: TablePlan, plan: ExportPlan): string {
  const sources = plan.tables.filter(
    (t) => (t.table.id === 'search_console' || t.table.id === 'analytics') && t.isPresent,
  );
  if (sources.length === 0) return createTableSql(urls);
  const file = `read_parquet(${quoteLiteral(urls.file)})`;
  const host = new URL(plan.manifest.startUrl).hostname.toLowerCase();
  const hostOf = `lower(regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]*)', 1))`;
  const hasSitemapFlag = urls.columns.some((c) => c.name === 'found_in_sitemap' && c.source !== 'absent');
  const sourceUrls = sources.map((t) => `SELECT url FROM ${quoteIdent(t.table.id)}`).join(' UNION ');
  return `CREATE TABLE "urls" AS
      SELECT ${projection(urls)} FROM ${file}
      UNION ALL BY NAME
      (SELECT url, ${hostOf} = ${quoteLiteral(host)} AS internal, FALSE AS found_in_web_crawl
        ${hasSitemapFlag ? ', FALSE AS found_in_sitemap' : ''}
      FROM ((${sourceUrls}) EXCEPT SELECT url FROM ${file}) ORDER BY url)`;
}
