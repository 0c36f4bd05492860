/**
 * The end of a crawl: DuckDB reads the row files the crawler streamed (nodes, pages, edges, images, sitemaps),
 * computes what needs the whole crawl (click depth, DeepRank, link and canonical in-counts, duplicate sets,
 * redirect chains, indexability) with the definitions of the demo generator (scripts/fixtures/crawl-sql.ts), and
 * writes the contract's Parquet tables and manifest. Files are built in a side directory and moved into the
 * export directory at the end, manifest last, so a failed export leaves no half-written export behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  MANIFEST_FILE,
  manifestSchema,
  parquetFileOf,
  type CrawledTableId,
  type Manifest,
} from '../../catalog/export-contract.ts';
import { dataWindowBefore } from '../../catalog/data-sources.ts';
import type { PartialReason } from '../../catalog/export-contract.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import type { PageVitals } from './crawl-options.ts';
import {
  duckdbColumnsOf,
  EDGE_DEFAULTS,
  edgeColumns,
  imageColumns,
  nodeColumns,
  pageColumns,
  sitemapColumns,
} from './crawl-records.ts';
import { openGraphFields, schemaTypes } from './parsed-page.ts';
import { derivedUrlColumns, duplicateSetsSql } from './derived-url-columns.ts';
import { projectContract } from './project-contract.ts';
import { renderedLinkExpressions, renderedUrlExpressions } from './render/rendered-export.ts';

export const CRAWLER_NAME = 'technical-health-check';
/** Images above this size (kB) go to the large_images extraction. */
export const LARGE_IMAGE_KB = 100;
const PR_ITERATIONS = 6;
/** DuckDB's share of the crawler's memory at the end of a crawl; sorts and joins beyond it spill to the work directory. */
const EXPORT_MEMORY_LIMIT = '256MB';
/** Smaller row groups than DuckDB's default keep the Parquet writer's buffers small. */
const ROW_GROUP_SIZE = 16_384;
const MAX_LEVELS = 10_000;

/**
 * Link kinds, as numbered in the edge rows (linkType below names them). Resources (stylesheets, scripts, icons)
 * are followed and count for click depth, but are not links of the page: they stay out of the link tables.
 */
export const LinkKind = { href: 0, image: 1, canonical: 2, hreflang: 3, redirect: 4, resource: 5 } as const;

export interface CrawlRows {
  workDir: string;
  nodes: string;
  pages: string;
  edges: string;
  images: string;
  sitemaps: string;
  /** `--render N`: the first N indexable pages (as the urls table has them) are handed to `render`. */
  renderCount: number;
  render: (urls: string[]) => Promise<PageVitals[]>;
  startId: number;
}

export interface ExportTarget {
  outDir: string;
  websiteId: string;
  crawlId: number;
  startUrl: string;
  crawledAt: Date;
  /** The data window's days before the crawl date (default DATA_WINDOW_DAYS). */
  dataWindowDays?: number | undefined;
  stoppedEarly: boolean;
  partialReason: PartialReason | undefined;
  /** Filled with each path put into place (the export directory when created here, then each file). */
  written: string[];
  /** Called after each step of the export (the tables built, each Parquet file written). */
  onStep?: () => void;
}

export function crawlerVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

const json = (file: string, columns: Record<string, string>): string =>
  `read_json(${quoteLiteral(file)}, format = 'newline_delimited', columns = {${Object.entries(columns)
    .map(([name, type]) => `${quoteLiteral(name)}: ${quoteLiteral(type)}`)
    .join(', ')}})`;

