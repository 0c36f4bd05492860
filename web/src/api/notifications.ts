/** The notification calls of catalog/notifications.ts (internal users only; a client gets 404). */
import type { NotificationsAnswer } from '../../../catalog/notifications.ts';
import { postJson } from './client.ts';

const BASE = '/api/notifications';

export function fetchNotifications(signal?: AbortSignal): Promise<NotificationsAnswer> {
  return postJson<NotificationsAnswer>(`${BASE}/list`, {}, { signal });
}

export async function markNotificationsRead(ids: readonly number[] | 'all'): Promise<number> {
  const body = ids === 'all' ? { all: true } : { ids };
  return (await postJson<{ unread: number }>(`${BASE}/mark-read`, body)).unread;
}

export async function saveCrawlEmailed(isCrawlEmailed: boolean): Promise<boolean> {
  return (await postJson<{ isCrawlEmailed: boolean }>(`${BASE}/save-settings`, { isCrawlEmailed })).isCrawlEmailed;
}
