/**
 * Golden report counts: the default demo, generated and loaded with the real loader, must precompute
 * exactly the all/added/removed counts committed in fixtures/golden/report-counts.json, and those counts must match
 * two oracles that share no code with the engine: the catalogue's filters run straight over the raw Parquet, the
 * crawl exports' and the imported sources' (helpers/report-oracle.ts) and the guide's own copy of its filters (scripts/fixtures/guide-reports.ts).
 * After a deliberate change, regenerate with `node --import tsx scripts/fixtures/write-golden.ts`.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../catalog/index.ts';
import type { RemovalCounts } from '../../catalog/removal-reasons.ts';
import {
  readGoldenFile,
  readReportCounts,
  type GoldenCount,
  type GoldenCounts,
} from '../../scripts/fixtures/golden.ts';
import { guideReports, reportHistories } from '../../scripts/fixtures/guide-reports.ts';
import { expandFilter } from '../catalog/index.ts';
import { openDatabase } from '../db/duckdb.ts';
import { openSignedInApp, post, tempDir, type SignedInApp } from './auth-fixture.ts';
import { loadedDemo, type LoadedDemoFixture } from './helpers/demo-fixtures.ts';
import { oracleCounts, readOracleCrawls } from './helpers/report-oracle.ts';

const SUMMARY = '/api/technical-health-check/report/get-summary';

let demo: LoadedDemoFixture | undefined;
let engine: GoldenCounts = {};
const golden = readGoldenFile();

const show = (c: GoldenCount | undefined): string =>
  c ? `all ${c.all}, added ${c.added}, removed ${c.removed}` : 'missing';

/** One line per (website, crawl, report) whose counts differ, naming all three. */
function differences(actual: GoldenCounts, expected: GoldenCounts, actualName: string, expectedName: string) {
  const lines: string[] = [];
  const keys = (a: object | undefined, b: object | undefined): string[] => [
    ...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]),
  ];
  for (const site of keys(actual, expected))
    for (const crawl of keys(actual[site], expected[site]))
      for (const report of keys(actual[site]?.[crawl], expected[site]?.[crawl])) {
        const a = actual[site]?.[crawl]?.[report];
        const e = expected[site]?.[crawl]?.[report];
        if (a?.all !== e?.all || a?.added !== e?.added || a?.removed !== e?.removed)
          lines.push(`${site} crawl ${crawl} ${report}: ${actualName} ${show(a)}; ${expectedName} ${show(e)}`);
      }
  return lines;
}

