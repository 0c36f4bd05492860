/**
 * Search Console's bulk data export, as BigQuery exports it: CSV with a header, Parquet, or newline-delimited JSON,
 * with Google's column names. Its two tables are told apart by their columns (bulk-cells.ts):
 *
 * - `searchdata_url_impression` (data_date, site_url, url, query, is_anonymized_query, country, search_type, device,
 *   …, impressions, clicks, sum_position): one row per day, URL, query, country, device and search type. Its rows are
 *   kept as raw rows (raw-rows.ts), summed where a crawl joins them: per day and URL into search_console (anonymized
 *   queries included) and per day, URL and query into search_console_queries (anonymized ones left out).
 * - `searchdata_site_impression` (data_date, site_url, query, is_anonymized_query, country, search_type, device,
 *   impressions, clicks, sum_top_position): the whole property's totals, where a search counts once however many of
 *   its pages it showed, so not the pages' sum. Summed per day and query (over countries, devices and search types,
 *   as the URL table is) into search_console_site; anonymized queries have no text and are left out, as
 *   search_console_queries leaves them out, and said in the summary.
 *
 * Both positions are zero-based and summed over impressions (sum_top_position: the topmost result's), so the average
 * position is the sum / impressions + 1.
 */
import path from 'node:path';
import { quoteIdent, quoteLiteral, textOf } from '../../db/duckdb.ts';
import { ImportError } from '../import-error.ts';
import type { Importer, SourceFile, Staged, StageContext, StagedTableId } from '../importer.ts';
import { RAW_PARQUET, rawTableOf, vendorSelectOf, type RawTableId } from '../../source-data/raw-rows.ts';
import { hashMeanwhile } from '../file-hash.ts';
import { hasVendorTypes, keepVendorFile } from './bulk-vendor-file.ts';
import { IMPORT_COLUMN } from '../../source-data/source-store.ts';
import {
  IN_ORDER,
  SITE_TABLE,
  URL_TABLE,
  bulkTableOf,
  castOf,
  describe,
  hasFittingCells,
  readerOf,
  refuseBadCell,
  refuseMissing,
  runReading,
  trimmedOf,
  type BulkTable,
  type Shape,
} from './bulk-cells.ts';

export { readerOf };

const RAW_ID: RawTableId = 'searchdata_url_impression';
const SITE_ID = 'search_console_site';

/** The column names of a CSV header line, or the keys of a JSON object line. */
function headColumns(line: string): Set<string> {
  if (line.trimStart().startsWith('{')) return new Set([...line.matchAll(/"([a-z_]+)"\s*:/g)].map((m) => m[1]!));
  return new Set(line.split(',').map((c) => c.trim().replace(/^"|"$/g, '')));
}

export function shapeOf(file: SourceFile): Shape | undefined {
  if (file.head.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet';
  const first =
    file.head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0] ?? '';
  const columns = headColumns(first);
  if (!bulkTableOf((c) => columns.has(c))) return undefined;
  return first.trimStart().startsWith('{') ? 'ndjson' : 'csv';
}

interface Described {
  file: SourceFile;
  shape: Shape;
  types: Map<string, string>;
  table: BulkTable;
}

async function described(ctx: StageContext, file: SourceFile): Promise<Described> {
  const shape = shapeOf(file)!;
  const types = await describe(ctx.conn, file, shape);
  const has = (column: string): boolean => types.has(column);
  const table = bulkTableOf(has) ?? (has('sum_top_position') ? SITE_TABLE : URL_TABLE);
  refuseMissing(file, table, has);
  return { file, shape, types, table };
}

