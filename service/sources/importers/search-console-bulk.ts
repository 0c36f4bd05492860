/**
 * Search Console's bulk data export, table `searchdata_url_impression`, as BigQuery exports it: CSV with a header,
 * Parquet, or newline-delimited JSON, with Google's column names (data_date, site_url, url, query,
 * is_anonymized_query, country, search_type, device, …, impressions, clicks, sum_position). One row per day, URL,
 * query, country, device and search type; anonymized queries have no query text. sum_position is zero-based and
 * summed over impressions, so the average position is sum_position / impressions + 1.
 *
 * Its rows are kept as raw rows (raw-rows.ts), summed where a crawl joins them: per day and URL into search_console
 * (anonymized queries included) and per day, URL and query into search_console_queries (anonymized ones left out, as
 * they have no text).
 */
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral, textOf } from '../../db/duckdb.ts';
import { firstLine } from '../../error-text.ts';
import { ImportError, cellError } from '../import-error.ts';
import type { Importer, SourceFile, Staged, StageContext } from '../importer.ts';
import { RAW_PARQUET, vendorSelectOf, type RawTableId } from '../../source-data/raw-rows.ts';
import { hashMeanwhile } from '../file-hash.ts';
import { hasVendorTypes, keepVendorFile } from './bulk-vendor-file.ts';
import { IMPORT_COLUMN } from '../../source-data/source-store.ts';

const RAW_ID: RawTableId = 'searchdata_url_impression';

/** query may be absent where every row is anonymized (BigQuery's JSON export leaves NULL fields out). */
const REQUIRED = ['data_date', 'url', 'impressions', 'clicks', 'sum_position'] as const;
const CHECKS: [column: string, type: string, what: string][] = [
  ['data_date', 'DATE', 'is not a date (YYYY-MM-DD)'],
  ['impressions', 'BIGINT', 'is not a whole number'],
  ['clicks', 'BIGINT', 'is not a whole number'],
  ['sum_position', 'DOUBLE', 'is not a number'],
];
/** Counts and positions: a negative one is refused, as no search has one. */
const COUNTS = ['impressions', 'clicks', 'sum_position'];

export type Shape = 'parquet' | 'ndjson' | 'csv';

/** The import's setting (import-data.ts), which the other importers' line numbers rely on. */
const IN_ORDER = 'SET preserve_insertion_order = true';

/**
 * The bulk export's site table (searchdata_site_impression), told apart so that its refusal names it. The contract
 * keeps Search Console by page (search_console, search_console_queries); the site table's totals are the property's,
 * which Google counts once per search where the URL table counts each page shown, so they are not the pages' sum and
 * cannot stand beside them in the query report or any column.
 */
const SITE_TABLE = ['data_date', 'site_url', 'sum_top_position'];
const SITE_TABLE_REFUSAL =
  "the bulk export's site table (searchdata_site_impression) is not imported: its rows are the whole property's " +
  'totals per day, query, country, device and search type, with no page, and Search Console data is kept per page ' +
  "here; a property's totals are not the sum of its pages' (a search counts once for the property, once for each " +
  "of its pages shown), so they cannot stand beside them. Import the same export's URL table, " +
  'searchdata_url_impression, instead: it feeds the pages and the query report';
const siteTableRefused = (file: SourceFile): ImportError => new ImportError(`${file.name}: ${SITE_TABLE_REFUSAL}`);

export function shapeOf(file: SourceFile): Shape | undefined {
  if (file.head.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet';
  const text = file.head.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.split(/\r?\n/)[0] ?? '';
  const has = (name: string): boolean => first.includes(name);
  if (!REQUIRED.every((c) => has(c)) && !SITE_TABLE.every((c) => has(c))) return undefined;
  return first.trimStart().startsWith('{') ? 'ndjson' : 'csv';
}

export function readerOf(file: SourceFile, shape: Shape): string {
  const at = quoteLiteral(file.path);
  if (shape === 'parquet') return `read_parquet(${at})`;
  if (shape === 'ndjson') return `read_json(${at}, format = 'newline_delimited', sample_size = -1)`;
  return `read_csv(${at}, header = true, all_varchar = true, auto_detect = true, strict_mode = true)`;
}

/** The file as text columns with each row's line (CSV: the header is line 1; otherwise the row number). */
async function readRaw(conn: DuckDBConnection, file: SourceFile, shape: Shape, name: string): Promise<string[]> {
  try {
    await conn.run(
      `CREATE TEMP TABLE ${quoteIdent(name)} AS SELECT *, row_number() OVER () + ${shape === 'csv' ? 1 : 0} AS _line FROM ${readerOf(file, shape)}`,
    );
  } catch (error) {
    throw new ImportError(`${file.name}: not a readable ${shape} file (${firstLine(error)})`, 'invalid-input', {
      cause: error,
    });
  }
  const reader = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(name)} LIMIT 0`);
  const columns = reader.columnNames();
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new ImportError(`${file.name}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return columns;
}

