/** The crawl-runs calls of catalog/crawl-runs.ts (internal users only; everyone else gets 404). */
import type {
  CrawlRun,
  CrawlRunsAnswer,
  CrawlSettings,
  CrawlSettingsAnswer,
  CrawlSettingsProblem,
} from '../../../catalog/crawl-runs.ts';
import { ApiError, postJson } from './client.ts';

const BASE = '/api/crawl-runs';

export function fetchCrawlSettings(websiteId: string, signal?: AbortSignal): Promise<CrawlSettingsAnswer> {
  return postJson<CrawlSettingsAnswer>(`${BASE}/get-settings`, { websiteId }, { signal });
}

export function saveCrawlSettings(websiteId: string, settings: CrawlSettings): Promise<CrawlSettingsAnswer> {
  return postJson<CrawlSettingsAnswer>(`${BASE}/save-settings`, { websiteId, settings });
}

/** The field-level problem of a 400 answer of save-settings, or undefined for any other failure. */
export function settingsProblemOf(error: unknown): CrawlSettingsProblem | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const field = error.body?.field;
  return typeof field === 'string' ? ({ error: error.message, field } as CrawlSettingsProblem) : undefined;
}

export function fetchCrawlRuns(websiteId: string, signal?: AbortSignal): Promise<CrawlRunsAnswer> {
  return postJson<CrawlRunsAnswer>(`${BASE}/list`, { websiteId }, { signal });
}

export async function startCrawlRun(websiteId: string): Promise<CrawlRun> {
  return (await postJson<{ run: CrawlRun }>(`${BASE}/start`, { websiteId })).run;
}

export async function cancelCrawlRun(websiteId: string, runId: number, keepCrawled: boolean): Promise<CrawlRun> {
  return (await postJson<{ run: CrawlRun }>(`${BASE}/cancel`, { websiteId, runId, keepCrawled })).run;
}
