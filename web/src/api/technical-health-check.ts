/** Calls of spec §7 under /api/technical-health-check. */
import { ApiError, postJson } from './client.ts';
import type { ChecklistSave, ChecklistSaved, ReportQuery } from '../../../catalog/api.ts';
import type { Crawl, Overview, ReportSummary } from './types.ts';

export type { ReportQuery };

const BASE = '/api/technical-health-check';

/**
 * The website's crawls. The service answers 404 for a website it knows no crawl of; the website itself came from
 * /api/websites/list, so that means "no crawls yet".
 */
export async function fetchCrawls(websiteId: string, signal?: AbortSignal): Promise<Crawl[]> {
  try {
    return await postJson<Crawl[]>(`${BASE}/crawl/get-redux`, { websiteId }, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function approveCrawl(moduleId: string | number, websiteId: string): Promise<unknown> {
  return postJson<unknown>(`${BASE}/crawl/approve`, { moduleId, websiteId });
}

/** comparisonId: the crawl the added/removed counts compare with; null for none, omitted for the next older. */
export function fetchOverview(
  input: { websiteId: string; currentId: number; comparisonId?: number | null; refresh?: boolean },
  signal?: AbortSignal,
): Promise<Overview> {
  return postJson<Overview>(
    `${BASE}/overview/get-overview`,
    {
      websiteId: input.websiteId,
      currentId: input.currentId,
      ...(input.comparisonId === undefined ? {} : { comparisonId: input.comparisonId }),
      refresh: input.refresh ?? false,
    },
    { signal },
  );
}

export function fetchSummary(
  query: ReportQuery & { trendCrawlIds: number[]; skipCache: boolean },
  signal?: AbortSignal,
): Promise<ReportSummary> {
  return postJson<ReportSummary>(`${BASE}/report/get-summary`, query, { signal });
}

export function saveChecklist(save: ChecklistSave): Promise<ChecklistSaved> {
  return postJson<ChecklistSaved>(`${BASE}/checklist/save`, save);
}