export async function exportCrawl(
  rows: CrawlRows,
  target: ExportTarget,
): Promise<{ manifest: Manifest; tables: Record<string, number> }> {
  const manifest = manifestSchema.parse({
    websiteId: target.websiteId,
    crawlId: target.crawlId,
    crawledAt: target.crawledAt.toISOString(),
    ...dataWindowBefore(target.crawledAt, target.dataWindowDays),
    startUrl: target.startUrl,
    crawler: { name: CRAWLER_NAME, version: crawlerVersion() },
    ...(target.stoppedEarly ? { stoppedEarly: true } : {}),
    ...(target.partialReason ? { partialReason: target.partialReason } : {}),
  });
  const side = path.join(rows.workDir, 'export');
  fs.mkdirSync(side, { recursive: true });

  // A database file rather than memory: the crawl's tables then stay on disk beyond the memory limit.
  const db = await openDatabase(path.join(rows.workDir, 'export.duckdb'), {
    threads: 1,
    memoryLimit: EXPORT_MEMORY_LIMIT,
  });
  const conn = await db.connect();
  const tables: Record<string, number> = {};
  try {
    await conn.run(`SET temp_directory = ${quoteLiteral(path.join(rows.workDir, 'duckdb.tmp'))}`);
    await conn.run('SET preserve_insertion_order = false');
    await buildTables(conn, rows);
    target.onStep?.();
    // Written to the database file, the tables' blocks can leave memory while the Parquet files are written.
    await conn.run('CHECKPOINT');
    for (const [table, sql] of Object.entries(tableQueries())) {
      const file = path.join(side, parquetFileOf(table));
      await conn.run(`COPY (${sql}) TO ${quoteLiteral(file)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
      const reader = await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM read_parquet(${quoteLiteral(file)})`);
      tables[table] = Number(reader.getRows()[0]?.[0] ?? 0);
      target.onStep?.();
    }
  } finally {
    conn.closeSync();
    db.closeSync();
  }

  if (!fs.existsSync(target.outDir)) {
    fs.mkdirSync(target.outDir, { recursive: true });
    target.written.push(target.outDir);
  }
  const manifestFile = path.join(target.outDir, MANIFEST_FILE);
  fs.rmSync(manifestFile, { force: true });
  for (const table of Object.keys(tables)) {
    const file = path.join(target.outDir, parquetFileOf(table));
    fs.renameSync(path.join(side, parquetFileOf(table)), file);
    target.written.push(file);
  }
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  target.written.push(manifestFile);
  return { manifest, tables };
}

