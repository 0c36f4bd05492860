/**
 * The rows a crawl streams to disk (newline-delimited JSON, one file per kind) and DuckDB reads back at its end
 * (crawl-tables.ts): each kind declared once, as its keys and their DuckDB types. The writers' row types derive
 * from the same declarations, so a key the writer renames fails the type check (and crawl-records.test.ts) instead
 * of reading back as a NULL column; a declared key that no statement of the export reads fails that test too. Keys
 * are short: a crawl writes millions of these rows.
 */
import { renderedPageColumns } from './rendered-columns.ts';
import { openGraphFields, schemaTypes, type OpenGraphField, type SchemaType } from './parsed-page.ts';

/** A STRUCT column: its DuckDB type, and (as a type only) the value a row holds. */
interface Struct<V> {
  readonly duckdb: string;
  readonly value?: V;
}

type ColumnType = 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR' | 'VARCHAR[]' | Struct<unknown>;
type Columns = Readonly<Record<string, ColumnType>>;

type ValueOf<T> = T extends 'INTEGER' | 'BIGINT' | 'DOUBLE'
  ? number
  : T extends 'BOOLEAN'
    ? boolean
    : T extends 'VARCHAR'
      ? string
      : T extends 'VARCHAR[]'
        ? string[]
        : T extends Struct<infer V>
          ? V
          : never;

/** A row of a declared kind: any declared key may be left out or null (NULL in DuckDB), no other key allowed. */
export type RecordOf<C extends Columns> = { -readonly [K in keyof C]?: ValueOf<C[K]> | null };
/** A row with every declared key present, null where there is no value. */
type FullRecordOf<C extends Columns> = { -readonly [K in keyof C]-?: ValueOf<C[K]> | null };

const struct = <V>(fields: readonly string[], type: string): Struct<V> => ({
  duckdb: `STRUCT(${fields.map((f) => `${f} ${type}`).join(', ')})`,
});

/** The known-URL set, written once at the end (frontier.ts). */
export const nodeColumns = {
  id: 'INTEGER',
  url: 'VARCHAR',
  /** Placement: i(nternal), o(utside scope), e(xternal). */
  pl: 'VARCHAR',
  /** Fetched. */
  fe: 'BOOLEAN',
  /** Restricted reason. */
  rr: 'VARCHAR',
  /** Found at: the id of the first page linking to it. */
  fa: 'INTEGER',
  /** The first sitemap listing it. */
  sm: 'VARCHAR',
} as const satisfies Columns;

/** One row per fetched URL (page-recorder.ts): the response, and what its HTML says when it was parsed. */
export const pageColumns = {
  id: 'INTEGER',
  st: 'INTEGER',
  /** Why the fetch got no response, or why its body was not (wholly) read or parsed. */
  err: 'VARCHAR',
  /** Fetch time, seconds. */
  ft: 'DOUBLE',
  sz: 'BIGINT',
  /** X-Robots-Tag: noindex, nofollow, noarchive, nosnippet, noimageindex, notranslate. */
  hn: 'BOOLEAN',
  hf: 'BOOLEAN',
  ha: 'BOOLEAN',
  hs: 'BOOLEAN',
  hi: 'BOOLEAN',
  ht: 'BOOLEAN',
  /** Canonical of the Link header, of the HTML (URL ids); HTML canonicals that conflict. */
  ch: 'INTEGER',
  cm: 'INTEGER',
  cc: 'BOOLEAN',
  /** Redirect target (URL id) and kind: http, meta or js. */
  rd: 'INTEGER',
  rk: 'VARCHAR',
  html: 'BOOLEAN',
  ti: 'VARCHAR',
  de: 'VARCHAR',
  h1: 'VARCHAR[]',
  h2: 'VARCHAR[]',
  h3: 'VARCHAR[]',
  wc: 'INTEGER',
  cs: 'INTEGER',
  bh: 'VARCHAR',
  mn: 'BOOLEAN',
  mf: 'BOOLEAN',
  sd: 'BOOLEAN',
  sc: struct<Record<SchemaType, number>>(schemaTypes, 'INTEGER'),
  og: struct<Partial<Record<OpenGraphField, string>>>(openGraphFields, 'VARCHAR'),
  hib: 'INTEGER',
  bih: 'INTEGER',
  ...renderedPageColumns,
} as const satisfies Columns;

