/**
 * The signed-in internal user's crawl-run notices and their email switch (catalog/notifications.ts), read by the bell
 * in the header. Marking read and switching the email update what is shown at once, then keep the service's answer.
 */
import { create } from 'zustand';
import type { NotificationsAnswer } from '../../../catalog/notifications.ts';
import { fetchNotifications, markNotificationsRead, saveCrawlEmailed } from '../api/notifications.ts';
import { isAbortError } from '../api/client.ts';
import { errorText } from '../lib/load-state.ts';

interface NotificationsStore {
  answer: NotificationsAnswer | undefined;
  /** The last read or change failed (the answer shown, if any, is kept). */
  error: string | undefined;
  load: () => Promise<void>;
  markRead: (ids: readonly number[] | 'all') => Promise<void>;
  setCrawlEmailed: (isCrawlEmailed: boolean) => Promise<void>;
  reset: () => void;
}

let controller: AbortController | undefined;

export const useNotificationsStore = create<NotificationsStore>()((set, get) => ({
  answer: undefined,
  error: undefined,

  load: async () => {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    try {
      const answer = await fetchNotifications(mine.signal);
      if (controller === mine) set({ answer, error: undefined });
    } catch (error) {
      if (!isAbortError(error) && controller === mine) set({ error: errorText(error) });
    }
  },

  markRead: async (ids) => {
    const answer = get().answer;
    if (answer) {
      const isMarked = (id: number) => ids === 'all' || ids.includes(id);
      const notices = answer.notices.map((n) => (isMarked(n.id) ? { ...n, isRead: true } : n));
      set({ answer: { ...answer, notices, unread: Math.max(0, answer.unread - countNewlyRead(answer, isMarked)) } });
    }
    try {
      const unread = await markNotificationsRead(ids);
      const now = get().answer;
      if (now) set({ answer: { ...now, unread }, error: undefined });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  setCrawlEmailed: async (isCrawlEmailed) => {
    const before = get().answer;
    if (before) set({ answer: { ...before, isCrawlEmailed } });
    try {
      const saved = await saveCrawlEmailed(isCrawlEmailed);
      const now = get().answer;
      if (now) set({ answer: { ...now, isCrawlEmailed: saved }, error: undefined });
    } catch (error) {
      const now = get().answer;
      set({ error: errorText(error), ...(now && { answer: { ...now, isCrawlEmailed: !isCrawlEmailed } }) });
    }
  },

  reset: () => {
    controller?.abort();
    set({ answer: undefined, error: undefined });
  },
}));

const countNewlyRead = (answer: NotificationsAnswer, isMarked: (id: number) => boolean): number =>
  answer.notices.filter((n) => !n.isRead && isMarked(n.id)).length;
