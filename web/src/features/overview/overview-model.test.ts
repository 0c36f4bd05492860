/**
 * The health score over the demo websites' real report counts (fixtures/golden/report-counts.json, which
 * service/test/golden-counts.test.ts keeps equal to what the demo generator and loader produce).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportDefinition } from '../../../../catalog/schema.ts';
import { visibleReports } from '../../lib/catalog.ts';
import type { ReportMetric } from '../../lib/overview-metrics.ts';
import {
  SEVERITY_WEIGHTS,
  URLS_REPORT_ID,
  hasStakes,
  headline,
  healthScoreHint,
  healthScoreOf,
  orderRows,
  overviewRows,
  rowsOfSeverity,
} from './overview-model.ts';

type GoldenCounts = Record<string, Record<string, Record<string, { all: number; added: number; removed: number }>>>;

const golden = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../../fixtures/golden/report-counts.json'), 'utf8'),
) as GoldenCounts;

const SITES = { 'northwind-outfitters': { isHreflang: false }, 'alpine-travel': { isHreflang: true } } as const;

function metricsOf(reports: readonly ReportDefinition[], counts: GoldenCounts[string][string]) {
  return new Map<string, ReportMetric>(
    reports.map((r) => {
      const c = counts[r.id] ?? { all: 0, added: 0, removed: 0 };
      const metric = { reportId: r.id, severity: r.severity, rank: 0, rows: c.all, added: c.added, removed: c.removed };
      return [r.id, metric];
    }),
  );
}

/** Weighted issues per URL, computed here from the counts without the model. */
function weightedPerUrl(reports: readonly ReportDefinition[], counts: GoldenCounts[string][string]): number {
  let weighted = 0;
  for (const r of reports)
    if (r.severity !== 'NONE') weighted += SEVERITY_WEIGHTS[r.severity] * (counts[r.id]?.all ?? 0);
  return weighted / counts[URLS_REPORT_ID]!.all;
}

function compare(site: keyof typeof SITES, currentId: number, comparisonId: number) {
  const reports = visibleReports(SITES[site]);
  const crawls = golden[site]!;
  const now = crawls[String(currentId)]!;
  const before = crawls[String(comparisonId)]!;
  return {
    totals: headline(reports, metricsOf(reports, now), metricsOf(reports, before)),
    weightedChange: weightedPerUrl(reports, now) - weightedPerUrl(reports, before),
  };
}

describe('health score', () => {
  it('follows the formula: 100 for a clean crawl, 50 at one weighted issue per URL', () => {
    expect(healthScoreOf(0, 500)).toBe(100);
    expect(healthScoreOf(500, 500)).toBe(50);
    expect(healthScoreOf(1500, 500)).toBe(25);
    expect(healthScoreOf(3, 0)).toBe(25);
  });

  it("falls on Northwind's newest crawl, where issues and critical issues rose", () => {
    const { totals, weightedChange } = compare('northwind-outfitters', 6, 5);
    expect(totals.issuesChange).toBeGreaterThan(100);
    expect(totals.criticalChange).toBeGreaterThan(10);
    expect(weightedChange).toBeGreaterThan(0);
    expect(totals.healthScoreChange).toBeLessThan(0);
    expect(totals.healthScore).toBeGreaterThan(0);
    expect(totals.healthScore).toBeLessThan(100);
  });

  it("moves on Alpine's newest crawl, in the direction of its weighted issues per URL, never reading 'No change'", () => {
    const { totals, weightedChange } = compare('alpine-travel', 6, 5);
    expect(totals.issuesChange).not.toBe(0);
    expect(totals.healthScoreChange).not.toBe(0);
    expect(Math.sign(totals.healthScoreChange!)).toBe(-Math.sign(weightedChange));
  });

  it('falls whenever weighted issues per URL rise, and rises when they fall, over every pair of demo crawls', () => {
    let pairs = 0;
    for (const site of Object.keys(SITES) as (keyof typeof SITES)[]) {
      const ids = Object.keys(golden[site]!).map(Number);
      for (const current of ids)
        for (const comparison of ids) {
          if (current === comparison) continue;
          const { totals, weightedChange } = compare(site, current, comparison);
          if (Math.abs(totals.healthScoreChange!) >= 0.1)
            expect(Math.sign(totals.healthScoreChange!)).toBe(-Math.sign(weightedChange));
          pairs++;
        }
    }
    expect(pairs).toBe(60);
  });
});