/** Each staged column: our name, its type, and Google's name (the URL table's from raw-rows.ts). */
function stagedColumnsOf(table: BulkTable): [name: string, type: string, google: string][] {
  if (table === SITE_TABLE)
    return [
      ['date', 'DATE', 'data_date'],
      ['query', 'VARCHAR', 'query'],
      ['clicks', 'BIGINT', 'clicks'],
      ['impressions', 'BIGINT', 'impressions'],
      ['sum_position', 'DOUBLE', 'sum_top_position'],
    ];
  const raw = rawTableOf(RAW_ID)!;
  return raw.columns.map((c) => [c.name, c.type, raw.vendorNames[c.name]!]);
}

/**
 * One pass over the file, written straight to a Parquet file in the file's own order (for the URL table, the raw
 * rows' own: raw-rows.ts): the columns kept, each cast, NULL where a cell does not fit. Parquet's statistics then
 * count the NULLs, and only when some cell did not fit is the file read again to name it.
 */
async function stageFile(ctx: StageContext, { file, shape, types, table }: Described, out: string): Promise<void> {
  const columns = stagedColumnsOf(table);
  const select = columns.map(([name, type, google]) =>
    type === 'VARCHAR' ? `${trimmedOf(google, types)} AS ${name}` : `${castOf(google, type, types)} AS ${name}`,
  );
  const tag =
    ctx.importId === undefined || table !== URL_TABLE
      ? ''
      : `, ${quoteLiteral(ctx.importId)} AS ${quoteIdent(IMPORT_COLUMN)}`;
  await runReading(
    ctx.conn,
    file,
    shape,
    `COPY (SELECT ${select.join(', ')}${tag} FROM ${readerOf(file, shape)}) TO ${quoteLiteral(out)} (${RAW_PARQUET})`,
  );
  const whole = columns.map(([name]) => name).filter((name) => name !== 'query');
  if (await hasFittingCells(ctx.conn, out, whole)) return;
  await refuseBadCell(ctx.conn, file, shape, table);
  throw new ImportError(`${file.name}: a cell does not fit its column`);
}

export const searchConsoleBulk: Importer = {
  source: 'search-console',
  format: 'Search Console bulk export (searchdata_url_impression, searchdata_site_impression)',
  detect: (file) => shapeOf(file) !== undefined,
  async stage(files, ctx) {
    await ctx.conn.run('SET preserve_insertion_order = false');
    try {
      return await stageAll(files, ctx);
    } finally {
      await ctx.conn.run(IN_ORDER);
    }
  },
};

/**
 * Reads the URL table's files into raw rows, not summed (raw-rows.ts), and the site table's into search_console_site,
 * summed per day and query (files of both tables may come together). Nothing here needs the rows in the file's order, and
 * keeping it costs DuckDB its parallel reads and writes: measured on 3M rows, 4.3 s of CPU instead of 1.3 s to read
 * the Parquet file into a table, and 23 s instead of 1.6 s of time at a load average of 18.
 */
async function stageAll(files: SourceFile[], ctx: StageContext): Promise<Staged> {
  const kept = files.length === 1 ? await stageVendorFile(ctx, files[0]!) : undefined;
  if (kept) return kept;
  const parts = new Map<BulkTable, string[]>([
    [URL_TABLE, []],
    [SITE_TABLE, []],
  ]);
  const hashing = hashMeanwhile(files.map((f) => f.path));
  try {
    for (const [i, file] of files.entries()) {
      const one = await described(ctx, file);
      const out = path.join(ctx.workDir, `${one.table.id}-${i}.parquet`);
      await stageFile(ctx, one, out);
      parts.get(one.table)!.push(out);
    }
    const tables = new Map<StagedTableId, string>();
    const urlParts = parts.get(URL_TABLE)!;
    if (urlParts.length > 0) {
      await ctx.conn.run(`CREATE TEMP VIEW bulk_raw AS SELECT * FROM read_parquet(${listOf(urlParts)})`);
      tables.set(RAW_ID, 'bulk_raw');
    }
    const notes = await stageSiteTable(ctx, parts.get(SITE_TABLE)!, tables);
    return {
      tables,
      coverage: await coverageOf(ctx, files, `read_parquet(${listOf([...urlParts, ...parts.get(SITE_TABLE)!])})`),
      notes,
      ...(urlParts.length === 1 && { files: new Map([[RAW_ID, urlParts[0]!]]) }),
      hashes: Promise.resolve(await hashing.done()),
    };
  } finally {
    hashing.stop();
  }
}

