/**
 * The tables of the whole crawl, built in DuckDB from the row files the crawler streamed (crawl-records.ts): the
 * fetched pages with their indexability, click depth, DeepRank, link and canonical in-counts, duplicate sets,
 * redirect chains, the URLs each page names, and the link rows with both ends resolved. The contract's tables are
 * read from these (contract-tables.ts); the definitions are the demo generator's (scripts/fixtures/crawl-sql.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../db/duckdb.ts';
import {
  duckdbColumnsOf,
  EDGE_DEFAULTS,
  edgeColumns,
  imageColumns,
  LinkKind,
  nodeColumns,
  pageColumns,
  sitemapColumns,
  vitalColumns,
  type PageVitals,
} from './crawl-records.ts';
import { duplicateSetsSql, redirectChainsSql } from './derived-url-columns.ts';

/** What the tables are built with: a DuckDB connection, or one that also notes the statements (crawl-records.test.ts). */
export type SqlRunner = Pick<DuckDBConnection, 'run' | 'runAndReadAll'>;

const PR_ITERATIONS = 6;
const MAX_LEVELS = 10_000;

/**
 * The tables the urls table reads beside g, by the alias it reads them under and the column that finds a page's row.
 * Each is copied in g's row order, one row per page (pa_<alias>), so the urls table reads them by position.
 */
export const PAGE_ALIGNED = {
  r: ['reach', 'id'],
  nm: ['nm', 'id'],
  cin: ['cin', 'id'],
  dup: ['dup', 'id'],
  lc: ['lc', 'id'],
  rch: ['rch', 'id'],
  dr: ['dr', 'id'],
  vit: ['vit', 'url'],
} as const;

/** The aliases of the pages a urls row names, columns of nm. */
const NAMED = ['par', 'cu', 'chd', 'cht', 'pt', 'pd', 'pp', 'pb', 'fin'] as const;

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

const json = (file: string, columns: Record<string, string>): string =>
  `read_json(${quoteLiteral(file)}, format = 'newline_delimited', columns = {${Object.entries(columns)
    .map(([name, type]) => `${quoteLiteral(name)}: ${quoteLiteral(type)}`)
    .join(', ')}})`;

export async function buildCrawlTables(conn: SqlRunner, rows: CrawlRows): Promise<void> {
  await readRecords(conn, rows);
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
  await conn.run(`CREATE TABLE vit AS SELECT * FROM ${json(vitalsFile, duckdbColumnsOf(vitalColumns))}`);

  await clickDepth(conn, rows.startId);
  await deepRank(conn);
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

  await redirectChains(conn);
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
  await alignToPages(conn);
}

/**
 * The urls table joined g to eight tables in one statement: their hash tables all had to be held at once, and with
 * g's wide rows on the probe side they could not spill (out of memory at 256 MB for a 1M-page crawl). Here each is
 * joined alone to g's narrow keys and sorted into g's row order, both of which spill; the urls table then reads
 * them by position.
 */
async function alignToPages(conn: SqlRunner): Promise<void> {
  for (const [alias, [table, key]] of Object.entries(PAGE_ALIGNED)) {
    await conn.run(`CREATE TABLE pa_${alias} AS
      SELECT t.*, k.rid AS pg_rowid FROM (SELECT rowid AS rid, ${key} FROM g) k LEFT JOIN ${table} t ON t.${key} = k.${key}
      ORDER BY k.rid`);
    const misplaced = await conn.runAndReadAll(`SELECT count(*)::INTEGER FROM g POSITIONAL JOIN pa_${alias} a
      WHERE a.pg_rowid IS DISTINCT FROM g.rowid`);
    if (Number(misplaced.getRows()[0]?.[0]) !== 0) throw new Error(`pa_${alias} is not in the pages' order`);
  }
}

async function readRecords(conn: SqlRunner, rows: CrawlRows): Promise<void> {
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
}

async function clickDepth(conn: SqlRunner, startId: number): Promise<void> {
  // Click depth: breadth-first over every link kind from the start URL.
  await conn.run(`CREATE TABLE reach AS SELECT ${startId}::INTEGER AS id, 0::INTEGER AS lvl, NULL::INTEGER AS parent`);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const added = await conn.run(`INSERT INTO reach
      SELECT e.t, ${level + 1}, min(e.f) FROM e
      SEMI JOIN (SELECT id FROM reach WHERE lvl = ${level}) fr ON fr.id = e.f
      ANTI JOIN reach r ON r.id = e.t
      GROUP BY e.t`);
    if (added.rowsChanged === 0) break;
  }
}

async function deepRank(conn: SqlRunner): Promise<void> {
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
}

async function redirectChains(conn: SqlRunner): Promise<void> {
  await conn.run(`CREATE TABLE hop AS SELECT n.id, n.url, p.st, p.rd, p.rk FROM n LEFT JOIN p USING (id)`);
  await conn.run(
    `CREATE TABLE rch AS ${redirectChainsSql({
      pages: 'hop',
      next: 'rd',
      starts: 'SELECT id FROM g WHERE g.internal AND g.rd IS NOT NULL AND g.st IS NOT NULL',
      isJs: "coalesce(h.rk = 'js', false)",
      isMeta: "coalesce(h.rk = 'meta', false)",
    })}`,
  );
}