async function buildTables(conn: DuckDBConnection, rows: CrawlRows): Promise<void> {
  const rowTables: [string, string, Record<string, string>, Record<string, string>?][] = [
    ['n', rows.nodes, duckdbColumnsOf(nodeColumns)],
    ['p', rows.pages, duckdbColumnsOf(pageColumns)],
    ['e', rows.edges, duckdbColumnsOf(edgeColumns), EDGE_DEFAULTS],
    ['smf', rows.sitemaps, duckdbColumnsOf(sitemapColumns)],
  ];
  for (const [table, file, columns, defaults = {}] of rowTables) {
    const select = Object.keys(columns).map((c) => (c in defaults ? `coalesce(${c}, ${defaults[c]}) AS ${c}` : c));
    await conn.run(`CREATE TABLE ${table} AS SELECT ${select.join(', ')} FROM ${json(file, columns)}`);
  }
  await conn.run(
    `CREATE TABLE img AS SELECT f, src, bool_or(ma) AS ma FROM ${json(rows.images, duckdbColumnsOf(imageColumns))} GROUP BY f, src`,
  );

  // Every fetched URL with its page; canon is NULL when canonicals disagree (HTML and header, or two HTML tags).
  await conn.run(`CREATE TABLE g AS
    SELECT n.id, n.url, n.pl = 'i' AS internal, n.fa, n.sm, p.* EXCLUDE (id),
      coalesce(p.st = 200 AND p.html, false) AS content,
      CASE WHEN coalesce(p.cc, false) OR (p.cm IS NOT NULL AND p.ch IS NOT NULL AND p.cm <> p.ch) THEN NULL
        ELSE coalesce(p.cm, p.ch) END AS canon
    FROM n JOIN p USING (id) WHERE n.fe AND n.pl <> 'o'`);
  await conn.run(`ALTER TABLE g ADD COLUMN indexable BOOLEAN`);
  await conn.run(`UPDATE g SET indexable = internal AND content AND rd IS NULL AND NOT coalesce(mn, false)
    AND NOT coalesce(hn, false) AND (canon IS NULL OR canon = id)`);

  // Rendered: the first indexable pages found, by the same definition as the urls table's, so their vitals land there.
  const indexable = await conn.runAndReadAll(`SELECT url FROM g WHERE indexable ORDER BY id LIMIT ${rows.renderCount}`);
  const vitals = await rows.render(indexable.getRows().map(([url]) => String(url)));
  const vitalsFile = path.join(rows.workDir, 'vitals.ndjson');
  fs.writeFileSync(vitalsFile, vitals.map((v) => JSON.stringify(v)).join('\n'));
  await conn.run(
    `CREATE TABLE vit AS SELECT * FROM ${json(vitalsFile, {
      url: 'VARCHAR',
      cls: 'DOUBLE',
      dcl: 'DOUBLE',
      fcp: 'DOUBLE',
      lcp: 'DOUBLE',
      ttfb: 'DOUBLE',
      tti: 'DOUBLE',
    })}`,
  );

  // Click depth: breadth-first over every link kind from the start URL.
  await conn.run(
    `CREATE TABLE reach AS SELECT ${rows.startId}::INTEGER AS id, 0::INTEGER AS lvl, NULL::INTEGER AS parent`,
  );
  for (let level = 0; level < MAX_LEVELS; level++) {
    const added = await conn.run(`INSERT INTO reach
      SELECT e.t, ${level + 1}, min(e.f) FROM e
      SEMI JOIN (SELECT id FROM reach WHERE lvl = ${level}) fr ON fr.id = e.f
      ANTI JOIN reach r ON r.id = e.t
      GROUP BY e.t`);
    if (added.rowsChanged === 0) break;
  }

  // DeepRank: PageRank (d = 0.85) over internal href and redirect links of the reached pages, log-scaled to 0-10.
  await conn.run(`CREATE TABLE prn AS SELECT g.id FROM g SEMI JOIN reach r ON r.id = g.id WHERE g.internal`);
  await conn.run(`CREATE TABLE prw AS
    WITH pre AS (SELECT e.f, e.t FROM e SEMI JOIN prn a ON a.id = e.f SEMI JOIN prn b ON b.id = e.t WHERE e.k IN (0, 4)),
         od AS (SELECT f, count(*)::DOUBLE AS od FROM pre GROUP BY f)
    SELECT pre.f, pre.t, od.od FROM pre JOIN od USING (f)`);
  await conn.run(`CREATE TABLE pr AS SELECT id, 1.0 / (SELECT count(*) FROM prn) AS v FROM prn`);
  for (let i = 0; i < PR_ITERATIONS; i++) {
    await conn.run(`CREATE OR REPLACE TABLE pr AS
      SELECT n.id, 0.15 / (SELECT count(*) FROM prn) + 0.85 * coalesce(s.v, 0) AS v
      FROM prn n LEFT JOIN (SELECT e.t, sum(p.v / e.od) AS v FROM prw e JOIN pr p ON p.id = e.f GROUP BY e.t) s ON s.t = n.id`);
  }
  await conn.run(`CREATE TABLE dr AS
    SELECT id, round(10 * (ln(v) - mn) / CASE WHEN mx > mn THEN mx - mn ELSE 1 END, 2)::DOUBLE AS deeprank
    FROM pr, (SELECT ln(min(v)) AS mn, ln(max(v)) AS mx FROM pr)`);

  await conn.run(`CREATE TABLE lc AS
    SELECT id, sum(lin)::INTEGER AS links_in, sum(lout)::INTEGER AS links_out, sum(hin)::INTEGER AS hl_in,
      sum(hout)::INTEGER AS hl_out
    FROM (
      SELECT t AS id, CASE WHEN k = 0 THEN ic ELSE 0 END AS lin, 0 AS lout, CASE WHEN k = 3 THEN 1 ELSE 0 END AS hin,
        0 AS hout FROM e
      UNION ALL
      SELECT f, 0, CASE WHEN k = 0 THEN ic ELSE 0 END, 0, CASE WHEN k = 3 THEN 1 ELSE 0 END FROM e
    ) GROUP BY id`);
  await conn.run(`CREATE TABLE cin AS
    SELECT canon AS id, count(*)::INTEGER AS n FROM g WHERE canon IS NOT NULL AND canon <> id GROUP BY canon`);

  await conn.run(
    `CREATE TABLE dup AS ${duplicateSetsSql(`
    SELECT g.id, g.ti AS title, g.de AS description, g.bh AS body, coalesce(dr.deeprank, 0) AS dr
    FROM g LEFT JOIN dr ON dr.id = g.id WHERE g.indexable`)}`,
  );

  // Redirect chains: walk the redirects until a non-redirect, a repeat (loop) or the hop limit.
  await conn.run(`CREATE TABLE hop AS SELECT n.id, n.url, p.st, p.rd, p.rk FROM n LEFT JOIN p USING (id)`);
  await conn.run(`CREATE TABLE rch AS
    WITH RECURSIVE w(start, step, cur, seen) AS (
      SELECT id, 0, id, [id] FROM g WHERE g.internal AND g.rd IS NOT NULL AND g.st IS NOT NULL
      UNION ALL
      SELECT w.start, w.step + 1, h.rd, list_append(w.seen, h.rd)
      FROM w JOIN hop h ON h.id = w.cur
      WHERE h.rd IS NOT NULL AND h.st IS NOT NULL AND w.step < 4
        AND NOT list_contains(w.seen[1:len(w.seen) - 1], w.cur)
    ),
    hops AS (
      SELECT w.start, w.step, w.cur, list_contains(w.seen[1:len(w.seen) - 1], w.cur) AS closes,
        h.url, h.st, h.rk, nx.url AS next_url, max(w.step) OVER (PARTITION BY w.start) AS last
      FROM w JOIN hop h ON h.id = w.cur LEFT JOIN hop nx ON nx.id = h.rd
    )
    SELECT start AS id,
      list({'url': url, 'status_code': st, 'redirects_to': next_url, 'is_js_redirect': coalesce(rk = 'js', false),
            'is_meta_redirect': coalesce(rk = 'meta', false)} ORDER BY step) FILTER (WHERE step < last) AS chain,
      count(*) FILTER (WHERE step < last)::INTEGER AS hops,
      arg_max(cur, step) AS final_id,
      bool_or(closes) AS loop
    FROM hops GROUP BY start`);

  // The URLs each urls row names besides its own (parent, canonicals, duplicate primaries, chain end), resolved in
  // one join and one aggregate that both spill, rather than a join per name whose hash tables all stay in memory.
  await conn.run(`CREATE TABLE nm AS
    WITH ids AS (
      SELECT g.id, coalesce(r.parent, g.fa) AS par, g.canon AS cu, g.ch AS chd, g.cm AS cht, dup.t_p AS pt,
        dup.d_p AS pd, dup.p_p AS pp, dup.b_p AS pb, rch.final_id AS fin
      FROM g LEFT JOIN reach r ON r.id = g.id LEFT JOIN dup ON dup.id = g.id LEFT JOIN rch ON rch.id = g.id
    ),
    named AS (UNPIVOT ids ON ${NAMED.join(', ')} INTO NAME role VALUE ref)
    SELECT named.id, ${NAMED.map((alias) => `any_value(h.url) FILTER (WHERE role = '${alias}') AS ${alias}`).join(', ')},
      any_value(h.st) FILTER (WHERE role = 'fin') AS fin_st
    FROM named JOIN hop h ON h.id = named.ref GROUP BY named.id`);

  // Link rows with both ends resolved, shared by links and unique_links.
  await conn.run(`CREATE TABLE le AS
    SELECT e.*, gf.url AS f_url, gf.rn AS f_rn, gf.st AS f_st, gf.ti AS f_ti, coalesce(df.deeprank, 0) AS f_dr,
      nt.url AS t_url, nt.pl = 'i' AS t_internal, gt.st AS t_st, gt.ti AS t_ti, dt.deeprank AS t_dr,
      coalesce(nt.pl = 'i' AND gt.rd IS NOT NULL AND gt.st IS NOT NULL, false)
        OR coalesce(gt.st BETWEEN 300 AND 399, false) AS t_redirect,
      NOT nt.fe AND nt.rr IS NOT NULL AS t_restricted, CASE WHEN NOT nt.fe THEN nt.rr END AS t_reason
    FROM e JOIN g gf ON gf.id = e.f JOIN n nt ON nt.id = e.t LEFT JOIN g gt ON gt.id = e.t
      LEFT JOIN dr df ON df.id = e.f LEFT JOIN dr dt ON dt.id = e.t
    WHERE e.k <> ${LinkKind.resource}`);
}

