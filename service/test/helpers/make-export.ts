/**
 * Writes a small, valid crawl export (manifest.json plus one Parquet file per required table) with DuckDB
 * `COPY (SELECT ...) TO ... (FORMAT parquet)`, so loader tests do not depend on the fixture generator.
 * Each table is a FROM clause and a map of column name → SQL expression; a test can replace the FROM clause,
 * replace, add or drop (null) columns, write raw bytes instead of Parquet, or omit the file (null).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MANIFEST_FILE, parquetFileOf, type ExportTableId, type Manifest } from '../../../catalog/export-contract.ts';
import { openDatabase, quoteIdent, quoteLiteral, withConnection } from '../../db/duckdb.ts';

export interface TableSpec {
  /** The FROM clause the column expressions read, e.g. `range(1000) t(i)` or `(VALUES ...) AS r(a, b)`. */
  from: string;
  /** Column name → SQL expression, in file order. */
  columns: Record<string, string>;
}

export interface TableOverride {
  from?: string;
  /** Replaces or adds columns (added ones go last); null drops a column. */
  columns?: Record<string, string | null>;
  /** Written instead of Parquet, e.g. to make a corrupt file. */
  raw?: string | Uint8Array;
}

export interface MakeExportOptions {
  /** Defaults to a new directory under os.tmpdir(). */
  dir?: string;
  /** Merged over the default manifest; a key set to undefined is left out. */
  manifest?: Partial<Record<keyof Manifest, unknown>>;
  /** Written verbatim instead of the manifest; null leaves manifest.json out. */
  manifestText?: string | null;
  /**
   * Per table: an override of its default spec, or null to leave the file out. Optional tables (extractions,
   * sources) are written only when named here; `{}` writes their default rows.
   */
  tables?: Partial<Record<ExportTableId, TableOverride | null>>;
}

export interface MadeExport {
  dir: string;
  manifest: Manifest;
  file: (table: ExportTableId) => string;
}

export const START_URL = 'https://www.example.com/';

export const defaultManifest = (): Manifest => ({
  websiteId: 'acme-shoes',
  crawlId: 1,
  crawledAt: '2024-05-06T09:30:00Z',
  dataStart: '2024-04-06',
  dataEnd: '2024-05-05',
  startUrl: START_URL,
  crawler: { name: 'test-crawler', version: '1.0.0' },
});

const W = 'https://www.example.com';
const REDIRECT_HOP =
  'STRUCT(url VARCHAR, status_code INTEGER, redirects_to VARCHAR, is_js_redirect BOOLEAN, is_meta_redirect BOOLEAN)[]';

