/**
 * What is at stake on a report's URLs (issue 30 §3): the marketing data landing on the distinct URLs the report lists,
 * summed over the crawl's data window, per figure. A figure whose source the crawl has not connected is absent
 * (null), never zero; a report of a crawl with no such source at all has no stake.
 *
 * Reports are ordered by **visits at stake**: the sessions landing on their URLs when analytics is connected,
 * otherwise the search clicks (an organic click is a session too, so the two are never added up); ties go to the
 * money at stake (revenue plus ad spend), then to impressions.
 */
import type { DataSourceId } from './data-sources.ts';
import { formatCurrency, formatNumber } from './format.ts';
import type { Severity } from './schema.ts';

export const STAKE_FIGURES = ['clicks', 'impressions', 'sessions', 'conversions', 'revenue', 'ad_spend'] as const;
export type StakeFigure = (typeof STAKE_FIGURES)[number];

/** The sources each figure comes from; a figure is present when any of its sources is connected. */
export const STAKE_SOURCES: Record<StakeFigure, readonly DataSourceId[]> = {
  clicks: ['search-console'],
  impressions: ['search-console'],
  sessions: ['analytics'],
  conversions: ['analytics'],
  revenue: ['analytics'],
  ad_spend: ['google-ads', 'microsoft-ads'],
};

export const STAKE_TITLES: Record<StakeFigure, string> = {
  clicks: 'search clicks',
  impressions: 'search impressions',
  sessions: 'sessions',
  conversions: 'conversions',
  revenue: 'revenue',
  ad_spend: 'ad spend',
};

/** A report's figures; null where the source is not connected. */
export type Stake = Record<StakeFigure, number | null>;

/** Every figure's sum whatever is connected, as precompute stores it. */
export type StakeSums = Record<StakeFigure, number>;

/** The figures the connected sources give; undefined when none of them is connected. */
export function presentStakeFigures(connected: ReadonlySet<DataSourceId>): ReadonlySet<StakeFigure> | undefined {
  const present = STAKE_FIGURES.filter((figure) => STAKE_SOURCES[figure].some((id) => connected.has(id)));
  return present.length > 0 ? new Set(present) : undefined;
}

/** The present figures' sums, the others null; one literal, so every stake has one object shape. */
export const stakeFrom = (sums: StakeSums, present: ReadonlySet<StakeFigure>): Stake => ({
  clicks: present.has('clicks') ? sums.clicks : null,
  impressions: present.has('impressions') ? sums.impressions : null,
  sessions: present.has('sessions') ? sums.sessions : null,
  conversions: present.has('conversions') ? sums.conversions : null,
  revenue: present.has('revenue') ? sums.revenue : null,
  ad_spend: present.has('ad_spend') ? sums.ad_spend : null,
});

/** The figures the connected sources give; undefined when none of them is connected. */
export function stakeOf(sums: StakeSums, connected: ReadonlySet<DataSourceId>): Stake | undefined {
  const present = presentStakeFigures(connected);
  return present && stakeFrom(sums, present);
}

/** Visits at stake: sessions when analytics is connected, else search clicks; null with neither. */
export const visitsOf = (stake: Stake): number | null => stake.sessions ?? stake.clicks;

/** Money at stake: revenue plus ad spend, of those connected; null with neither. */
export const moneyOf = (stake: Stake): number | null =>
  stake.revenue === null && stake.ad_spend === null ? null : (stake.revenue ?? 0) + (stake.ad_spend ?? 0);

/** Most at stake first; reports without a stake last. */
export function compareStakes(a: Stake | undefined | null, b: Stake | undefined | null): number {
  if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1);
  const by = (f: (s: Stake) => number | null) => (f(b) ?? -1) - (f(a) ?? -1);
  return by(visitsOf) || by(moneyOf) || by((s) => s.impressions);
}

const MONEY_FIGURES: ReadonlySet<StakeFigure> = new Set(['revenue', 'ad_spend']);

/** "591 sessions, 13 conversions, £27,603.59 revenue": the figures present, for a tooltip or a CSV cell. */
export const stakeText = (stake: Stake): string =>
  STAKE_FIGURES.flatMap((f) => {
    const value = stake[f];
    if (value === null) return [];
    return [`${MONEY_FIGURES.has(f) ? formatCurrency(value) : formatNumber(value)} ${STAKE_TITLES[f]}`];
  }).join(', ');

export const AT_STAKE_FORMULA =
  'At stake = what lands on the distinct URLs a report lists, summed over the crawl’s data window: search clicks and impressions (Search Console), sessions, conversions and revenue (Analytics), ad spend (Google Ads, Microsoft Advertising). Reports are ordered by visits at stake (sessions, or search clicks without Analytics), then by revenue plus ad spend.';

/** Weight of an issue (a row, or a visit at stake) by its report's severity, in both health scores. */
export const SEVERITY_WEIGHTS = { CRITICAL: 8, HIGH: 4, MEDIUM: 2, LOW: 1 } as const satisfies Record<
  Exclude<Severity, 'NONE'>,
  number
>;

export const TRAFFIC_HEALTH_SCORE_FORMULA =
  'Traffic-weighted health = 100 × visits ÷ (visits + weighted visits at stake), where visits are the visits landing on the crawl’s URLs (All crawled URLs) and weighted visits at stake = 8 × critical + 4 × high + 2 × medium + 1 × low reports’ visits at stake. A visit counts once per report it lands in an issue of; 100 means no visit lands on a URL with an issue.';

/**
 * TRAFFIC_HEALTH_SCORE_FORMULA, unrounded; undefined without visits data. `reports` are the issue reports (not
 * NONE) with their visits at stake.
 */
export function trafficHealthScoreOf(
  visits: number | null,
  reports: readonly { severity: Severity; visits: number | null }[],
): number | undefined {
  if (visits === null) return undefined;
  let weighted = 0;
  for (const r of reports) if (r.severity !== 'NONE') weighted += SEVERITY_WEIGHTS[r.severity] * (r.visits ?? 0);
  const n = Math.max(visits, 1);
  return (100 * n) / (n + weighted);
}