/** The crawl fetched at least one sitemap (a missing /sitemap.xml, a 404 or a fetch error is no sitemap). */
const HAS_SITEMAP = '(SELECT count(*) > 0 FROM smf WHERE http_status_code BETWEEN 200 AND 299 AND fetch_error IS NULL)';

/** The aliases of the pages a urls row names, columns of nm. */
const NAMED = ['par', 'cu', 'chd', 'cht', 'pt', 'pd', 'pp', 'pb', 'fin'] as const;

const linkType = `['href', 'image', 'canonical', 'hreflang', 'redirect'][k + 1]`;
const directiveFlag = (column: string): string =>
  `CASE WHEN g.internal AND g.st IS NOT NULL THEN coalesce(g.${column}, false) END`;
const pageFlag = (column: string): string => `CASE WHEN g.html THEN coalesce(g.${column}, false) END`;

function tableQueries(): Record<CrawledTableId, string> {
  const internal = 'g.internal';
  const urls: Record<string, string> = {
    url: 'g.url',
    http_status_code: 'g.st',
    indexable: 'coalesce(g.indexable, false)',
    internal,
    found_in_web_crawl: 'r.id IS NOT NULL',
    // Unknown (NULL) when no sitemap could be fetched: the crawl then says "no sitemap found" once, rather than
    // listing every page as missing from sitemaps.
    found_in_sitemap: `CASE WHEN ${internal} AND ${HAS_SITEMAP} THEN g.sm IS NOT NULL END`,
    found_at_sitemap: 'g.sm',
    found_at_url: 'nm.par',
    page_title: 'g.ti',
    page_title_length: 'length(g.ti)',
    description: 'g.de',
    description_length: 'length(g.de)',
    h1_count: 'len(g.h1)',
    h1_length: 'length(g.h1[1])',
    h1_tag: 'g.h1',
    h2_tag: 'g.h2',
    h3_tag: 'g.h3',
    content_size: 'g.cs',
    word_count: 'g.wc',
    html_size: 'CASE WHEN g.html THEN g.sz END',
    ...derivedUrlColumns(internal, (alias, column) => (column === 'st' ? `nm.${alias}_st` : `nm.${alias}`)),
    meta_nofollow: pageFlag('mf'),
    meta_noindex: pageFlag('mn'),
    header_noindex: directiveFlag('hn'),
    header_nofollow: directiveFlag('hf'),
    header_noarchive: directiveFlag('ha'),
    header_nosnippet: directiveFlag('hs'),
    header_noimageindex: directiveFlag('hi'),
    header_notranslate: directiveFlag('ht'),
    has_structured_data: 'CASE WHEN g.html THEN coalesce(g.sd, false) END',
    ...Object.fromEntries(schemaTypes.map((t) => [`${t}_schema_count`, `g.sc.${t}`])),
    ...Object.fromEntries(openGraphFields.map((f) => [`og_${f}`, `g.og.${f}`])),
    fetch_time: `CASE WHEN ${internal} THEN g.ft END`,
    fetch_error: 'g.err',
    performance_cls: 'vit.cls',
    performance_dcl: 'vit.dcl',
    performance_fcp: 'vit.fcp',
    performance_lcp: 'vit.lcp',
    performance_ttfb: 'vit.ttfb',
    performance_tti: 'vit.tti',
    head_tags_in_body_count: 'CASE WHEN g.html THEN g.hib END',
    body_tags_in_head_count: 'CASE WHEN g.html THEN g.bih END',
    ...renderedUrlExpressions(),
  };
  const links: Record<string, string> = {
    url_from: 'f_url',
    url_to: 't_url',
    internal: 't_internal',
    url_from_status_code: 'f_st',
    url_to_status_code: 't_st',
    url_from_title: 'f_ti',
    url_to_title: 't_ti',
    url_from_https: "starts_with(f_url, 'https:')",
    url_to_https: "starts_with(t_url, 'https:')",
    url_from_deeprank: 'f_dr',
    url_to_deeprank: 'CASE WHEN t_internal THEN coalesce(t_dr, 0) END',
    hreflang: 'hl',
    attr_rel: 'r',
    link_type: linkType,
    anchor_text: 'a',
    nofollow: 'nf',
    instance_count: 'ic',
    is_redirect: 't_redirect',
    is_restricted: 't_restricted',
    restricted_reason: 't_reason',
    has_image_link: 'im',
    has_image_alt_text: 'CASE WHEN im THEN al END',
    ...renderedLinkExpressions(),
  };
  const uniqueLinks: Record<string, string> = {
    url_to: 't_url',
    anchor_text: 'a',
    primary_url_from: 'pr.f_url',
    internal: 't_internal',
    primary_url_from_status_code: 'pr.f_st',
    url_from_https: "starts_with(pr.f_url, 'https:')",
    url_to_https: "starts_with(t_url, 'https:')",
    url_to_status_code: 't_st',
    url_to_title: 't_ti',
    url_to_deeprank: 'CASE WHEN t_internal THEN coalesce(t_dr, 0) END',
    link_type: `['href', 'image', 'canonical', 'hreflang', 'redirect'][pr.k + 1]`,
    instance_count: 'n',
    nofollow: 'pr.nf',
    is_redirect: 't_redirect',
    is_restricted: 't_restricted',
    has_image_link: 'pr.im',
    has_image_alt_text: 'CASE WHEN pr.im THEN pr.al END',
  };
  return {
    urls: `SELECT ${projectContract('urls', urls)}
      FROM g
      LEFT JOIN reach r ON r.id = g.id
      LEFT JOIN nm ON nm.id = g.id
      LEFT JOIN cin ON cin.id = g.id
      LEFT JOIN dup ON dup.id = g.id
      LEFT JOIN lc ON lc.id = g.id
      LEFT JOIN rch ON rch.id = g.id
      LEFT JOIN dr ON dr.id = g.id
      LEFT JOIN vit ON vit.url = g.url`,
    // The link tables are the big ones: written unsorted, as sorting them would take memory by the link count.
    links: `SELECT ${projectContract('links', links)} FROM le`,
    // The primary link row joined back by its page, rather than carried through the aggregate, which then spills.
    unique_links: `SELECT ${projectContract('unique_links', uniqueLinks)}
      FROM (SELECT t AS ut, a AS ua, count(*)::INTEGER AS n, min(f) AS pf FROM le GROUP BY t, a) u
      JOIN le pr ON pr.t = u.ut AND pr.a = u.ua AND pr.f = u.pf`,
    sitemaps: `SELECT ${projectContract('sitemaps', {
      url: 'url',
      sitemap_type: 'sitemap_type',
      format: 'format',
      found_at: 'found_at',
      links_count: 'links_count',
      url_count: 'url_count',
      fetch_error: 'fetch_error',
      parse_error: 'parse_error',
      http_status_code: 'http_status_code',
      restricted_reason: 'restricted_reason',
      file_size: 'file_size',
    })} FROM smf ORDER BY url`,
    uncrawled_urls: `SELECT ${projectContract('uncrawled_urls', {
      url: 'n.url',
      restricted_reason: 'n.rr',
      found_at_url: 'coalesce(fa.url, n.sm)',
    })} FROM n LEFT JOIN n fa ON fa.id = n.fa
      WHERE NOT n.fe AND n.rr IS NOT NULL AND n.pl <> 'e' ORDER BY n.url`,
    large_images: `SELECT ${projectContract('large_images', {
      url: 'pg.url',
      imgSrc: 'img.src',
      imgSize: 'round(im.sz / 1024, 1)',
    })} FROM img JOIN n pg ON pg.id = img.f JOIN n ni ON ni.url = img.src JOIN p im ON im.id = ni.id
      WHERE im.sz > ${LARGE_IMAGE_KB} * 1024 ORDER BY pg.url, img.src`,
    images_missing_alt: `SELECT ${projectContract('images_missing_alt', { url: 'pg.url', imgSrc: 'img.src' })}
      FROM img JOIN n pg ON pg.id = img.f WHERE img.ma ORDER BY pg.url, img.src`,
  };
}