/**
 * Link kinds, as numbered in the edge rows' `k` (contract-tables.ts names them). Resources (stylesheets, scripts,
 * icons) are followed and count for click depth, but are not links of the page: they stay out of the link tables.
 */
export const LinkKind = { href: 0, image: 1, canonical: 2, hreflang: 3, redirect: 4, resource: 5 } as const;

/** One row per page and target, all its links to the target folded into one (page-recorder.ts). */
export const edgeColumns = {
  f: 'INTEGER',
  t: 'INTEGER',
  /** LinkKind. */
  k: 'INTEGER',
  a: 'VARCHAR',
  r: 'VARCHAR',
  nf: 'BOOLEAN',
  ic: 'INTEGER',
  im: 'BOOLEAN',
  al: 'BOOLEAN',
  hl: 'VARCHAR',
  /** Found only in the rendered DOM, or only in the raw HTML (rendered-page.ts). */
  ro: 'BOOLEAN',
  xo: 'BOOLEAN',
} as const satisfies Columns;

/** What an edge row leaves out when it is the default (see edgeLine in page-recorder.ts), as SQL. */
export const EDGE_DEFAULTS: Partial<Record<keyof typeof edgeColumns, string>> = {
  a: "''",
  nf: 'false',
  ic: '1',
  im: 'false',
};

/** One row per image of a page: whether its alt text is missing. */
export const imageColumns = { f: 'INTEGER', src: 'VARCHAR', ma: 'BOOLEAN' } as const satisfies Columns;

/** One row per sitemap file, named as the contract's sitemaps table names them. */
export const sitemapColumns = {
  url: 'VARCHAR',
  found_at: 'VARCHAR',
  restricted_reason: 'VARCHAR',
  http_status_code: 'INTEGER',
  fetch_error: 'VARCHAR',
  sitemap_type: 'VARCHAR',
  format: 'VARCHAR',
  parse_error: 'VARCHAR',
  file_size: 'BIGINT',
  links_count: 'INTEGER',
  url_count: 'INTEGER',
} as const satisfies Columns;

/**
 * One row per rendered page (render.ts): its performance as the web-vitals library measures it, written at the end
 * of the crawl for the first indexable pages; a page that could not be rendered has nulls.
 */
export const vitalColumns = {
  url: 'VARCHAR',
  /** Cumulative layout shift. */
  cls: 'DOUBLE',
  /** DOMContentLoaded, seconds. */
  dcl: 'DOUBLE',
  /** First contentful paint, seconds. */
  fcp: 'DOUBLE',
  /** Largest contentful paint, seconds. */
  lcp: 'DOUBLE',
  /** Time to first byte, milliseconds. */
  ttfb: 'DOUBLE',
  /** Time to interactive, seconds. */
  tti: 'DOUBLE',
} as const satisfies Columns;

export type NodeRecord = RecordOf<typeof nodeColumns>;
export type PageRecord = RecordOf<typeof pageColumns>;
export type EdgeRecord = RecordOf<typeof edgeColumns>;
export type ImageRecord = RecordOf<typeof imageColumns>;
export type SitemapRecord = RecordOf<typeof sitemapColumns>;
export type PageVitals = FullRecordOf<typeof vitalColumns> & { url: string };

/** Every kind of row, by the name of its file (`<kind>.ndjson` in the crawl's work directory). */
export const crawlRecords = {
  nodes: nodeColumns,
  pages: pageColumns,
  edges: edgeColumns,
  images: imageColumns,
  sitemaps: sitemapColumns,
} as const;
export type CrawlRecordKind = keyof typeof crawlRecords;

export const recordFileOf = (kind: CrawlRecordKind): string => `${kind}.ndjson`;

/** The `columns` argument of DuckDB's read_json for a kind of row: key → DuckDB type. */
export function duckdbColumnsOf(columns: Columns): Record<string, string> {
  return Object.fromEntries(
    Object.entries(columns).map(([key, type]) => [key, typeof type === 'string' ? type : type.duckdb]),
  );
}