describe('golden report counts of the demo', () => {
  // The demo generated and loaded as scripts/fixtures/golden.ts's generateAndLoadDemo does, once per run for every
  // test that needs it (helpers/demo-fixtures.ts); the app below signs in on a copy, since it writes its app state.
  beforeAll(async () => {
    const cached = await loadedDemo();
    const dataDir = tempDir('thc-golden-data-');
    fs.cpSync(cached.dataDir, dataDir, { recursive: true });
    demo = { ...cached, dataDir };
    engine = await readReportCounts(demo.dataDir);
  }, 450_000);

  it('covers every report of every crawl of both demo websites', () => {
    expect(Object.keys(golden).sort()).toEqual(demo!.sites.map((s) => s.websiteId).sort());
    for (const [site, crawls] of Object.entries(golden))
      for (const [crawlId, reports] of Object.entries(crawls))
        expect(Object.keys(reports), `${site} crawl ${crawlId}`).toEqual(catalog.reports.map((r) => r.id).sort());
  });

  it('precomputes exactly the committed golden counts (all, added, removed)', () => {
    expect(differences(engine, golden, 'engine', 'golden')).toEqual([]);
  });

  it('agrees with the catalogue filters run over the raw Parquet (all, added, removed)', async () => {
    const oracle: GoldenCounts = {};
    const db = await openDatabase(':memory:', { threads: 4 });
    const conn = await db.connect();
    try {
      for (const site of demo!.sites) {
        const crawls = readOracleCrawls(site.crawlDirs, demo!.dataDir);
        for (const report of catalog.reports) {
          const counts = await oracleCounts(conn, report, crawls);
          crawls.forEach((crawl, i) => {
            ((oracle[site.websiteId] ??= {})[String(crawl.crawlId)] ??= {})[report.id] = counts[i]!;
          });
        }
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    expect(differences(engine, oracle, 'engine', 'Parquet oracle')).toEqual([]);
  });

  it("agrees with the guide's own filters where they mean the same as the catalogue's", async () => {
    const normalise = (filter: string): string => filter.replace(/\s+/g, ' ').trim();
    const comparable = new Set(
      guideReports
        .filter((g) => {
          const report = catalog.reports.find((r) => r.id === g.id);
          const filter = report && expandFilter(report.filter, catalog.constants.filterConstants);
          return filter !== undefined && normalise(filter) === normalise(g.filter) && !/\b(gsc|ga)_/.test(g.filter);
        })
        .map((g) => g.id),
    );
    // Today: everything but links/internal-disallowed, status-code/other and the analytics/search-console reports.
    expect(comparable.size).toBeGreaterThanOrEqual(45);
    const guide: GoldenCounts = {};
    const db = await openDatabase(':memory:', { threads: 4 });
    const conn = await db.connect();
    try {
      for (const site of demo!.sites) {
        const crawlIds = readOracleCrawls(site.crawlDirs, demo!.dataDir).map((c) => String(c.crawlId));
        for (const history of await reportHistories(conn, site.crawlDirs, demo!.dataDir)) {
          if (!comparable.has(history.id)) continue;
          crawlIds.forEach((crawlId, i) => {
            ((guide[site.websiteId] ??= {})[crawlId] ??= {})[history.id] = {
              all: history.counts[i]!,
              added: i === 0 ? 0 : history.added[i - 1]!,
              removed: i === 0 ? 0 : history.removed[i - 1]!,
            };
          });
        }
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    const comparableEngine: GoldenCounts = Object.fromEntries(
      Object.entries(engine).map(([site, crawls]) => [
        site,
        Object.fromEntries(
          Object.entries(crawls).map(([crawlId, reports]) => [
            crawlId,
            Object.fromEntries(Object.entries(reports).filter(([id]) => comparable.has(id))),
          ]),
        ),
      ]),
    );
    expect(differences(comparableEngine, guide, 'engine', 'guide filter')).toEqual([]);
  });

  it('exercises added, removed and empty reports', () => {
    const all = Object.values(golden).flatMap((crawls) => Object.values(crawls).flatMap((r) => Object.values(r)));
    expect(all.some((c) => c.added > 0)).toBe(true);
    expect(all.some((c) => c.removed > 0)).toBe(true);
    const newest = Object.values(golden).flatMap((crawls) => {
      const ids = Object.keys(crawls).map(Number);
      return Object.values(crawls[String(Math.max(...ids))]!);
    });
    expect(newest.some((c) => c.all === 0)).toBe(true);
    expect(newest.some((c) => c.all > 0)).toBe(true);
  });

  describe('through the API', () => {
    let signedIn: SignedInApp<'admin'>;

    beforeAll(async () => {
      signedIn = await openSignedInApp(demo!.dataDir, new Date().toISOString(), ['admin']);
    });

    afterAll(() => signedIn?.close());

    it('report/get-summary returns the golden counts of the newest crawl', async () => {
      const [websiteId, crawls] = Object.entries(golden)[0]!;
      const currentId = Math.max(...Object.keys(crawls).map(Number));
      const reports = crawls[String(currentId)]!;
      // The three reports with the most churn, so added and removed are not all zero.
      const picked = Object.entries(reports)
        .sort(([a, x], [b, y]) => y.added + y.removed - (x.added + x.removed) || a.localeCompare(b))
        .slice(0, 3);
      expect(picked.some(([, c]) => c.added > 0) && picked.some(([, c]) => c.removed > 0)).toBe(true);
      for (const [reportId, expected] of picked) {
        const response = await post(signedIn.app, SUMMARY, signedIn.sessions.admin, { websiteId, currentId, reportId });
        expect(response.statusCode, `${websiteId} crawl ${currentId} ${reportId}: ${response.body}`).toBe(200);
        const { differences } = response.json<{ differences: GoldenCount & { removedByReason: RemovalCounts } }>();
        const { removedByReason, ...counts } = differences;
        expect(counts, `${websiteId} crawl ${currentId} ${reportId}`).toEqual(expected);
        // Every removed row has one reason.
        const reasons = Object.values(removedByReason).reduce((a, b) => a + b, 0);
        expect(reasons, `${websiteId} crawl ${currentId} ${reportId} reasons`).toBe(expected.removed);
      }
    });
  });
});
