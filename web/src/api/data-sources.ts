/** The Data sources calls of catalog/data-source-calls.ts (internal users only; everyone else gets 404). */
import type { DataSourcesAnswer, ImportJob } from '../../../catalog/data-source-calls.ts';
import type { DataSourceId } from '../../../catalog/data-sources.ts';
import { postForm, postJson } from './client.ts';

const BASE = '/api/data-sources';

export function fetchDataSources(websiteId: string, signal?: AbortSignal): Promise<DataSourcesAnswer> {
  return postJson<DataSourcesAnswer>(`${BASE}/list`, { websiteId }, { signal });
}

/** Uploads the files into the source; answers once they are checked, the crawls' refresh then runs as the job. */
export async function uploadSourceFiles(
  websiteId: string,
  source: DataSourceId,
  files: readonly File[],
  onProgress?: (fraction: number) => void,
  isReplace = false,
): Promise<ImportJob> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const query = new URLSearchParams({ websiteId, source, ...(isReplace && { replace: 'true' }) });
  return (await postForm<{ job: ImportJob }>(`${BASE}/upload?${query.toString()}`, form, onProgress)).job;
}

export async function removeSourceImport(
  websiteId: string,
  source: DataSourceId,
  importId: string,
): Promise<ImportJob> {
  return (await postJson<{ job: ImportJob }>(`${BASE}/remove-import`, { websiteId, source, importId })).job;
}
