/**
 * The machinery of report-fires.test.ts (ARCHITECTURE habit 9): cases of a row that fires and a near miss per report,
 * planted in one crawl, precomputed, and each report asked for its own URLs. Also the html-page rule's near misses:
 * every 2xx row that fires, answered as a file instead of a page.
 */
import fs from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportTableId } from '../../../catalog/export-contract.ts';
import { PAGE_CONTENT_COLUMNS, type ReportDefinition } from '../../../catalog/schema.ts';
import { openDatabase } from '../../db/duckdb.ts';
import type { CrawlTarget } from '../../engine/compile.ts';
import { ReportEngine } from '../../engine/engine.ts';
import { shapeOf } from '../../engine/report-shape.ts';
import { reportRowUrls } from './report-rows.ts';
import { makeTempDataDir, writeCrawlToStore, type FixtureRow, type FixtureTables } from './make-store.ts';
import { openCrawlRegistry } from '../../source-data/mid-refresh.ts';

export const SITE = 'fires';
export const HOME = `https://${SITE}.example`;
export const ELSEWHERE = 'https://elsewhere.example';
export const DATA_START = '2025-01-01';
export const DATA_END = '2025-01-28';

/** Stands for the URL of the case's `fires` or `nearMiss` row in any string value. */
export const FIRES = '{fires}';
export const NEAR = '{near}';

export interface Side {
  /** Columns of the report's source table (or of `table`), over the table's baseline row. */
  row?: FixtureRow;
  /** The row goes into this table instead of the report's own: for reports whose filter is TRUE. */
  table?: ExportTableId;
  /** Origin of the URL (default the website's own). */
  origin?: string;
  /** Scheme of the URL, for http:// targets. */
  scheme?: 'http';
  /** Search console / analytics rows of the URL (date, metrics); the url is filled in. */
  searchConsole?: readonly FixtureRow[];
  analytics?: readonly FixtureRow[];
  /** Landing page rows of ads platform one (Google Ads) and two (Microsoft Advertising). */
  adsOne?: readonly FixtureRow[];
  adsTwo?: readonly FixtureRow[];
}

export interface Case {
  fires: Side;
  /** Just across the decisive boundary. */
  nearMiss: Side;
  /** Other branches of an OR, and the other edge of a range. */
  moreFires?: readonly Side[];
  /** Just across the other clauses' boundaries, where the data can be consistent. */
  moreNearMisses?: readonly Side[];
}

/** Required columns of each source table, for a healthy, unremarkable row. */
const baselines: Partial<Record<ExportTableId, FixtureRow>> = {
  urls: { http_status_code: 200, indexable: true, internal: true, found_in_web_crawl: true, html_size: 24_000 },
  links: { url_from: `${HOME}/`, internal: true },
  unique_links: { anchor_text: 'anchor', primary_url_from: `${HOME}/`, internal: true },
  sitemaps: {},
  uncrawled_urls: { found_at_url: `${HOME}/` },
};

/** The column holding a row's URL: the one 'URLs containing' filters on. */
const urlColumnOf = (table: ExportTableId): string =>
  table === 'links' || table === 'unique_links' ? 'url_to' : 'url';

const sides = ['fires', 'nearMiss'] as const;
type SideName = (typeof sides)[number];
type Names = Record<SideName, readonly string[]>;

function caseUrl(report: ReportDefinition, name: string, spec: Side): string {
  const origin = spec.scheme === 'http' ? HOME.replace('https:', 'http:') : (spec.origin ?? HOME);
  return `${origin}/${report.id}/${name}`;
}

/** A case's rows by side: the main one first. */
const sideRows = (c: Case): Record<SideName, readonly Side[]> => ({
  fires: [c.fires, ...(c.moreFires ?? [])],
  nearMiss: [c.nearMiss, ...(c.moreNearMisses ?? [])],
});

