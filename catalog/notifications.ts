/**
 * What internal users are told when a crawl run of one of their websites ends, as both sides see it: the dashboard's
 * notice list and the email say the same words.
 *
 * POST /api/notifications/list          {}                   → NotificationsAnswer
 * POST /api/notifications/mark-read     {ids} or {all: true} → {unread}
 * POST /api/notifications/save-settings {isCrawlEmailed}     → {isCrawlEmailed}
 *
 * Who is told: STAFF bound to the website, and whoever started the run by hand (an ADMIN too), since admins see every
 * website and hearing of every crawl of every client would drown what they asked for. CLIENT users are never told:
 * the calls answer them 404, as a call that does not exist.
 */
import { PARTIAL_REASON_TEXT } from './crawl-label.ts';
import type { PartialReason } from './export-contract.ts';
import { formatNumber } from './format.ts';

/** How a run ended, as its notice says: loaded whole, loaded with part of the website, or failed. */
export type RunNoticeOutcome = 'finished' | 'partial' | 'failed';

/** Notices a list answers, newest first. */
export const NOTICE_LIST_LIMIT = 50;

export interface RunNotice {
  id: number;
  websiteId: string;
  runId: number;
  /** The crawl the run was loaded as; null when it failed. */
  crawlId: number | null;
  outcome: RunNoticeOutcome;
  title: string;
  detail: string;
  /** Where the notice leads in the dashboard: the crawl's overview, or the Crawls page of a failed run. */
  path: string;
  /** ISO date-time. */
  createdAt: string;
  isRead: boolean;
}

export interface NotificationsAnswer {
  notices: RunNotice[];
  unread: number;
  /** Whether the user is emailed as well (on until they switch it off). */
  isCrawlEmailed: boolean;
}

/** What a notice is made of: the run as it ended and the crawl it was loaded as. */
export interface RunNoticeFacts {
  websiteName: string;
  outcome: RunNoticeOutcome;
  /** The crawl's label (crawl-label.ts); for a failed run, when it started ("25 Nov 2026, 14:05"). */
  label: string;
  pagesDone: number;
  errors: number;
  parseFailures: number;
  partial: PartialReason | null;
  reason: string | null;
}

const plural = (count: number, one: string, many: string): string =>
  `${formatNumber(count)} ${count === 1 ? one : many}`;

/** "Crawl of Northwind Outfitters finished" and "25 Nov 2026 (crawl 3): 1,204 pages crawled, 3 errors." */
export function runNoticeText(f: RunNoticeFacts): { title: string; detail: string } {
  const counts = [
    `${plural(f.pagesDone, 'page', 'pages')} crawled`,
    plural(f.errors, 'error', 'errors'),
    ...(f.parseFailures > 0 ? [`${plural(f.parseFailures, 'page', 'pages')} not parsed`] : []),
  ].join(', ');
  switch (f.outcome) {
    case 'finished':
      return { title: `Crawl of ${f.websiteName} finished`, detail: `${f.label}: ${counts}.` };
    case 'partial':
      return {
        title: `Crawl of ${f.websiteName} finished, partial`,
        detail: `${f.label}: ${counts}. Partial: ${PARTIAL_REASON_TEXT[f.partial ?? 'stopped']}.`,
      };
    case 'failed':
      return {
        title: `Crawl of ${f.websiteName} failed`,
        detail: `Started ${f.label}: ${counts}. ${f.reason ?? 'The crawl failed'}`,
      };
  }
}