const listOf = (files: readonly string[]): string => `[${files.map(quoteLiteral).join(', ')}]`;

/**
 * The site table's rows summed per day and query into search_console_site; its anonymized queries (no text) are
 * left out, and the note says how much they held.
 */
async function stageSiteTable(ctx: StageContext, parts: string[], tables: Map<StagedTableId, string>) {
  if (parts.length === 0) return [];
  await ctx.conn.run(
    `CREATE TEMP TABLE site_staged AS SELECT date, query, CAST(sum(clicks) AS BIGINT) AS clicks,
       CAST(sum(impressions) AS BIGINT) AS impressions,
       CASE WHEN sum(impressions) > 0 THEN sum(sum_position) / sum(impressions) + 1 END AS position
     FROM read_parquet(${listOf(parts)}) WHERE query IS NOT NULL GROUP BY date, query`,
  );
  tables.set(SITE_ID, 'site_staged');
  const [anonymized] = (
    await ctx.conn.runAndReadAll(
      `SELECT count(*)::DOUBLE AS n, COALESCE(sum(clicks), 0)::DOUBLE AS clicks,
         COALESCE(sum(impressions), 0)::DOUBLE AS impressions
       FROM read_parquet(${listOf(parts)}) WHERE query IS NULL`,
    )
  ).getRowObjectsJS();
  if (!anonymized || anonymized.n === 0) return [];
  return [
    `${Number(anonymized.n)} site table rows of anonymized queries (${Number(anonymized.clicks)} clicks, ${Number(anonymized.impressions)} impressions) left out: they have no query text`,
  ];
}

/** The file itself as the raw rows, when it is a Parquet file that can be kept (bulk-vendor-file.ts). */
async function stageVendorFile(ctx: StageContext, file: SourceFile): Promise<Staged | undefined> {
  if (shapeOf(file) !== 'parquet') return undefined;
  const types = await describe(ctx.conn, file, 'parquet');
  if (!hasVendorTypes(types)) return undefined;
  const out = path.join(ctx.workDir, `${RAW_ID}-vendor.parquet`);
  if (!(await keepVendorFile(ctx.conn, file, out))) return undefined;
  // The copy's sha256 (the bytes kept) while DuckDB reads its URLs: copied then hashed, 8.3 s of 34.6 at 30M rows.
  const hashing = hashMeanwhile([out]);
  const hashes = hashing.done().then((byPath) => new Map([[file.path, byPath.get(out)!]]));
  hashes.catch(() => undefined);
  const hasQuery = types.has('query');
  await ctx.conn.run(
    `CREATE TEMP VIEW bulk_raw AS SELECT ${vendorSelectOf(RAW_ID, hasQuery)} FROM read_parquet(${quoteLiteral(out)})`,
  );
  return {
    tables: new Map([[RAW_ID, 'bulk_raw']]),
    coverage: await coverageOf(ctx, [file], 'bulk_raw'),
    notes: [],
    files: new Map([[RAW_ID, out]]),
    vendorFiles: new Map([[RAW_ID, { hasQuery }]]),
    hashes,
    stopHashing: hashing.stop,
  };
}

/** The days `rows` (staged rows, with a date column) cover. */
async function coverageOf(ctx: StageContext, files: SourceFile[], rows: string): Promise<Staged['coverage']> {
  const span = (
    await ctx.conn.runAndReadAll(`SELECT min(date)::VARCHAR, max(date)::VARCHAR FROM ${rows}`)
  ).getRowsJS()[0];
  if (!span?.[0]) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no rows`);
  return { start: textOf(span[0]), end: textOf(span[1]), granularity: 'day' };
}