/** Rows deliberately out of key order, so tests can see the loader sort them. */
export const DEFAULT_TABLES: Partial<Record<ExportTableId, TableSpec>> = {
  urls: {
    from: `(VALUES
      ('${W}/old', 301, false, 'Old page', 2, 0.4),
      ('${W}/', 200, true, 'Home', 0, 0.2),
      ('${W}/about', 200, true, 'About us', 1, 0.3),
      ('${W}/missing', 404, false, NULL, 2, 0.1)
    ) AS r(url, status, indexable, title, level, fetch_time)`,
    columns: {
      url: 'url',
      http_status_code: 'CAST(status AS INTEGER)',
      indexable: 'CAST(indexable AS BOOLEAN)',
      internal: 'TRUE',
      found_in_web_crawl: 'TRUE',
      found_in_sitemap: `url IN ('${W}/', '${W}/about')`,
      page_title: 'CAST(title AS VARCHAR)',
      page_title_length: 'CAST(length(title) AS INTEGER)',
      h1_tag: 'CASE WHEN title IS NULL THEN NULL ELSE [title] END',
      redirect_chain: `CAST(CASE WHEN status = 301 THEN [{'url': url, 'status_code': 301, 'redirects_to': '${W}/', 'is_js_redirect': false, 'is_meta_redirect': false}] END AS ${REDIRECT_HOP})`,
      level: 'CAST(level AS INTEGER)',
      fetch_time: 'CAST(fetch_time AS DOUBLE)',
    },
  },
  links: {
    from: `(VALUES
      ('${W}/about', '${W}/', true, 'Home', 200),
      ('${W}/', '${W}/about', true, 'About', 200),
      ('${W}/', '${W}/old', true, 'Old', 301),
      ('${W}/about', 'https://cdn.other.net/lib.js', false, 'Lib', 200)
    ) AS r(url_from, url_to, internal, anchor, status)`,
    columns: {
      url_from: 'url_from',
      url_to: 'url_to',
      internal: 'CAST(internal AS BOOLEAN)',
      anchor_text: 'anchor',
      url_to_status_code: 'CAST(status AS INTEGER)',
    },
  },
  unique_links: {
    from: `(VALUES
      ('${W}/about', 'About', '${W}/', true),
      ('${W}/', 'Home', '${W}/about', true),
      ('${W}/old', 'Old', '${W}/', true)
    ) AS r(url_to, anchor_text, primary_url_from, internal)`,
    columns: {
      url_to: 'url_to',
      anchor_text: 'anchor_text',
      primary_url_from: 'primary_url_from',
      internal: 'CAST(internal AS BOOLEAN)',
    },
  },
  sitemaps: {
    from: `(VALUES ('${W}/sitemap.xml', 'urlset', 2)) AS r(url, sitemap_type, url_count)`,
    columns: { url: 'url', sitemap_type: 'sitemap_type', url_count: 'CAST(url_count AS INTEGER)' },
  },
  uncrawled_urls: {
    from: `(VALUES ('${W}/admin', 'robots_disallowed', '${W}/')) AS r(url, reason, found_at_url)`,
    columns: { url: 'url', restricted_reason: 'reason', found_at_url: 'found_at_url' },
  },
  search_console: {
    from: `(VALUES
      (DATE '2024-05-01', '${W}/', 5, 100, 3.5),
      (DATE '2024-05-01', '${W}/orphan-from-search', 1, 40, 12.0),
      (DATE '2024-05-02', '${W}/', 7, 120, 3.1)
    ) AS r(date, url, clicks, impressions, position)`,
    columns: {
      date: 'date',
      url: 'url',
      clicks: 'CAST(clicks AS BIGINT)',
      impressions: 'CAST(impressions AS BIGINT)',
      position: 'CAST(position AS DOUBLE)',
    },
  },
  analytics: {
    from: `(VALUES
      (DATE '2024-05-01', '${W}/about', 'organic', 10),
      (DATE '2024-05-01', 'https://blog.example.com/landing', 'email', 3)
    ) AS r(date, url, channel, sessions)`,
    columns: {
      date: 'date',
      url: 'url',
      channel: 'channel',
      sessions: 'CAST(sessions AS BIGINT)',
      users: 'CAST(sessions AS BIGINT)',
      new_users: 'CAST(1 AS BIGINT)',
      page_views: 'CAST(sessions * 2 AS BIGINT)',
      conversions: 'CAST(0 AS BIGINT)',
      revenue: 'CAST(0 AS DOUBLE)',
      transactions: 'CAST(0 AS BIGINT)',
    },
  },
  large_images: {
    from: `(VALUES ('${W}/', '${W}/hero.jpg', 512.5)) AS r(url, src, size)`,
    columns: { url: 'url', imgSrc: 'src', imgSize: 'CAST(size AS DOUBLE)' },
  },
};

const WRITTEN_BY_DEFAULT: readonly ExportTableId[] = ['urls', 'links', 'unique_links', 'sitemaps', 'uncrawled_urls'];

export function specOf(table: ExportTableId, override: TableOverride = {}): TableSpec {
  const base = DEFAULT_TABLES[table];
  if (!base && !override.from) throw new Error(`make-export has no default rows for ${table}: pass from and columns`);
  const columns: Record<string, string> = { ...base?.columns };
  for (const [name, expr] of Object.entries(override.columns ?? {})) {
    if (expr === null) delete columns[name];
    else columns[name] = expr;
  }
  return { from: override.from ?? base?.from ?? '', columns };
}

export async function makeExport(options: MakeExportOptions = {}): Promise<MadeExport> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
  fs.mkdirSync(dir, { recursive: true });
  const manifest = { ...defaultManifest(), ...options.manifest } as Manifest;
  if (options.manifestText !== null) {
    fs.writeFileSync(path.join(dir, MANIFEST_FILE), options.manifestText ?? `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const file = (table: ExportTableId): string => path.join(dir, parquetFileOf(table));
  const wanted = new Set<ExportTableId>([
    ...WRITTEN_BY_DEFAULT,
    ...(Object.keys(options.tables ?? {}) as ExportTableId[]),
  ]);
  const db = await openDatabase();
  try {
    await withConnection(db, async (conn) => {
      for (const table of wanted) {
        const override = options.tables?.[table];
        if (override === null) continue;
        if (override?.raw !== undefined) {
          fs.writeFileSync(file(table), override.raw);
          continue;
        }
        const spec = specOf(table, override);
        const select = Object.entries(spec.columns)
          .map(([name, expr]) => `${expr} AS ${quoteIdent(name)}`)
          .join(', ');
        await conn.run(`COPY (SELECT ${select} FROM ${spec.from}) TO ${quoteLiteral(file(table))} (FORMAT parquet)`);
      }
    });
  } finally {
    db.closeSync();
  }
  return { dir, manifest, file };
}
