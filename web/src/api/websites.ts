import { postJson } from './client.ts';
import type { Website } from './types.ts';

export async function fetchWebsites(signal?: AbortSignal): Promise<Website[]> {
  const answer = await postJson<{ websites: Website[] }>('/api/websites/list', {}, { signal });
  return answer.websites;
}