async function checkCells(ctx: StageContext, file: SourceFile, name: string, columns: string[], shape: Shape) {
  for (const [column, type, what] of CHECKS) {
    const col = quoteIdent(column);
    const value = `TRY_CAST(CAST(${col} AS VARCHAR) AS ${type})`;
    const isNegative = COUNTS.includes(column) ? `${value} < 0` : 'FALSE';
    const reader = await ctx.conn.runAndReadAll(
      `SELECT _line, CAST(${col} AS VARCHAR) AS v, ${isNegative} AS is_negative FROM ${quoteIdent(name)}
       WHERE ${col} IS NULL OR ${value} IS NULL OR ${isNegative} ORDER BY _line LIMIT 1`,
    );
    const bad = reader.getRowObjectsJS()[0];
    if (!bad) continue;
    const text = bad.v === null ? 'empty' : `"${textOf(bad.v)}"`;
    const problem = `${column} ${text} ${bad.is_negative === true ? 'is negative' : what}`;
    if (shape === 'csv') throw cellError(file.name, Number(bad._line), columns.indexOf(column) + 1, problem);
    throw new ImportError(`${file.name}: row ${Number(bad._line)}, column ${problem}`);
  }
  const url = await ctx.conn.runAndReadAll(
    `SELECT _line FROM ${quoteIdent(name)} WHERE url IS NULL OR trim(CAST(url AS VARCHAR)) = '' ORDER BY _line LIMIT 1`,
  );
  const line = url.getRowsJS()[0]?.[0];
  if (line !== undefined) {
    if (shape === 'csv') throw cellError(file.name, Number(line), columns.indexOf('url') + 1, 'url is empty');
    throw new ImportError(`${file.name}: row ${Number(line)}, column url: empty`);
  }
}