describe('a source that is not connected', () => {
  it('leaves its reports out of the issue totals and the health score, while a connected one counts', () => {
    const reports = visibleReports(SITES['alpine-travel']);
    const counts = golden['alpine-travel']!['2']!;
    const metrics = metricsOf(reports, counts);
    const missing = reports.find((r) => r.id === 'analytics/missing')!;
    const connected = headline(reports, metrics, undefined);
    metrics.set(missing.id, { ...metrics.get(missing.id)!, notConnected: 'analytics' });
    const notConnected = headline(reports, metrics, undefined);
    expect(counts[missing.id]!.all).toBeGreaterThan(0);
    expect(notConnected.issues).toBe(connected.issues - counts[missing.id]!.all);
    expect(notConnected.healthScore).toBeGreaterThan(connected.healthScore);
  });
});

describe('healthScoreHint', () => {
  it('names the sources the score includes and those it leaves out', () => {
    expect(healthScoreHint([])).toContain(
      'Sources included: the crawl, Search Console, Analytics, Google Ads, Microsoft Advertising.',
    );
    const hint = healthScoreHint(['search-console', 'google-ads']);
    expect(hint).toContain('Sources included: the crawl, Analytics, Microsoft Advertising.');
    expect(hint).toContain('Not connected, so left out: Search Console, Google Ads.');
  });
});

describe('at stake on the overview', () => {
  const reports = visibleReports({ isHreflang: false });
  const counts = golden['northwind-outfitters']!['6']!;
  const none = { clicks: null, impressions: null, conversions: null, revenue: null, ad_spend: null };
  const withStakes = (stakes: Record<string, { sessions: number; revenue?: number }>) => {
    const metrics = metricsOf(reports, counts);
    for (const [id, s] of Object.entries(stakes))
      metrics.set(id, { ...metrics.get(id)!, stake: { ...none, revenue: s.revenue ?? 0, sessions: s.sessions } });
    return metrics;
  };

  it('has no traffic-weighted score without a stake, and one by the formula with', () => {
    expect(headline(reports, metricsOf(reports, counts), undefined).trafficHealthScore).toBeUndefined();
    const critical = reports.find((r) => r.severity === 'CRITICAL')!;
    const low = reports.find((r) => r.severity === 'LOW')!;
    const metrics = withStakes({
      [URLS_REPORT_ID]: { sessions: 1000 },
      [critical.id]: { sessions: 50 },
      [low.id]: { sessions: 100 },
    });
    // 100 × 1000 ÷ (1000 + 8 × 50 + 1 × 100) = 66.666… → 66.7
    expect(headline(reports, metrics, undefined).trafficHealthScore).toBe(66.7);
    // A report whose source is not connected counts for nothing, as in the row-weighted score.
    metrics.set(low.id, { ...metrics.get(low.id)!, notConnected: 'analytics' });
    expect(headline(reports, metrics, undefined).trafficHealthScore).toBe(71.4);
  });

  it('orders a severity’s rows by visits at stake, then money, reports without a stake last', () => {
    const metrics = withStakes({
      'status-code/4xx': { sessions: 5 },
      'status-code/5xx': { sessions: 900 },
      'links/internal-broken': { sessions: 5, revenue: 300 },
    });
    const rows = rowsOfSeverity(overviewRows(reports, metrics, undefined), 'CRITICAL');
    expect(hasStakes(rows)).toBe(true);
    const byStake = orderRows(rows, 'stake').map((r) => r.report.id);
    expect(byStake.slice(0, 3)).toEqual(['status-code/5xx', 'links/internal-broken', 'status-code/4xx']);
    // The rest keep their rank order.
    expect(byStake.slice(3)).toEqual(rows.map((r) => r.report.id).filter((id) => !byStake.slice(0, 3).includes(id)));
    expect(orderRows(rows, 'rank')).toEqual(rows);
    expect(hasStakes(overviewRows(reports, metricsOf(reports, counts), undefined))).toBe(false);
  });
});
