/**
 * The module's call payloads (zod schemas; ids may arrive as numbers or numeric strings, nulls stand for "not
 * chosen"), its response bodies and the answers every call shares.
 */
import type { Stake } from '../../../catalog/stakes.ts';
import type { DataSourceId } from '../../../catalog/data-sources.ts';
import { REMOVAL_REASONS, type RemovalCounts } from '../../../catalog/removal-reasons.ts';
import { z } from 'zod';
import { crawlIdParamSchema } from '../crawl-id.ts';
import type { Severity } from '../../../catalog/schema.ts';
import {
  ALLOWED_LIMITS,
  differenceTypes,
  MAX_OFFSET,
  MAX_ORDER_BY,
  MAX_USER_FILTER_LENGTH,
} from '../../engine/rows-request.ts';

export const MODULE_ID = 'technical-health-check';
export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';
export const TOTAL_COUNT_HEADER = 'x-total-count';
/** get-rows on a report of links filtered by 'URLs containing': {"linking":n,"target":n}, rows matched in each. */
export const FILTER_MATCHES_HEADER = 'x-filter-matches';
export const CSV_TYPE = 'text/csv; charset=utf-8';
export const REPORT_NOT_FOUND = { error: 'report could not be found.' } as const;
export const WEBSITE_NOT_FOUND = { error: 'website could not be found.' } as const;
export const CRAWL_NOT_FOUND = { error: 'crawl could not be found.' } as const;
export const SEGMENT_NOT_FOUND = { error: 'segment could not be found.' } as const;

const websiteIdSchema = z.string().min(1).max(100);
const crawlIdSchema = crawlIdParamSchema;
const dateSchema = z.iso.date();
const reportIdSchema = z.string().min(1).max(200);

export const reportCallSchema = z.object({
  websiteId: websiteIdSchema,
  currentId: crawlIdSchema,
  comparisonId: crawlIdSchema.nullish(),
  reportId: reportIdSchema,
  /** The spec's payload carries it; the report id alone names the table, so it is accepted and never read. */
  tableId: z.string().max(100).nullish(),
  segmentId: z.union([z.string().max(100), z.number()]).nullish(),
  dataDateRange: z.object({ start: dateSchema, end: dateSchema }).nullish(),
  channel: z.string().max(200).nullish(),
  differenceType: z.enum(differenceTypes).default('all'),
  /** On the Removed tab: only the rows removed for this reason. */
  removalReason: z.enum(REMOVAL_REASONS).nullish(),
  showChecked: z.boolean().default(false),
  userFilter: z.string().max(MAX_USER_FILTER_LENGTH).nullish(),
  skipCache: z.boolean().default(false),
});

export const summarySchema = reportCallSchema.extend({
  trendCrawlIds: z.array(crawlIdSchema).max(50).nullish(),
});

const orderBySchema = z
  .array(z.object({ id: z.string().min(1).max(100), desc: z.boolean().default(false) }))
  .max(MAX_ORDER_BY)
  .default([]);

export const rowsSchema = reportCallSchema.extend({
  limit: z
    .number()
    .int()
    .refine((n) => ALLOWED_LIMITS.includes(n), { message: `limit must be one of ${ALLOWED_LIMITS.join(', ')}` })
    .default(ALLOWED_LIMITS[0]!),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  orderBy: orderBySchema,
  /** Keyset cursor for chunked export: the key values of the last row received. */
  after: z.array(z.string().max(8192)).max(5).nullish(),
});

/** get-rows without paging: the whole tab in the requested order. */
export const exportSchema = reportCallSchema.extend({ orderBy: orderBySchema });

export const crawlListSchema = z.object({ websiteId: websiteIdSchema, currentId: crawlIdSchema.nullish() });
export const overviewSchema = z.object({
  websiteId: websiteIdSchema,
  currentId: crawlIdSchema,
  comparisonId: crawlIdSchema.nullish(),
  refresh: z.boolean().default(false),
});

export interface OverviewEntry {
  tableId: string;
  reportId: string;
  ems_rank: number;
  ems_lumar_row_count: number;
  added: number | null;
  removed: number | null;
  /** The removed rows per removal reason; null without a comparison. */
  removedByReason: RemovalCounts | null;
  /** Checked rows this crawl removed as fixed (issue 30 §2); null without a comparison or a checklist. */
  verified: number | null;
  /** What is at stake on its URLs (issue 30 §3); null when no source of it is connected. */
  stake: Stake | null;
  title: string;
  category: string;
  severity: Severity;
  notConnected?: DataSourceId;
}

/** A report call's payload, as get-summary, get-rows and export-csv share it. */
export type ReportCallPayload = z.infer<typeof reportCallSchema>;
