/**
 * What a rows request is made of, and what the compiler refuses in one: the tabs, the page sizes and bounds, the
 * crawl targets with their precomputed report state, and the request itself. The compiler (compile.ts) turns it
 * into SQL.
 */
import type { StakeSums } from '../../catalog/stakes.ts';
import type { DataSourceId } from '../../catalog/data-sources.ts';
import type { StakeOrder } from './stakes.ts';
import { CSV_CHUNK_SIZE, PAGE_SIZES } from '../../catalog/constants.ts';
import { CHECKLIST_STATE_COLUMN } from '../../catalog/checklist-states.ts';
import type { RemovalCounts, RemovalReason } from '../../catalog/removal-reasons.ts';
import type { ReportDefinition } from '../../catalog/schema.ts';
import type { DateRange } from './report-shape.ts';
import type { SqlFragment } from './sql.ts';

export const differenceTypes = ['all', 'added', 'removed'] as const;
export type DifferenceType = (typeof differenceTypes)[number];

/** The largest offset a request may ask for; far beyond any crawl, it only bounds the work. */
export const MAX_OFFSET = 50_000_000;
export const ALLOWED_LIMITS: readonly number[] = [...PAGE_SIZES, CSV_CHUNK_SIZE];
export const MAX_ORDER_BY = 8;
export const MAX_USER_FILTER_LENGTH = 2048;

/** A request the compiler refuses; the route answers 400 naming the field. */
export class RequestError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** What the crawl's `report_counts` row says about a report. */
export interface PrecomputedReport {
  reportId: string;
  rowTable: string;
  removedTable: string;
  fingerprint: string;
  rowCount: number;
  base: number;
  emsRank: number;
  added: number | null;
  removed: number | null;
  previousCrawlId: number | null;
  /** The data id (crawl-meta.ts) of the crawl the rows were diffed against. */
  previousDataId: string | null;
  /** The removed rows per removal reason; null without a previous crawl. */
  removedByReason: RemovalCounts | null;
}

/** A crawl as the compiler needs it. */
export interface CrawlTarget {
  alias: string;
  crawlId: number;
  /** The identity of the crawl's data (crawl-meta.ts `dataIdOf`). */
  dataId: string;
  /** The crawl's data start and end (manifest), the default date range. */
  defaultRange: DateRange;
  /** Tables present in its database. */
  tables: ReadonlySet<string>;
  /** The origin its URL-match copies code (url-match.ts); undefined without copies. */
  urlMatchPrefix?: string | undefined;
  /** The sources it joined (connected.ts): a boolean metric of a source it lacks is empty, not false. */
  connected: ReadonlySet<DataSourceId>;
  precomputed: ReadonlyMap<string, PrecomputedReport>;
  /** What is at stake per report (stakes.ts), as precomputed; undefined when the crawl was precomputed without. */
  stakes?: ReadonlyMap<string, StakeSums> | undefined;
  /** The crawl's default row order by what is at stake (stakes.ts `stakeOrderOf`); undefined: key order. */
  stakeOrder?: StakeOrder | undefined;
}

export interface OrderBy {
  id: string;
  desc: boolean;
}

export interface RowsRequest {
  report: ReportDefinition;
  current: CrawlTarget;
  comparison?: CrawlTarget | undefined;
  dataDateRange: DateRange;
  channel?: string | undefined;
  differenceType: DifferenceType;
  /** On the Removed tab: only rows removed for this reason. */
  removalReason?: RemovalReason | undefined;
  userFilter?: string | undefined;
  /** The website segment's URL scope: only URLs starting with it (on url_to for link reports). */
  urlScope?: string | undefined;
  showChecked: boolean;
  /** A relation with the report's key columns: the checked rows (see checkedKeysRelation). */
  checked?: SqlFragment | undefined;
  /** Only the checked rows (counting the fixes a crawl verified). */
  isOnlyChecked?: boolean | undefined;
  /** Adds CHECKLIST_STATE_COLUMN (catalog/checklist-states.ts) for the checked rows. */
  checklistState?: ChecklistStateOptions | undefined;
  orderBy: readonly OrderBy[];
  /**
   * Without orderBy and cursor, rows sort by what is at stake on their URL (stakes.ts withStakeColumns), then in key
   * order; set when a source of a stake is connected.
   */
  stakeOrder?: StakeOrder | undefined;
  limit: number;
  offset: number;
  /** Keyset cursor: the key values of the last row received; the page continues after it in key order. */
  after?: readonly string[] | undefined;
}

export interface ChecklistStateOptions {
  /** The current crawl: a row checked at an older one and still listed is not fixed yet. */
  crawlId: number;
  /** Staff see who checked a row not fixed yet, and when; clients see it as checked. */
  isStaff: boolean;
  /** The current crawl's label: a checked row it removed as fixed is verified by it. */
  crawlLabel: string;
}

export const SUB_ROWS_COLUMN = 'subRows';
export { CHECKLIST_STATE_COLUMN };
export const CHECKED_COLUMN = 'checked';
/** Carries each row's ordinal out of precomputed pages for the next cursor; never sent to clients. */
export const ORDINAL_COLUMN = '__ordinal';
/** Carries the total out of a combined page query; never sent to clients. */
export const TOTAL_COLUMN = '__total';

/** Carries an export's text columns NUL-joined in one value, one string to decode per row; never sent to clients. */
export const PACKED_COLUMN = '__packed';

/** Refuses a page size or offset outside what the service answers, naming the field. */
export function validatePage(req: RowsRequest, isWholeTab: boolean): void {
  if (!isWholeTab && !ALLOWED_LIMITS.includes(req.limit))
    throw new RequestError('limit', `limit must be one of ${ALLOWED_LIMITS.join(', ')}`);
  if (!Number.isSafeInteger(req.offset) || req.offset < 0 || req.offset > MAX_OFFSET)
    throw new RequestError('offset', `offset must be an integer from 0 to ${MAX_OFFSET}`);
}

/** Refuses a filter, segment scope or date range outside what the service answers, naming the field. */
export function validateTab(req: RowsRequest): void {
  if (req.userFilter !== undefined && req.userFilter.length > MAX_USER_FILTER_LENGTH)
    throw new RequestError('userFilter', `userFilter is longer than ${MAX_USER_FILTER_LENGTH} characters`);
  if (req.urlScope !== undefined && req.urlScope.length > MAX_USER_FILTER_LENGTH)
    throw new RequestError('segmentId', `the segment's URL scope is longer than ${MAX_USER_FILTER_LENGTH} characters`);
  for (const [field, value] of [
    ['dataDateRange.start', req.dataDateRange.start],
    ['dataDateRange.end', req.dataDateRange.end],
  ] as const)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
      throw new RequestError(field, `${field} must be a date as YYYY-MM-DD`);
  if (req.dataDateRange.start > req.dataDateRange.end)
    throw new RequestError('dataDateRange', 'dataDateRange.start is after dataDateRange.end');
}
