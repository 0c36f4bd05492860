/** POST /api/technical-health-check/query/get-report: everything the data sources know about one search query. */
import type { QueryReport } from '../../../catalog/api.ts';
import { postJson } from './client.ts';
import type { DateRange } from './types.ts';

export type {
  AdsOneSearchTerm,
  AdsOneTotals,
  AdsTwoTotals,
  KeywordPlannerEntry,
  MonthlyRecord,
  QueryReport,
  SearchConsolePoint,
  SearchConsoleUrl,
} from '../../../catalog/api.ts';

export interface QueryReportInput {
  websiteId: string;
  query: string;
  /** The crawl whose data sources answer; omitted for the newest the user may see. */
  currentId?: number;
  /** Omitted for the crawl's data start and end. */
  dataDateRange?: DateRange;
}

export function fetchQueryReport(input: QueryReportInput, signal?: AbortSignal): Promise<QueryReport> {
  return postJson<QueryReport>('/api/technical-health-check/query/get-report', input, { signal });
}
