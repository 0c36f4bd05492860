/**
 * The service's HTTP API as both sides see it: the payloads the dashboard sends and the JSON answers it reads.
 * Types only, so the service's routes and the dashboard's api/ client import the same declarations. Row pages travel as Arrow and are not described here.
 */
import type { Severity } from './schema.ts';
import type { DataSourceId } from './data-sources.ts';
import type { PartialReason } from './export-contract.ts';
import type { RemovalCounts, RemovalReason } from './removal-reasons.ts';
import type { Stake } from './stakes.ts';
import type { Comparability } from './comparability.ts';

export type Role = 'CLIENT' | 'STAFF' | 'ADMIN';

export type ModuleName = 'technical-health-check' | 'additional-health-check' | 'uptime-report' | 'carbon-footprint';
export type GoalType = 'conversion' | 'ecommerce';

export interface Segment {
  id: string;
  name: string;
  urlScope: string | null;
  isHreflang: boolean;
  isAi: boolean;
  goalType: GoalType | null;
  isDefault: boolean;
}

export interface ModuleStatus {
  module: ModuleName;
  isActive: boolean;
  reason?: 'missing-module' | 'missing-setup-id';
}

/** One entry of POST /api/websites/list. */
export interface Website {
  id: string;
  name: string;
  domain: string;
  segments: Segment[];
  modules: ModuleStatus[];
  /** Archived: its crawls are kept, its clients no longer see it (only internal users list it). */
  isArchived?: boolean;
}

export interface SessionUser {
  email: string;
  role: Role;
  websites?: string[];
}

/** POST /api/auth/login and GET /api/auth/me. */
export interface SessionAnswer {
  user: SessionUser;
  csrfToken: string;
}

export type ModuleState = 'PENDING' | 'APPROVED';

/** One entry of crawl/get-redux, newest first. */
export interface Crawl {
  id: string | number;
  crawlId: number;
  crawledAt: string;
  /** 'd MMM yyyy' of the crawl's UTC date, as recorded at load. */
  crawledFriendly: string;
  /** The crawl's name wherever it is shown, unique among the website's crawls (catalog/crawl-label.ts). */
  label: string;
  /** Why the crawl holds less than the website; null for a full crawl. */
  partial: PartialReason | null;
  dataStart: string;
  dataEnd: string;
  moduleState: ModuleState;
}

export interface OverviewReport {
  tableId: string;
  reportId: string;
  ems_rank: number;
  ems_lumar_row_count: number;
  /**
   * The data source this report needs and the crawl lacks: the report is "not connected" (not zero), its rank and
   * row count are 0 and it counts towards no issue total or health score.
   */
  notConnected?: DataSourceId;
  added?: number;
  removed?: number;
  /** The removed rows per removal reason (catalog/removal-reasons.ts); null without a comparison. */
  removedByReason?: RemovalCounts | null;
  /** Checked rows this crawl removed as fixed (catalog/checklist-states.ts); null without a comparison. */
  verified?: number | null;
  /** What is at stake on its URLs (catalog/stakes.ts); null when no source of it is connected. */
  stake?: Stake | null;
  title?: string;
  [key: string]: unknown;
}

/** overview/get-overview. */
export interface Overview {
  moduleId: string | number;
  /** Every data source the crawl lacks. */
  notConnected?: DataSourceId[];
  severityMap: Partial<Record<Severity, { reports: OverviewReport[] }>>;
  /** Why Added/Removed against the comparison may not be what changed (catalog/comparability.ts); absent when comparable. */
  comparability?: Comparability;
  /** A fact about the crawl that its sitemap reports' rows depend on (NO_SITEMAP_NOTICE). */
  notice?: string;
}

export type DifferenceType = 'all' | 'added' | 'removed';

export interface DateRange {
  start: string;
  end: string;
}

export interface SortOrder {
  id: string;
  desc: boolean;
}

/** The payload report/get-summary, get-rows and export-csv share (spec §7). */
export interface ReportQuery {
  websiteId: string;
  segmentId: string | null;
  currentId: number;
  comparisonId: number | null;
  dataDateRange: DateRange;
  differenceType: DifferenceType;
  /** On the Removed tab: only the rows removed for this reason; null or absent for every reason. */
  removalReason?: RemovalReason | null;
  reportId: string;
  /** Sent as the spec's dashboard sends it, accepted and never read: the report names its own source table. */
  tableId: string;
  showChecked: boolean;
  userFilter: string;
  channel: string | null;
}

/**
 * get-rows on a report of links filtered by 'URLs containing' (header x-filter-matches): how many of the filtered
 * rows hold the text in the linking page, and in the target; a row may count in both.
 */
export interface FilterMatches {
  linking: number;
  target: number;
}

