import { describe, expect, it } from 'vitest';
import { exportTable } from './export-contract.ts';
import {
  catalog,
  categoryById,
  columnById,
  filterConstants,
  reportById,
  reportUrl,
  type Severity,
  type SourceTableId,
} from './index.ts';
import { RANK_SCALE } from './constants.ts';
import { keyDateKinds, keyDateSchema, sourceTableIds } from './schema.ts';

/**
 * The spec's route list (§2), copied by hand: the independent oracle that the catalogue has every report the spec
 * names. Tests of the catalogue as a whole loop over `reports`, so a new report needs no entry here.
 */
const specRoutes: Record<string, string[]> = {
  links: ['external-broken', 'external-redirects', 'internal-broken', 'internal-http', 'internal-disallowed'],
  sitemap: ['sitemaps', 'all', 'missing', 'orphaned'],
  analytics: ['all', 'missing', 'orphaned'],
  canonical: ['conflicting', 'orphaned', 'multiple-links-in', 'non-indexable-with-links-in', 'non-self-referencing'],
  content: ['duplicate', 'empty', 'missing-h1', 'multiple-h1', 'thin'],
  crawl: ['all'],
  hreflang: ['missing', 'non-indexable-links-in'],
  internal: ['all', 'head-issues', 'non-indexable', 'no-follow'],
  meta: [
    'duplicate-descriptions',
    'duplicate-titles',
    'max-descriptions',
    'max-titles',
    'short-descriptions',
    'short-titles',
  ],
  performance: ['poor-fetch', 'poor-cls', 'poor-dcl', 'slow-fcp', 'slow-lcp', 'slow-ttfb', 'slow-tti'],
  redirects: ['all', 'broken', 'chain', 'loop', 'js-meta', 'temporary'],
  schema: ['missing'],
  'search-console': ['all', 'missing', 'orphaned'],
  'status-code': ['4xx', '5xx', 'other'],
};
const specReportIds = Object.entries(specRoutes).flatMap(([category, ids]) => ids.map((id) => `${category}/${id}`));
const isSpecReport = (report: { id: string }): boolean => specReportIds.includes(report.id);

/** The spec's category list, in its order. */
const specCategories = [
  'analytics',
  'canonical',
  'content',
  'crawl',
  'external',
  'hreflang',
  'images',
  'links',
  'meta',
  'performance',
  'redirects',
  'schema',
  'search-console',
  'security',
  'sitemap',
  'status-code',
];

/** The guide's per-report severities (§1), copied by hand. */
const guideSeverities: Record<Severity, string[]> = {
  CRITICAL: [
    'links/internal-broken',
    'canonical/conflicting',
    'content/duplicate',
    'content/empty',
    'redirects/broken',
    'redirects/loop',
    'status-code/4xx',
    'status-code/5xx',
  ],
  HIGH: [
    'sitemap/orphaned',
    'analytics/orphaned',
    'canonical/orphaned',
    'canonical/non-indexable-with-links-in',
    'meta/duplicate-titles',
    'redirects/chain',
    'search-console/orphaned',
    'status-code/other',
  ],
  MEDIUM: [
    'links/internal-http',
    'sitemap/missing',
    'content/thin',
    'hreflang/missing',
    'hreflang/non-indexable-links-in',
    'internal/head-issues',
    'meta/duplicate-descriptions',
    'meta/short-titles',
    'performance/poor-cls',
    'performance/slow-lcp',
    'performance/slow-ttfb',
    'redirects/temporary',
    'search-console/missing',
  ],
  LOW: [
    'links/external-broken',
    'links/external-redirects',
    'links/internal-disallowed',
    'analytics/missing',
    'canonical/multiple-links-in',
    'canonical/non-self-referencing',
    'content/missing-h1',
    'content/multiple-h1',
    'internal/non-indexable',
    'internal/no-follow',
    'meta/max-descriptions',
    'meta/max-titles',
    'meta/short-descriptions',
    'performance/poor-fetch',
    'performance/poor-dcl',
    'performance/slow-fcp',
    'performance/slow-tti',
    'redirects/js-meta',
    'schema/missing',
  ],
  NONE: [
    'sitemap/sitemaps',
    'sitemap/all',
    'analytics/all',
    'crawl/all',
    'internal/all',
    'redirects/all',
    'search-console/all',
  ],
};