/** The cases' URLs by report id, and every row of every case in one set of tables. */
function buildCrawl(
  reportsToPlant: readonly ReportDefinition[],
  casesById: Readonly<Record<string, Case>>,
): { tables: FixtureTables; urls: Map<string, Names> } {
  const rows = new Map<ExportTableId, FixtureRow[]>();
  const add = (table: ExportTableId, row: FixtureRow): void => {
    rows.set(table, [...(rows.get(table) ?? []), row]);
  };
  const urls = new Map<string, Names>();
  for (const report of reportsToPlant) {
    const c = casesById[report.id];
    if (!c) continue;
    const specs = sideRows(c);
    const nameOf = (side: SideName, i: number): string =>
      `${side === 'fires' ? 'fires' : 'near'}${i === 0 ? '' : `-${i + 1}`}`;
    const names: Names = {
      fires: specs.fires.map((spec, i) => caseUrl(report, nameOf('fires', i), spec)),
      nearMiss: specs.nearMiss.map((spec, i) => caseUrl(report, nameOf('nearMiss', i), spec)),
    };
    urls.set(report.id, names);
    const fill = (value: unknown): unknown => {
      if (value === FIRES) return names.fires[0];
      if (value === NEAR) return names.nearMiss[0];
      if (Array.isArray(value)) return value.map(fill);
      if (value !== null && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
      return value;
    };
    for (const side of sides)
      specs[side].forEach((spec, i) => {
        const url = names[side][i]!;
        const table = spec.table ?? report.tableId;
        add(table, fill({ ...baselines[table], ...spec.row, [urlColumnOf(table)]: url }) as FixtureRow);
        for (const r of spec.searchConsole ?? []) add('search_console', { ...r, url });
        for (const r of spec.analytics ?? []) add('analytics', { ...r, url });
        for (const r of spec.adsOne ?? []) add('ads_one', { ...r, url });
        for (const r of spec.adsTwo ?? []) add('ads_two', { ...r, url });
      });
  }
  return { tables: Object.fromEntries(rows), urls };
}

/**
 * Plants the cases of `reportsToCheck` in one crawl, precomputes exactly those reports, and asks each for its own
 * URLs from the precomputed rows and from the live relation.
 */
export function describeFiresAndNearMisses(
  title: string,
  reportsToCheck: readonly ReportDefinition[],
  casesById: Readonly<Record<string, Case>>,
): void {
  describe(title, () => {
    const { tables, urls } = buildCrawl(reportsToCheck, casesById);
    let dataDir: string;
    let db: DuckDBInstance;
    let engine: ReportEngine;
    let precomputed: CrawlTarget;
    let live: CrawlTarget;

    beforeAll(async () => {
      dataDir = makeTempDataDir('thc-fires-');
      const crawl = { websiteId: SITE, crawlId: 1, dataStart: DATA_START, dataEnd: DATA_END, tables };
      await writeCrawlToStore(dataDir, crawl, { reports: reportsToCheck });
      db = await openDatabase();
      const registry = await openCrawlRegistry(dataDir, db);
      engine = new ReportEngine(db, registry);
      precomputed = await engine.target(registry.crawls(SITE)[0]!);
      // The same crawl without its precomputed state: rows come from the live relation.
      live = { ...precomputed, precomputed: new Map() };
    });

    afterAll(() => {
      engine?.dispose();
      db?.closeSync();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('has a case for exactly these reports', () => {
      expect(Object.keys(casesById).sort()).toEqual(reportsToCheck.map((r) => r.id).sort());
    });

    it('precomputed every report from the current definition', () => {
      for (const report of reportsToCheck)
        expect(precomputed.precomputed.get(report.id)?.fingerprint, report.id).toBe(shapeOf(report).fingerprint);
    });

    for (const [mode, pick] of [
      ['precomputed rows', () => precomputed],
      ['live rows', () => live],
    ] as const)
      describe(mode, () => {
        it.each(reportsToCheck.map((r) => [r.id, r] as const))('%s', async (id, report) => {
          const found = await reportRowUrls(engine, report, pick());
          const { fires, nearMiss } = urls.get(id)!;
          for (const url of fires) expect(found, `${id}: ${url} fires`).toContain(url);
          for (const url of nearMiss) expect(found, `${id}: ${url} is a near miss`).not.toContain(url);
        });
      });
  });
}

/**
 * The html-page rule, for a report on urls: each of its rows that fires with a 2xx status, answered as a file (no HTML
 * size, title or word count: a stylesheet, an image, a PDF), is one more near miss of an html report and one more row
 * that fires for a report of any content type. No filter reads those columns (report-fires.test.ts checks), so the
 * file matches the filter as the page does: only the rule keeps it out.
 */
export function withFileTwins(report: ReportDefinition, c: Case): Case {
  if (report.tableId !== 'urls') return c;
  const statusOf = (side: Side): unknown =>
    side.row && 'http_status_code' in side.row ? side.row.http_status_code : baselines.urls?.http_status_code;
  const twins = [c.fires, ...(c.moreFires ?? [])]
    .filter((side) => side.table === undefined && isSuccess(statusOf(side)))
    .map((side) => ({
      ...side,
      row: { ...side.row, ...Object.fromEntries(PAGE_CONTENT_COLUMNS.map((k) => [k, null])) },
    }));
  return report.contentType === 'html'
    ? { ...c, moreNearMisses: [...(c.moreNearMisses ?? []), ...twins] }
    : { ...c, moreFires: [...(c.moreFires ?? []), ...twins] };
}

const isSuccess = (status: unknown): boolean => typeof status === 'number' && status >= 200 && status <= 299;
