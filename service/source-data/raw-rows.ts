/**
 * Rows kept as a vendor file holds them: Search Console's bulk export (`searchdata_url_impression`), projected to the
 * columns the contract keeps, not summed per key when imported (at 3M rows the two sums were a third of an import's
 * work, and they grow with the file, while a crawl reads only its window). A version holds them in a table of their
 * own; a crawl's join sums its window's rows per key together with the source's keyed rows (join-sources.ts). Without
 * --replace a day holds raw rows or keyed rows of a source, never both, and no raw row lies in the span of a period
 * import's totals (merge-raw.ts), so nothing is counted twice; --replace drops the live rows on the new file's dates
 * and, whole, every period import whose span meets them (merge-version.ts), so it cannot count a day twice either.
 */
import type { DataSourceId } from '../../catalog/data-sources.ts';
import { exportTable, type ExportTableId } from '../../catalog/export-contract.ts';
import { quoteIdent } from '../db/duckdb.ts';

export type RawTableId = 'searchdata_url_impression';

/** Raw rows are written once and read by a window: a light codec (snappy wrote 3M rows in 1.6 s of CPU, zstd 2.1). */
export const RAW_PARQUET = 'FORMAT parquet, COMPRESSION snappy';

export interface RawTable {
  id: RawTableId;
  source: DataSourceId;
  columns: readonly { name: string; type: string }[];
  /** The contract tables its rows feed, each with the rows it takes and the columns that differ from its own. */
  feeds: readonly { table: ExportTableId; where: string; columns?: Readonly<Record<string, string>> }[];
  /**
   * Google's name of each of its columns: the importer reads a vendor file's cells by them (search-console-bulk.ts),
   * and a version reads the vendor's own Parquet file, kept as it is (VendorFile), through them, the file's column
   * types checked at import so the casts only widen.
   */
  vendorNames: Readonly<Record<string, string>>;
}

/** A version's raw file that is the vendor's own: the import that brought it, and whether it has a query column. */
export interface VendorFile {
  import: string;
  hasQuery: boolean;
}

/** Google's sum_position is zero-based and summed over impressions. */
const POSITION = { position: 'CASE WHEN impressions > 0 THEN sum_position / impressions + 1 END' };

export const rawTables: readonly RawTable[] = [
  {
    id: 'searchdata_url_impression',
    source: 'search-console',
    columns: [
      { name: 'date', type: 'DATE' },
      { name: 'url', type: 'VARCHAR' },
      { name: 'query', type: 'VARCHAR' },
      { name: 'clicks', type: 'BIGINT' },
      { name: 'impressions', type: 'BIGINT' },
      { name: 'sum_position', type: 'DOUBLE' },
    ],
    feeds: [
      { table: 'search_console', where: 'TRUE', columns: POSITION },
      // An anonymized query has no text: it counts for its page, not as a query.
      { table: 'search_console_queries', where: 'query IS NOT NULL', columns: POSITION },
    ],
    vendorNames: {
      date: 'data_date',
      url: 'url',
      query: 'query',
      clicks: 'clicks',
      impressions: 'impressions',
      sum_position: 'sum_position',
    },
  },
];

export const rawTablesOf = (source: DataSourceId): RawTable[] => rawTables.filter((t) => t.source === source);
export const rawTableOf = (id: string): RawTable | undefined => rawTables.find((t) => t.id === id);
export const isRawTableId = (id: string): id is RawTableId => rawTableOf(id) !== undefined;

/**
 * The raw table's columns over a vendor file's: numbers cast, the query trimmed (an empty one, or a file without a
 * query column, is anonymized: NULL).
 */
export function vendorSelectOf(id: RawTableId, hasQuery: boolean): string {
  const raw = rawTableOf(id)!;
  return raw.columns
    .map((c) => {
      const name = quoteIdent(raw.vendorNames[c.name]!);
      const as = quoteIdent(c.name);
      if (c.name === 'query') return hasQuery ? `NULLIF(trim(${name}), '') AS ${as}` : `NULL::VARCHAR AS ${as}`;
      return c.type === 'BIGINT' || c.type === 'DOUBLE' ? `CAST(${name} AS ${c.type}) AS ${as}` : `${name} AS ${as}`;
    })
    .join(', ');
}

/** The columns of a version's table, contract or raw. */
export const columnsOf = (tableId: string): readonly { name: string; type: string }[] =>
  rawTableOf(tableId)?.columns ?? exportTable(tableId as ExportTableId).columns;

/** The raw tables that feed a contract table, each with the SQL of its rows as that table's columns. */
export function rawFeedsOf(tableId: string): { raw: RawTable; where: string; select: string }[] {
  const columns = exportTable(tableId as ExportTableId).columns;
  return rawTables.flatMap((raw) =>
    raw.feeds
      .filter((f) => f.table === tableId)
      .map((f) => ({
        raw,
        where: f.where,
        select: columns
          .map((c) => (f.columns?.[c.name] ? `${f.columns[c.name]} AS ${quoteIdent(c.name)}` : quoteIdent(c.name)))
          .join(', '),
      })),
  );
}

/**
 * A contract table's columns summed per key over rows of `alias`: counts and amounts added, the position weighted by
 * impressions, other values the first; `url` the key's URL as given. Where a crawl joins (isLoneRowKept), a key's
 * only row keeps its values as they are, so summing rows one per key already changes nothing, not even a position's
 * last bit.
 */
export function summedColumnsOf(
  tableId: string,
  alias: string,
  options: { url?: string; isLoneRowKept?: boolean } = {},
): string[] {
  const table = exportTable(tableId as ExportTableId);
  return table.columns.map((c) => {
    const name = `${alias}.${quoteIdent(c.name)}`;
    const as = quoteIdent(c.name);
    if (c.name === 'url' && options.url) return `${options.url} AS ${as}`;
    if (table.key.includes(c.name)) return name;
    if (c.name === 'position') {
      const weighted = `WHEN sum(${alias}.impressions) > 0 THEN sum(${name} * ${alias}.impressions) / sum(${alias}.impressions)`;
      return `CASE ${options.isLoneRowKept ? `WHEN count(*) = 1 THEN first(${name}) ` : ''}${weighted} END AS ${as}`;
    }
    if (c.type === 'BIGINT' || c.type === 'INTEGER' || c.type === 'DOUBLE')
      return `CAST(sum(${name}) AS ${c.type}) AS ${as}`;
    return `first(${name}) AS ${as}`;
  });
}

/**
 * The rows of a contract table from a keyed relation and raw relations (by raw table id), each filtered by `where`:
 * the keyed rows as they are when no raw relation is given, else all of them summed per key.
 */
export function fedRowsOf(
  tableId: string,
  keyed: string | undefined,
  raw: ReadonlyMap<string, string>,
  where: string,
): string | undefined {
  const table = exportTable(tableId as ExportTableId);
  const columns = table.columns.map((c) => quoteIdent(c.name)).join(', ');
  const parts = keyed ? [`SELECT ${columns} FROM ${keyed} WHERE ${where}`] : [];
  const feeds = rawFeedsOf(tableId).filter((f) => raw.has(f.raw.id));
  for (const feed of feeds)
    parts.push(`SELECT ${feed.select} FROM ${raw.get(feed.raw.id)} WHERE ${where} AND ${feed.where}`);
  if (feeds.length === 0) return parts[0];
  const key = table.key.map((k) => `r.${quoteIdent(k)}`).join(', ');
  return `SELECT ${summedColumnsOf(tableId, 'r', { isLoneRowKept: true }).join(', ')} FROM (${parts.join(' UNION ALL ')}) r GROUP BY ${key}`;
}