const reportTables: SourceTableId[] = sourceTableIds;

const countBy = <T>(items: readonly T[], key: (item: T) => string): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

describe('reports', () => {
  it('holds every spec route, each report once', () => {
    const ids = catalog.reports.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(specReportIds.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('puts every report under the route of its category', () => {
    for (const report of catalog.reports) expect(report.id.split('/')[0], report.id).toBe(report.category);
  });

  it('has the guide severity totals over the spec reports: CRITICAL 8, HIGH 8, MEDIUM 13, LOW 19, NONE 7', () => {
    expect(countBy(catalog.reports.filter(isSpecReport), (r) => r.severity)).toEqual({
      CRITICAL: 8,
      HIGH: 8,
      MEDIUM: 13,
      LOW: 19,
      NONE: 7,
    });
  });

  it('gives each report the guide severity', () => {
    for (const [severity, ids] of Object.entries(guideSeverities))
      for (const id of ids) expect(reportById(id)?.severity, id).toBe(severity);
  });

  it('turns trends off exactly for NONE reports and keeps every table', () => {
    for (const report of catalog.reports) {
      expect(report.includeTrends, report.id).toBe(report.severity !== 'NONE');
      expect(report.includeTable, report.id).toBe(true);
    }
  });

  it('uses the guide keys per source table', () => {
    const keys: Record<SourceTableId, [string[], string[]]> = {
      urls: [['url'], []],
      links: [['url_to', 'url_from'], ['url_from']],
      unique_links: [['url_to', 'anchor_text'], ['anchor_text']],
      sitemaps: [['url'], []],
      uncrawled_urls: [['url'], []],
    };
    for (const report of catalog.reports)
      expect([report.keyColumns, report.subKeyColumns], report.id).toEqual(keys[report.tableId]);
  });

  it('scopes reports as the guide says', () => {
    const scope = (id: string): string => {
      const report = reportById(id);
      return `${report?.tableId} ${report?.contentType}/${report?.internalType}`;
    };
    expect(scope('crawl/all')).toBe('urls none/all');
    expect(scope('internal/all')).toBe('urls none/internal');
    expect(scope('redirects/chain')).toBe('urls none/internal');
    expect(scope('content/thin')).toBe('urls html/internal');
    expect(scope('links/external-broken')).toBe('links link/external');
    expect(scope('links/internal-broken')).toBe('links link/internal');
    expect(scope('links/internal-http')).toBe('unique_links link/internal');
    expect(scope('links/internal-disallowed')).toBe('uncrawled_urls none/all');
    expect(scope('sitemap/sitemaps')).toBe('sitemaps none/all');
  });

  it('sets the sub-rows the guide describes', () => {
    const subRows = Object.fromEntries(
      catalog.reports.filter((r) => r.subRow && isSpecReport(r)).map((r) => [r.id, r.subRow]),
    );
    expect(subRows).toEqual({
      'links/internal-http': 'link-sources',
      'content/duplicate': 'duplicate-set',
      'meta/duplicate-descriptions': 'duplicate-set',
      'meta/duplicate-titles': 'duplicate-set',
      'redirects/chain': 'redirect-chain',
      'redirects/loop': 'redirect-chain',
    });
  });

  it('writes thresholds as named constants, never as literals', () => {
    const httpSemantics = new Set(['0', '1', '200', '201', '299', '300', '399', '400', '499', '500', '599', '600']);
    for (const report of catalog.reports) {
      const literals = report.filter.replace(/'[^']*'|\{[A-Z_]+\}|[a-z_][a-z0-9_]*/gi, ' ').match(/\d+(\.\d+)?/g);
      for (const literal of literals ?? []) expect(httpSemantics.has(literal), `${report.id}: ${literal}`).toBe(true);
    }
    expect(reportById('meta/max-titles')?.filter).toContain('{TITLE_LENGTH_MAX}');
    expect(reportById('links/internal-broken')?.filter).toContain('NOT IN ({EXCLUDED_BROKEN_STATUSES})');
    expect(reportById('links/internal-disallowed')?.filter).toBe("restricted_reason = 'robots_disallowed'");
  });

  it('offers AI suggestions on the meta reports', () => {
    for (const report of catalog.reports.filter((r) => r.category === 'meta')) {
      const ai = report.datatableColumns.filter((c) => c.startsWith('ai_'));
      expect(ai, report.id).toEqual([report.id.includes('description') ? 'ai_description' : 'ai_title']);
    }
  });

  it('builds the route of a report', () => {
    expect(reportUrl({ id: 'links/internal-broken' })).toBe('/technical-health-check/links/internal-broken');
    expect(reportById('nope/nothing')).toBeUndefined();
  });
});

describe('categories', () => {
  it('lists the spec categories in order, with internal after images and ads (issue 30 §3) last', () => {
    const expected = [...specCategories, 'ads'];
    expected.splice(expected.indexOf('images') + 1, 0, 'internal');
    expect([...catalog.categories].sort((a, b) => a.order - b.order).map((c) => c.id)).toEqual(expected);
  });

  it('hides external, images and security, which have no reports', () => {
    expect(catalog.categories.filter((c) => c.isHidden).map((c) => c.id)).toEqual(['external', 'images', 'security']);
    for (const id of ['external', 'images', 'security'])
      expect(catalog.reports.filter((r) => r.category === id)).toEqual([]);
  });

  it('shows hreflang only to hreflang websites', () => {
    expect(catalog.categories.filter((c) => c.isHreflangOnly).map((c) => c.id)).toEqual(['hreflang']);
    expect(categoryById('internal')?.label).toBe('Internal');
  });
});

describe('columns', () => {
  it('catalogues every column of every report source table', () => {
    for (const tableId of reportTables)
      for (const { name } of exportTable(tableId).columns)
        expect(columnById(name)?.tables, `${tableId}.${name}`).toContain(tableId);
  });

  it('has the joined metrics of guide §5.1 on every report table', () => {
    const metrics = {
      search_console: [
        'gsc_exists',
        'gsc_clicks',
        'gsc_impressions',
        'gsc_ctr',
        'gsc_weighted_position',
        'gsc_top_query',
      ],
      analytics: [
        'ga_exists',
        'ga_sessions',
        'ga_users',
        'ga_new_users',
        'ga_page_views',
        'ga_conversions',
        'ga_revenue',
        'ga_transactions',
      ],
    };
    for (const [joinedFrom, ids] of Object.entries(metrics))
      for (const id of ids) {
        expect(columnById(id)?.joinedFrom, id).toBe(joinedFrom);
        expect(columnById(id)?.tables, id).toEqual(reportTables);
      }
    expect(
      catalog.columns.filter((c) => c.joinedFrom === 'search_console' || c.joinedFrom === 'analytics'),
    ).toHaveLength(14);
    expect(columnById('gsc_top_query')?.isQuery).toBe(true);
  });

  it('gates goal-specific and AI columns', () => {
    expect(columnById('ga_conversions')?.visibility).toBe('conversionGoal');
    expect(columnById('ga_revenue')?.visibility).toBe('ecommerceGoal');
    expect(columnById('ga_transactions')?.visibility).toBe('ecommerceGoal');
    for (const id of ['ai_title', 'ai_description']) {
      expect(columnById(id)).toMatchObject({ visibility: 'isAi', format: 'ai-suggestion', joinedFrom: 'ai' });
    }
    expect(columnById('checked')).toMatchObject({ group: 'Checklist', format: 'boolean', joinedFrom: 'checklist' });
  });

  it('formats columns as the spec describes', () => {
    const formats: Record<string, string> = {
      http_status_code: 'status-code',
      url_to_status_code: 'status-code',
      url: 'url',
      url_to: 'url',
      indexable: 'boolean',
      ga_revenue: 'currency',
      links_in_count: 'long-number',
      deeprank: 'long-number-2dp',
      h1_tag: 'heading-list',
      redirect_chain: 'redirect-chain',
      performance_lcp: 'long-number-2dp',
      gsc_ctr: 'percent',
      gsc_date: 'date',
      link_type: 'capitalised',
      sitemap_type: 'capitalised',
      ems_rank: 'rank-bar',
    };
    for (const [id, format] of Object.entries(formats)) expect(columnById(id)?.format, id).toBe(format);
  });

  it('has a column in every family of the spec column catalogue', () => {
    const families = new Set(catalog.columns.map((c) => c.family));
    for (const family of ['shared', 'analytics', 'ads-one', 'search-console', 'trends', 'keyword-planner', 'ads-two'])
      expect(families, family).toContain(family);
    expect(families).toContain('others');
    expect(catalog.columns.filter((c) => c.isQuery).every((c) => c.type === 'string')).toBe(true);
  });
});

describe('constants', () => {
  it('names every filter placeholder used by a report', () => {
    const used = new Set(catalog.reports.flatMap((r) => [...r.filter.matchAll(/\{([A-Z_]+)\}/g)].map((m) => m[1])));
    for (const name of used) expect(Object.keys(filterConstants), name).toContain(name);
  });

  it('reproduces the guide §3 worked rank examples', () => {
    const rank = (severity: keyof typeof RANK_SCALE, share: number): number => {
      const { lo, hi } = RANK_SCALE[severity];
      return Math.round(lo + (hi - lo) * Math.sqrt(Math.min(1, share)));
    };
    expect(rank('CRITICAL', 0.02)).toBe(57);
    expect(rank('HIGH', 0.1)).toBe(46);
    expect(rank('MEDIUM', 0.5)).toBe(55);
    expect(rank('LOW', 1)).toBe(49);
  });

  it('keeps the spec §9 values', () => {
    const { constants } = catalog;
    expect(constants.PAGE_SIZES).toEqual([10, 20, 30, 40, 50, 100]);
    expect([constants.MAX_TREND_CRAWLS, constants.DEFAULT_PAGE_SIZE, constants.CSV_CHUNK_SIZE]).toEqual([5, 10, 1000]);
    expect(constants.EXCLUDED_BROKEN_STATUSES).toEqual([403, 429]);
    expect(constants.TEMPORARY_REDIRECT_STATUSES).toEqual([302, 307]);
    expect(constants.RANK_BANDS.map((b) => [b.min, b.max])).toEqual([
      [0, 24],
      [25, 49],
      [50, 74],
      [75, 100],
    ]);
    expect(constants.BREAKPOINTS).toEqual({ sm: 575, md: 768, lg: 992, xl: 1200, xxl: 1400 });
  });
});

describe('key dates', () => {
  const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
  const datesOf = (label: string): string[] => catalog.keyDates.filter((k) => k.label === label).map((k) => k.date);

  it('are valid, in date order, and of both kinds', () => {
    for (const k of catalog.keyDates) expect(keyDateSchema.strict().safeParse(k).success, k.label).toBe(true);
    const dates = catalog.keyDates.map((k) => k.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(catalog.keyDates.map((k) => k.kind))).toEqual(new Set(keyDateKinds));
  });

  it('put UK clock changes on the last Sunday of March and October', () => {
    const clockChanges = [...datesOf('UK clocks go forward'), ...datesOf('UK clocks go back')];
    expect(clockChanges.length).toBeGreaterThan(0);
    for (const date of clockChanges) {
      expect(date.slice(5, 7), date).toMatch(/^(03|10)$/);
      expect(weekday(date), date).toBe(0);
      expect(Number(date.slice(8)), date).toBeGreaterThan(31 - 7);
    }
  });

  it('put Black Friday after the fourth Thursday of November and Cyber Monday three days later', () => {
    const fridays = datesOf('Black Friday');
    expect(fridays.length).toBeGreaterThan(0);
    for (const date of fridays) {
      expect(weekday(date), date).toBe(5);
      expect(Number(date.slice(8)), date).toBeGreaterThanOrEqual(23);
      expect(Number(date.slice(8)), date).toBeLessThanOrEqual(29);
      const monday = new Date(Date.parse(`${date}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
      expect(datesOf('Cyber Monday')).toContain(monday);
    }
  });

  it('mark at least one event inside the demo crawls (six weekly crawls up to 16 November 2026)', () => {
    expect(catalog.keyDates.some((k) => k.date >= '2026-10-12' && k.date <= '2026-11-16')).toBe(true);
  });
});
