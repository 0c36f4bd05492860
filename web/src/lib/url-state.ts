/**
 * Everything a shared link must reproduce lives in the query string: website, segment, crawl, comparison, data
 * range, the report filters, tab, paging and sort. Absent values mean the defaults (spec §4): the newest crawl,
 * the next older crawl as comparison, the crawl's own data range.
 */
import { PAGE_SIZES, DEFAULT_PAGE_SIZE } from '../../../catalog/constants.ts';
import { defaultComparison } from '../../../catalog/crawl-label.ts';
import { isRemovalReason, type RemovalReason } from '../../../catalog/removal-reasons.ts';
import type { Crawl, DateRange, DifferenceType, SortOrder } from '../api/types.ts';

export interface UrlState {
  website?: string;
  segment?: string;
  crawl?: number;
  compare?: number;
  from?: string;
  to?: string;
  /** 'URLs containing' */
  filter?: string;
  /** 'Show Checked Items' */
  checked?: boolean;
  tab?: DifferenceType;
  /** The Removed tab's removal reason filter. */
  reason?: RemovalReason;
  /** 1-based, as users read it. */
  page?: number;
  size?: number;
  sort?: SortOrder[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DIFFERENCE_TYPES: readonly DifferenceType[] = ['all', 'added', 'removed'];

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
}

export function parseSort(value: string | null): SortOrder[] | undefined {
  if (!value) return undefined;
  const orders: SortOrder[] = [];
  for (const part of value.split(',')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\.(asc|desc)$/.exec(part);
    if (match) orders.push({ id: match[1]!, desc: match[2] === 'desc' });
  }
  return orders.length ? orders : undefined;
}

export function formatSort(orders: readonly SortOrder[]): string {
  return orders.map((o) => `${o.id}.${o.desc ? 'desc' : 'asc'}`).join(',');
}

export function parseUrlState(search: string): UrlState {
  const params = new URLSearchParams(search);
  const state: UrlState = {};
  const website = params.get('website');
  if (website) state.website = website;
  const segment = params.get('segment');
  if (segment) state.segment = segment;
  const crawl = positiveInt(params.get('crawl'));
  if (crawl !== undefined) state.crawl = crawl;
  const compare = positiveInt(params.get('compare'));
  if (compare !== undefined) state.compare = compare;
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && DAY.test(from) && DAY.test(to) && from <= to) {
    state.from = from;
    state.to = to;
  }
  const filter = params.get('filter');
  if (filter) state.filter = filter;
  if (params.get('checked') === '1') state.checked = true;
  const tab = params.get('tab');
  if (tab && tab !== 'all' && (DIFFERENCE_TYPES as readonly string[]).includes(tab)) state.tab = tab as DifferenceType;
  const reason = params.get('reason');
  if (state.tab === 'removed' && isRemovalReason(reason)) state.reason = reason;
  const page = positiveInt(params.get('page'));
  if (page !== undefined && page > 1) state.page = page;
  const size = positiveInt(params.get('size'));
  if (size !== undefined && size !== DEFAULT_PAGE_SIZE && (PAGE_SIZES as readonly number[]).includes(size)) {
    state.size = size;
  }
  const sort = parseSort(params.get('sort'));
  if (sort) state.sort = sort;
  return state;
}

/** The canonical query string (with its leading '?', or '' when empty), keys in a stable order. */
export function formatUrlState(state: UrlState): string {
  const params = new URLSearchParams();
  if (state.website) params.set('website', state.website);
  if (state.segment) params.set('segment', state.segment);
  if (state.crawl !== undefined) params.set('crawl', String(state.crawl));
  if (state.compare !== undefined) params.set('compare', String(state.compare));
  if (state.from && state.to) {
    params.set('from', state.from);
    params.set('to', state.to);
  }
  if (state.filter) params.set('filter', state.filter);
  if (state.checked) params.set('checked', '1');
  if (state.tab && state.tab !== 'all') params.set('tab', state.tab);
  if (state.tab === 'removed' && state.reason) params.set('reason', state.reason);
  if (state.page !== undefined && state.page > 1) params.set('page', String(state.page));
  if (state.size !== undefined && state.size !== DEFAULT_PAGE_SIZE) params.set('size', String(state.size));
  if (state.sort?.length) params.set('sort', formatSort(state.sort));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** State kept when moving between pages of the section: the selection and the filters, not the table's paging. */
export function sectionState(state: UrlState): UrlState {
  const { website, segment, crawl, compare, from, to, filter, checked } = state;
  return { website, segment, crawl, compare, from, to, filter, checked };
}

/** Changing website resets the crawl state (spec §4) and everything that depends on it. */
export function withWebsite(_state: UrlState, website: string): UrlState {
  return { website };
}

/**
 * Changing the crawl sets the comparison to the next older crawl and the data range to the crawl's own
 * (spec §4); both are the defaults, so they are dropped from the URL. Paging restarts.
 */
export function withCrawl(state: UrlState, crawl: number): UrlState {
  const { compare: _compare, from: _from, to: _to, page: _page, ...rest } = state;
  return { ...rest, crawl };
}

export interface CrawlSelection {
  current: Crawl | undefined;
  comparison: Crawl | undefined;
  range: DateRange | undefined;
  /** True when the URL named a crawl that is not in the list. */
  isUnknownCrawl: boolean;
}

/** The default comparison of `crawl`: the next older crawl that is not partial (catalog/crawl-label.ts). */
export function nextOlderCrawl(crawls: readonly Crawl[], crawl: Crawl): Crawl | undefined {
  return defaultComparison(crawls, crawl.crawlId, (c) => c.partial !== null);
}

export function resolveCrawlSelection(crawls: readonly Crawl[], state: UrlState): CrawlSelection {
  const named = state.crawl === undefined ? undefined : crawls.find((c) => c.crawlId === state.crawl);
  const current = named ?? crawls[0];
  const isUnknownCrawl = state.crawl !== undefined && named === undefined;
  if (!current) return { current, comparison: undefined, range: undefined, isUnknownCrawl };
  const chosen =
    state.compare === undefined
      ? undefined
      : crawls.find((c) => c.crawlId === state.compare && c.crawlId < current.crawlId);
  const comparison = chosen ?? nextOlderCrawl(crawls, current);
  const range =
    state.from && state.to
      ? { start: state.from, end: state.to }
      : { start: current.dataStart.slice(0, 10), end: current.dataEnd.slice(0, 10) };
  return { current, comparison, range, isUnknownCrawl };
}
