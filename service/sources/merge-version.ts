/**
 * From staged vendor rows to a new version of a source: URLs normalised as the crawler normalises them (paths
 * resolved on the website's origin), rows summed per contract key (position weighted by impressions), then merged
 * with the live version's rows: added where new, refused where they contradict imported rows (unless --replace,
 * which first drops the live rows on the dates the new files cover). A key column may be NULL (a Google Ads search
 * term has no landing URL, a Keyword Planner export no customer id): keys are compared NULL-safely.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { dataSource, type DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, parquetFileOf, type ExportTableId } from '../../catalog/export-contract.ts';
import { quoteIdent, quoteLiteral, textOf } from '../db/duckdb.ts';
import { normalizeUrl } from '../crawl/normalize-url.ts';
import { ImportError } from './import-error.ts';
import type { Coverage, Staged } from './importer.ts';
import { IMPORT_COLUMN, type SourceVersion } from './source-store.ts';

export interface Normalised {
  tables: Map<ExportTableId, string>;
  rows: number;
  /** Rows whose URL is no http(s) URL even on the website's origin, with a few examples. */
  skippedRows: number;
  skippedExamples: string[];
}

/** Keyword Planner and Trends rows belong to no page. */
export const hasUrlColumn = (tableId: ExportTableId): boolean =>
  exportTable(tableId).columns.some((c) => c.name === 'url');