/** The file's columns and their types, without reading its rows. */
async function describe(conn: DuckDBConnection, file: SourceFile, shape: Shape): Promise<Map<string, string>> {
  let described;
  try {
    described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${readerOf(file, shape)}`)).getRowObjectsJS();
  } catch (error) {
    throw new ImportError(`${file.name}: not a readable ${shape} file (${firstLine(error)})`, 'invalid-input', {
      cause: error,
    });
  }
  const types = new Map(described.map((r) => [textOf(r.column_name), textOf(r.column_type)]));
  if (!types.has('url') && types.has('sum_top_position')) throw siteTableRefused(file);
  const missing = REQUIRED.filter((c) => !types.has(c));
  if (missing.length > 0)
    throw new ImportError(`${file.name}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return types;
}

/** A column as `type`, NULL where a cell does not fit: a typed column cast directly, any other through its text. */
function castOf(column: string, type: string, types: Map<string, string>): string {
  const from = types.get(column)!;
  const isSame =
    from === type ||
    (type === 'BIGINT' && /INT/.test(from)) ||
    (type === 'DOUBLE' && /INT|DOUBLE|FLOAT|DECIMAL/.test(from));
  return isSame
    ? `TRY_CAST(${quoteIdent(column)} AS ${type})`
    : `TRY_CAST(CAST(${quoteIdent(column)} AS VARCHAR) AS ${type})`;
}

/**
 * A text column without its surrounding spaces, NULL when empty. Trimming only the cells that have such spaces
 * took 3.8 s of CPU instead of 4.7 to stage 3M rows from CSV (trimming every cell cost as much as the casts).
 */
function trimmedOf(column: string, types: Map<string, string>): string {
  const text = types.get(column) === 'VARCHAR' ? quoteIdent(column) : `CAST(${quoteIdent(column)} AS VARCHAR)`;
  return `CASE WHEN ${text} = '' THEN NULL WHEN starts_with(${text}, ' ') OR ends_with(${text}, ' ') THEN NULLIF(trim(${text}), '') ELSE ${text} END`;
}

/** What the staged file's columns are checked for: NULL where a cell did not fit (or, for url, was empty). */
const KEPT = ['date', 'url', 'clicks', 'impressions', 'sum_position'];

/**
 * One pass over the file, written straight to the raw rows' Parquet file (raw-rows.ts), in the file's own order: the
 * six columns kept, each cast, NULL where a cell does not fit. Parquet's own statistics then count the NULLs, and only
 * when some cell did not fit is the file read again with its lines numbered, to name the first bad cell.
 */
async function stageFile(ctx: StageContext, file: SourceFile, out: string): Promise<void> {
  const shape = shapeOf(file)!;
  const types = await describe(ctx.conn, file, shape);
  const query = types.has('query') ? trimmedOf('query', types) : 'NULL::VARCHAR';
  const tag = ctx.importId === undefined ? '' : `, ${quoteLiteral(ctx.importId)} AS ${quoteIdent(IMPORT_COLUMN)}`;
  try {
    await ctx.conn.run(
      `COPY (SELECT ${castOf('data_date', 'DATE', types)} AS date, ${trimmedOf('url', types)} AS url,
         ${query} AS query, ${castOf('clicks', 'BIGINT', types)} AS clicks,
         ${castOf('impressions', 'BIGINT', types)} AS impressions,
         ${castOf('sum_position', 'DOUBLE', types)} AS sum_position${tag}
       FROM ${readerOf(file, shape)}) TO ${quoteLiteral(out)} (${RAW_PARQUET})`,
    );
  } catch (error) {
    throw new ImportError(`${file.name}: not a readable ${shape} file (${firstLine(error)})`, 'invalid-input', {
      cause: error,
    });
  }
  const bad = await ctx.conn.runAndReadAll(
    `SELECT COALESCE(sum(stats_null_count), 0)
       + count(*) FILTER (WHERE path_in_schema IN (${COUNTS.map(quoteLiteral).join(', ')}) AND TRY_CAST(stats_min_value AS DOUBLE) < 0)
     FROM parquet_metadata(${quoteLiteral(out)}) WHERE path_in_schema IN (${KEPT.map(quoteLiteral).join(', ')})`,
  );
  if (Number(bad.getRowsJS()[0]![0]) === 0) return;
  // The lines are numbered in the file's order.
  await ctx.conn.run(IN_ORDER);
  const raw = `bulk_lines`;
  const columns = await readRaw(ctx.conn, file, shape, raw);
  await checkCells(ctx, file, raw, columns, shape);
  throw new ImportError(`${file.name}: a cell does not fit its column`);
}

export const searchConsoleBulk: Importer = {
  source: 'search-console',
  format: 'Search Console bulk export (searchdata_url_impression)',
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
 * Reads the files into raw rows, not summed (raw-rows.ts). Nothing here needs the rows in the file's order, and
 * keeping it costs DuckDB its parallel reads and writes: measured on 3M rows, 4.3 s of CPU instead of 1.3 s to read
 * the Parquet file into a table, and 23 s instead of 1.6 s of time at a load average of 18.
 */
async function stageAll(files: SourceFile[], ctx: StageContext): Promise<Staged> {
  const kept = files.length === 1 ? await stageVendorFile(ctx, files[0]!) : undefined;
  if (kept) return kept;
  const parts: string[] = [];
  const hashing = hashMeanwhile(files.map((f) => f.path));
  try {
    for (const [i, file] of files.entries()) {
      const out = path.join(ctx.workDir, `${RAW_ID}-${i}.parquet`);
      await stageFile(ctx, file, out);
      parts.push(out);
    }
    await ctx.conn.run(
      `CREATE TEMP VIEW bulk_raw AS SELECT * FROM read_parquet([${parts.map(quoteLiteral).join(', ')}])`,
    );
    return {
      tables: new Map([[RAW_ID, 'bulk_raw']]),
      coverage: await coverageOf(ctx, files),
      notes: [],
      ...(parts.length === 1 && { files: new Map([[RAW_ID, parts[0]!]]) }),
      hashes: Promise.resolve(await hashing.done()),
    };
  } finally {
    hashing.stop();
  }
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
    coverage: await coverageOf(ctx, [file]),
    notes: [],
    files: new Map([[RAW_ID, out]]),
    vendorFiles: new Map([[RAW_ID, { hasQuery }]]),
    hashes,
    stopHashing: hashing.stop,
  };
}

async function coverageOf(ctx: StageContext, files: SourceFile[]): Promise<Staged['coverage']> {
  const span = (
    await ctx.conn.runAndReadAll(`SELECT min(date)::VARCHAR, max(date)::VARCHAR FROM bulk_raw`)
  ).getRowsJS()[0];
  if (!span?.[0]) throw new ImportError(`${files.map((f) => f.name).join(', ')}: no rows`);
  return { start: textOf(span[0]), end: textOf(span[1]), granularity: 'day' };
}