/** What the table says about the filter: where the text was found, undefined when nothing matched. */
export function filterMatchesText(text: string, matches: FilterMatches): string | undefined {
  const rows = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'row' : 'rows'}`;
  const places = [
    ...(matches.linking > 0 ? [`the linking page of ${rows(matches.linking)}`] : []),
    ...(matches.target > 0 ? [`the target of ${rows(matches.target)}`] : []),
  ];
  return places.length === 0 ? undefined : `'${text}' is in ${places.join(' and ')}`;
}

/** A checklist row: the report's first key column, and its sub-key columns' values in order ([] for none). */
export interface ChecklistRowKey {
  url: string;
  subKeys: string[];
}

/** checklist/save: rows (un)checked on one report of the crawl `start`. */
export interface ChecklistSave {
  websiteId: string;
  segmentId?: string | undefined;
  setChecked: ChecklistRowKey[];
  setUnchecked: ChecklistRowKey[];
  start: number;
  /** The report id. */
  submodule: string;
  module: 'technical-health-check';
  end: null;
  differenceType: DifferenceType;
}

/** checklist/save's answer: how many items changed. */
export interface ChecklistSaved {
  checked: number;
  unchecked: number;
}

/** report/get-rows: one server-sorted page. */
export interface RowsRequest extends ReportQuery {
  limit: number;
  offset: number;
  orderBy: SortOrder[];
}

export interface TrendPoint {
  crawlId: number;
  crawledAt: string;
  /** As Crawl.label. */
  label: string;
  issues: number;
}

/**
 * Said once on the overview and the sitemap reports of a crawl that fetched no sitemap, instead of every page being
 * "missing".
 */
export const NO_SITEMAP_NOTICE =
  'No sitemap found: this crawl found no sitemap (robots.txt Sitemap lines and /sitemap.xml were tried)';

/** report/get-summary. */
export interface ReportSummary {
  trends: TrendPoint[];
  differences: { all: number; added: number; removed: number; removedByReason: RemovalCounts };
  /**
   * The rows' order without a sort: most at stake on their URL first when a source of a stake is connected
   * (catalog/stakes.ts; visits, then revenue plus ad spend, then impressions, then the key), else by key.
   */
  defaultOrder?: 'at-stake' | 'key';
  /** As the overview's: why Added/Removed may not be what changed; absent when the crawls are comparable. */
  comparability?: Comparability;
  /** A fact about the crawl that the report's rows depend on (NO_SITEMAP_NOTICE). */
  notice?: string;
  /** The data source the report needs and the crawl lacks; then trends are empty and differences 0. */
  notConnected?: DataSourceId;
}

/** report/get-rows and export-csv of a report whose source the crawl lacks: 409 with this body. */
export interface NotConnectedAnswer {
  error: string;
  notConnected: DataSourceId;
}

// query/get-report: everything the data sources know about one search query.

export interface SearchConsolePoint {
  date: string;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number | null;
  /**
   * Set when the figures on `date` are one period's totals (an import without per-date rows places them on the
   * period's last day), not that day's own: charts show the period, never a daily point.
   */
  period: DateRange | null;
}

/** Where the query report's search console totals come from (QueryReport.searchConsole). */
export type SearchConsoleFigures = 'property' | 'pages';

export interface SearchConsoleUrl {
  url: string;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number | null;
}

export interface AdsOneTotals {
  clicks: number;
  conversions: number;
  all_conversions: number;
  costs: number;
  ctr: number;
  impressions: number;
  revenue: number;
  all_revenue: number;
}

export interface AdsOneSearchTerm extends AdsOneTotals {
  search_term: string;
}

export interface AdsTwoTotals {
  clicks: number;
  conversions: number;
  costs: number;
  impressions: number;
  revenue: number;
}

export interface MonthlyRecord {
  year: number;
  month: number;
  search_volume: number;
}

export interface KeywordPlannerEntry {
  average_search_volume: number | null;
  total_search_volume: number | null;
  monthly_records: MonthlyRecord[];
  competition: string | null;
  competition_index: number | null;
  average_cpc: number | null;
  network: string | null;
  countries: string[];
  language: string | null;
}

export interface QueryReport {
  query: string;
  dataDateRange: DateRange;
  /**
   * overTime: Search Console's figures for the whole property (search_console_site, each search counted once) when
   * the crawl's data window holds any, else the sums of the pages' rows (search_console_queries, a search counted
   * once per page it showed); `figures` says which. byUrl: always the pages' rows.
   */
  searchConsole: { figures: SearchConsoleFigures; overTime: SearchConsolePoint[]; byUrl: SearchConsoleUrl[] };
  /** totals is null when the source has no rows for the query in the range. */
  adsOne: { totals: AdsOneTotals | null; searchTerms: AdsOneSearchTerm[] };
  adsTwo: { totals: AdsTwoTotals | null };
  trends: { date: string; value: number }[];
  keywordPlanner: KeywordPlannerEntry | null;
  /** The query report's sources the crawl lacks: their parts are not connected, not empty. */
  notConnected: DataSourceId[];
}