const rowsOf = async (conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> =>
  (await conn.runAndReadAll(sql)).getRowObjectsJS();
const countOf = async (conn: DuckDBConnection, sql: string): Promise<number> =>
  Number((await conn.runAndReadAll(sql)).getRowsJS()[0]?.[0] ?? 0);

function aggregateOf(tableId: ExportTableId): string[] {
  const table = exportTable(tableId);
  return table.columns.map((c) => {
    const name = quoteIdent(c.name);
    if (table.key.includes(c.name)) return c.name === 'url' ? `m.url AS "url"` : `s.${name}`;
    if (c.name === 'position')
      return `CASE WHEN sum(s.impressions) > 0 THEN sum(s.position * s.impressions) / sum(s.impressions) END AS "position"`;
    if (c.type === 'BIGINT' || c.type === 'INTEGER' || c.type === 'DOUBLE')
      return `CAST(sum(s.${name}) AS ${c.type}) AS ${name}`;
    return `first(s.${name}) AS ${name}`;
  });
}

export async function normaliseStaged(
  conn: DuckDBConnection,
  staged: Staged,
  origin: string,
  workDir: string,
): Promise<Normalised> {
  const urlTables = [...staged.tables].filter(([tableId]) => hasUrlColumn(tableId)).map(([, name]) => name);
  const rawUrls = new Set<string>();
  if (urlTables.length > 0) {
    const union = urlTables.map((name) => `SELECT url FROM ${quoteIdent(name)} WHERE url IS NOT NULL`).join(' UNION ');
    for (const row of await rowsOf(conn, union)) rawUrls.add(textOf(row.url));
  }
  const mapFile = path.join(workDir, 'url-map.ndjson');
  fs.writeFileSync(
    mapFile,
    [...rawUrls].map((raw) => JSON.stringify({ raw, url: normalizeUrl(raw, origin) })).join('\n'),
  );
  await conn.run(
    rawUrls.size === 0
      ? `CREATE TEMP TABLE url_map (raw VARCHAR, url VARCHAR)`
      : `CREATE TEMP TABLE url_map AS SELECT * FROM read_json(${quoteLiteral(mapFile)}, format = 'newline_delimited', columns = {'raw': 'VARCHAR', 'url': 'VARCHAR'})`,
  );
  const tables = new Map<ExportTableId, string>();
  let rows = 0;
  let skippedRows = 0;
  // No two of the file's URLs name one page: rows one per key stay so, and need no summing again.
  const isOneToOne = (await countOf(conn, `SELECT count(DISTINCT url) = count(url) FROM url_map`)) === 1;
  // Every URL already as the crawler writes it (a bulk export's are): rows one per key are taken as staged.
  const isIdentity = (await countOf(conn, `SELECT count(*) FROM url_map WHERE url IS DISTINCT FROM raw`)) === 0;
  for (const [tableId, name] of staged.tables) {
    const hasUrl = hasUrlColumn(tableId);
    const fresh = `new_${tableId}`;
    if (isIdentity && staged.keyed?.has(tableId)) {
      const columns = exportTable(tableId).columns.map((c) => quoteIdent(c.name));
      await conn.run(`CREATE TEMP VIEW ${fresh} AS SELECT ${columns.join(', ')} FROM ${quoteIdent(name)}`);
      tables.set(tableId, fresh);
      rows += await countOf(conn, `SELECT count(*) FROM ${quoteIdent(name)}`);
      continue;
    }
    const keys = exportTable(tableId).key.map((k) => (k === 'url' ? 'm.url' : `s.${quoteIdent(k)}`));
    // A row without a URL stays (NULL url); one whose URL does not resolve on the website is skipped and counted.
    const from = hasUrl
      ? `${quoteIdent(name)} s LEFT JOIN url_map m ON m.raw = s.url WHERE s.url IS NULL OR m.url IS NOT NULL`
      : `${quoteIdent(name)} s`;
    const columns = exportTable(tableId).columns.map((c) =>
      c.name === 'url' ? 'm.url AS "url"' : `s.${quoteIdent(c.name)}`,
    );
    await conn.run(
      isOneToOne && staged.keyed?.has(tableId)
        ? `CREATE TEMP TABLE ${fresh} AS SELECT ${columns.join(', ')} FROM ${from}`
        : `CREATE TEMP TABLE ${fresh} AS SELECT ${aggregateOf(tableId).join(', ')} FROM ${from} GROUP BY ${keys.join(', ')}`,
    );
    tables.set(tableId, fresh);
    rows += await countOf(conn, `SELECT count(*) FROM ${fresh}`);
    if (hasUrl)
      skippedRows += await countOf(
        conn,
        `SELECT count(*) FROM ${quoteIdent(name)} s JOIN url_map m ON m.raw = s.url WHERE m.url IS NULL`,
      );
  }
  const skippedExamples = (await rowsOf(conn, `SELECT raw FROM url_map WHERE url IS NULL ORDER BY raw LIMIT 3`)).map(
    (r) => textOf(r.raw),
  );
  return { tables, rows, skippedRows, skippedExamples };
}

export interface Merged {
  /** Rows per table of the new version. */
  tables: Record<string, number>;
  /** Rows the new version adds, drops or changes. */
  changedRows: number;
}

/** The rows of a version's table file with the import each came from (NULL in files written before imports had ids). */
export async function versionRowsOf(conn: DuckDBConnection, file: string, columns: string): Promise<string> {
  const described = await rowsOf(conn, `DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(file)})`);
  const hasImport = described.some((r) => r.column_name === IMPORT_COLUMN);
  const provenance = hasImport ? quoteIdent(IMPORT_COLUMN) : `NULL::VARCHAR AS ${quoteIdent(IMPORT_COLUMN)}`;
  return `(SELECT ${columns}, ${provenance} FROM read_parquet(${quoteLiteral(file)}))`;
}

/**
 * Writes the new version's Parquet files into `partialDir`; `changedRows` 0 means the import changes nothing. Each
 * row keeps the id of the import that brought it (IMPORT_COLUMN), so one import can be removed again.
 */
export async function mergeVersion(
  conn: DuckDBConnection,
  source: DataSourceId,
  live: SourceVersion | undefined,
  fresh: Map<ExportTableId, string>,
  coverage: Coverage,
  options: { isReplace: boolean; partialDir: string; fileNames: string; importId: string },
): Promise<Merged> {
  const tables: Record<string, number> = {};
  let changedRows = 0;
  const { dateColumn } = dataSource(source);
  for (const tableId of dataSource(source).tables) {
    const table = exportTable(tableId);
    const columns = table.columns.map((c) => quoteIdent(c.name)).join(', ');
    const oldFile = live?.fileOf(tableId);
    const old = oldFile ? await versionRowsOf(conn, oldFile, columns) : undefined;
    const neu = fresh.get(tableId);
    const tagged = `${columns}, ${quoteLiteral(options.importId)} AS ${quoteIdent(IMPORT_COLUMN)}`;
    let merged: string | undefined = old;
    if (neu && options.isReplace) {
      const inRange = `${quoteIdent(dateColumn)} BETWEEN ${quoteLiteral(coverage.start)}::DATE AND ${quoteLiteral(coverage.end)}::DATE`;
      const kept = old ? `SELECT * FROM ${old} WHERE NOT (${inRange})` : undefined;
      merged = `(${[kept, `SELECT ${tagged} FROM ${neu}`].filter(Boolean).join(' UNION ALL ')})`;
      const dropped = old
        ? `(SELECT ${columns} FROM ${old} WHERE ${inRange})`
        : `(SELECT ${columns} FROM ${neu} WHERE FALSE)`;
      changedRows += await countOf(
        conn,
        `SELECT (SELECT count(*) FROM (SELECT ${columns} FROM ${neu} EXCEPT ALL SELECT * FROM ${dropped})) + (SELECT count(*) FROM (SELECT * FROM ${dropped} EXCEPT ALL SELECT ${columns} FROM ${neu}))`,
      );
    } else if (neu) {
      if (old) await refuseContradictions(conn, tableId, old, neu, options.fileNames);
      const added = old
        ? `(SELECT ${tagged} FROM ${neu} n ANTI JOIN ${old} o ON ${sameKey(table.key)})`
        : `(SELECT ${tagged} FROM ${neu})`;
      changedRows += await countOf(conn, `SELECT count(*) FROM ${added}`);
      merged = old ? `(SELECT * FROM ${old} UNION ALL SELECT * FROM ${added})` : added;
    }
    if (!merged) continue;
    const file = path.join(options.partialDir, parquetFileOf(tableId));
    // By day, so a crawl's join reads only the row groups of its window; sorting by the whole key cost half as much
    // again (measured on 3M rows) for an order nothing reads: the join sorts its slice by key itself.
    await conn.run(
      `COPY (SELECT * FROM ${merged} ORDER BY ${quoteIdent(dateColumn)}) TO ${quoteLiteral(file)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    tables[tableId] = await countOf(conn, `SELECT count(*) FROM read_parquet(${quoteLiteral(file)})`);
  }
  return { tables, changedRows };
}

const sameKey = (key: readonly string[]): string =>
  key.map((k) => `n.${quoteIdent(k)} IS NOT DISTINCT FROM o.${quoteIdent(k)}`).join(' AND ');

/** Without --replace, a row whose key was imported before must carry the same values. */
async function refuseContradictions(
  conn: DuckDBConnection,
  tableId: ExportTableId,
  old: string,
  neu: string,
  fileNames: string,
): Promise<void> {
  const table = exportTable(tableId);
  const values = table.columns.filter((c) => !table.key.includes(c.name));
  const differs = values.map((c) => `n.${quoteIdent(c.name)} IS DISTINCT FROM o.${quoteIdent(c.name)}`).join(' OR ');
  const keys = table.key.map((k) => `CAST(n.${quoteIdent(k)} AS VARCHAR) AS ${quoteIdent(k)}`).join(', ');
  const [row] = await rowsOf(
    conn,
    `SELECT ${keys}, count(*) OVER () AS n_rows FROM ${neu} n JOIN ${old} o ON ${sameKey(table.key)}
     WHERE ${differs} ORDER BY ALL LIMIT 1`,
  );
  if (!row) return;
  const first = table.key.map((k) => `${k} ${textOf(row[k])}`).join(', ');
  throw new ImportError(
    `${fileNames}: ${Number(row.n_rows)} rows differ from ${tableId} rows imported before (first: ${first}); nothing imported; use --replace to replace the dates these files cover`,
    'conflict',
  );
}
