import { describe, expect, it } from 'vitest';
import type { DataSourceId } from './data-sources.ts';
import {
  compareStakes,
  moneyOf,
  stakeOf,
  stakeText,
  trafficHealthScoreOf,
  visitsOf,
  type Stake,
  type StakeSums,
} from './stakes.ts';

const sums: StakeSums = { clicks: 40, impressions: 900, sessions: 70, conversions: 3, revenue: 120, ad_spend: 15 };
const connected = (...ids: DataSourceId[]) => new Set<DataSourceId>(ids);
const stake = (figures: Partial<Stake>): Stake => ({
  clicks: null,
  impressions: null,
  sessions: null,
  conversions: null,
  revenue: null,
  ad_spend: null,
  ...figures,
});

describe('stakeOf', () => {
  it('keeps the figures of connected sources and leaves the others absent', () => {
    expect(stakeOf(sums, connected('search-console'))).toEqual(stake({ clicks: 40, impressions: 900 }));
    expect(stakeOf(sums, connected('microsoft-ads'))).toEqual(stake({ ad_spend: 15 }));
    expect(stakeOf(sums, connected('analytics', 'google-ads'))).toEqual(
      stake({ sessions: 70, conversions: 3, revenue: 120, ad_spend: 15 }),
    );
  });

  it('is undefined when no source of a figure is connected, whatever the sums', () => {
    expect(stakeOf(sums, connected())).toBeUndefined();
    expect(stakeOf(sums, connected('trends', 'keyword-planner'))).toBeUndefined();
  });
});

describe('visits and money at stake', () => {
  it('takes sessions over search clicks and never adds them up', () => {
    expect(visitsOf(stake({ clicks: 40, sessions: 70 }))).toBe(70);
    expect(visitsOf(stake({ clicks: 40 }))).toBe(40);
    expect(visitsOf(stake({ ad_spend: 3 }))).toBeNull();
    expect(visitsOf(stake({ sessions: 0, clicks: 40 }))).toBe(0);
  });

  it('adds revenue and ad spend of those connected', () => {
    expect(moneyOf(stake({ revenue: 120, ad_spend: 15 }))).toBe(135);
    expect(moneyOf(stake({ ad_spend: 15 }))).toBe(15);
    expect(moneyOf(stake({ sessions: 5 }))).toBeNull();
  });
});

describe('stakeText', () => {
  it('names the figures present, money in pounds', () => {
    expect(stakeText(stake({ sessions: 591, conversions: 13, revenue: 27603.59, ad_spend: 0 }))).toBe(
      '591 sessions, 13 conversions, £27,603.59 revenue, £0.00 ad spend',
    );
    expect(stakeText(stake({ clicks: 1200, impressions: 34000 }))).toBe(
      '1,200 search clicks, 34,000 search impressions',
    );
  });
});

describe('compareStakes', () => {
  it('orders by visits, then money, then impressions, reports without a stake last', () => {
    const many = stake({ sessions: 500 });
    const fewRich = stake({ sessions: 10, revenue: 9000 });
    const fewPoor = stake({ sessions: 10, revenue: 1, impressions: 5000 });
    const fewPoorer = stake({ sessions: 10, revenue: 1, impressions: 4 });
    const sorted = [null, fewPoorer, fewRich, many, null, fewPoor].sort(compareStakes);
    expect(sorted).toEqual([many, fewRich, fewPoor, fewPoorer, null, null]);
    expect(compareStakes(undefined, stake({ sessions: 0 }))).toBeGreaterThan(0);
  });
});

describe('trafficHealthScoreOf', () => {
  it('is 100 × visits ÷ (visits + severity-weighted visits at stake)', () => {
    // 1000 visits; a critical report with 50 visits at stake (8 × 50) and a low one with 100 (1 × 100).
    const reports = [
      { severity: 'CRITICAL', visits: 50 },
      { severity: 'LOW', visits: 100 },
      { severity: 'NONE', visits: 1000 },
    ] as const;
    expect(trafficHealthScoreOf(1000, reports)).toBeCloseTo((100 * 1000) / (1000 + 400 + 100), 9);
    expect(trafficHealthScoreOf(1000, [{ severity: 'HIGH', visits: 0 }])).toBe(100);
  });

  it('is undefined without visits data', () => {
    expect(trafficHealthScoreOf(null, [{ severity: 'CRITICAL', visits: 10 }])).toBeUndefined();
  });
});
