/**
 * Notices of ended crawl runs in the app database (catalog/notifications.ts says who is told and why). A run's notices
 * are written in the transaction that ends it, so every replica lists them at once and a crash between the two
 * cannot lose them; (run, user) is unique, so a run is told to each user once.
 */
import type { PartialReason } from '../../catalog/export-contract.ts';
import { NOTICE_LIST_LIMIT } from '../../catalog/notifications.ts';
import type { Sql } from '../app-db/sql.ts';

/**
 * Writes the notices of a run that has just ended loaded or failed: one for each STAFF user bound to its website and
 * one for the internal user who started it (an unbound STAFF user, who no longer sees the website, is not told, nor
 * is a disabled user).
 * Each carries the user's email address unless they switched the email off.
 */
export async function queueRunNotices(tx: Sql, runId: number, now: Date): Promise<void> {
  await tx.run(
    `INSERT INTO notifications (user_id, website_id, run_id, created_at, email)
     SELECT u.id, r.website_id, r.id, ?, CASE WHEN coalesce(s.is_crawl_emailed, true) THEN u.email END
     FROM crawl_runs r
     JOIN users u ON (u.role = 'ADMIN' AND u.email = r.started_by)
       OR (u.role = 'STAFF' AND EXISTS (
         SELECT 1 FROM user_websites b WHERE b.user_id = u.id AND b.website_id = r.website_id))
     LEFT JOIN notification_settings s ON s.user_id = u.id
     WHERE r.id = ? AND r.status IN ('loaded', 'failed') AND u.disabled_at IS NULL
     ON CONFLICT (run_id, user_id) DO NOTHING`,
    [now, runId],
  );
}

/** A notice with its run as it ended, and the website's name. */
export interface NoticeRow {
  id: number;
  user_id: number;
  website_id: string;
  run_id: number;
  created_at: Date;
  read_at: Date | null;
  website_name: string;
  status: 'loaded' | 'failed';
  crawl_id: number | null;
  reason: string | null;
  pages_done: number;
  errors: number;
  parse_failures: number;
  started_at: Date | null;
  queued_at: Date;
}

const NOTICE_COLUMNS = `n.id, n.user_id, n.website_id, n.run_id, n.created_at, n.read_at, w.name AS website_name,
  r.status, r.crawl_id, r.reason, r.pages_done, r.errors, r.parse_failures, r.started_at, r.queued_at`;

/** Only notices of websites the user sees now: a STAFF user unbound since hears no more of that website. */
const VISIBLE = `n.user_id = ? AND (? OR EXISTS (
  SELECT 1 FROM user_websites b WHERE b.user_id = n.user_id AND b.website_id = n.website_id))`;

export interface NoticeReader {
  userId: number;
  seesAllWebsites: boolean;
}

export async function listNotices(sql: Sql, user: NoticeReader): Promise<{ rows: NoticeRow[]; unread: number }> {
  const params = [user.userId, user.seesAllWebsites];
  const rows = await sql.all<NoticeRow>(
    `SELECT ${NOTICE_COLUMNS} FROM notifications n
     JOIN crawl_runs r ON r.id = n.run_id JOIN websites w ON w.id = n.website_id
     WHERE ${VISIBLE} ORDER BY n.id DESC LIMIT ?`,
    [...params, NOTICE_LIST_LIMIT],
  );
  const [count] = await sql.all<{ unread: number }>(
    `SELECT count(*)::INTEGER AS unread FROM notifications n
     JOIN websites w ON w.id = n.website_id WHERE ${VISIBLE} AND n.read_at IS NULL`,
    params,
  );
  return { rows, unread: count?.unread ?? 0 };
}

/** Marks the user's notices read: those named, or all. */
export async function markNoticesRead(sql: Sql, userId: number, ids: readonly number[] | 'all', now: Date) {
  if (ids === 'all') {
    await sql.run('UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL', [now, userId]);
    return;
  }
  for (const id of ids)
    await sql.run('UPDATE notifications SET read_at = ? WHERE id = ? AND user_id = ? AND read_at IS NULL', [
      now,
      id,
      userId,
    ]);
}

export async function isCrawlEmailed(sql: Sql, userId: number): Promise<boolean> {
  const [row] = await sql.all<{ is_crawl_emailed: boolean }>(
    'SELECT is_crawl_emailed FROM notification_settings WHERE user_id = ?',
    [userId],
  );
  return row?.is_crawl_emailed ?? true;
}

/** Saves the user's choice; notices already queued keep theirs, later ones follow it. */
export async function saveCrawlEmailed(sql: Sql, userId: number, isEmailed: boolean): Promise<void> {
  await sql.run(
    `INSERT INTO notification_settings (user_id, is_crawl_emailed) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET is_crawl_emailed = excluded.is_crawl_emailed`,
    [userId, isEmailed],
  );
}

/** Notices whose email waits: not sent, not given up on. */
export async function queuedNoticeEmails(sql: Sql, maxAttempts: number): Promise<(NoticeRow & { email: string })[]> {
  return sql.all(
    `SELECT ${NOTICE_COLUMNS}, n.email FROM notifications n
     JOIN crawl_runs r ON r.id = n.run_id JOIN websites w ON w.id = n.website_id
     WHERE n.email IS NOT NULL AND n.email_sent_at IS NULL AND n.email_attempts < ?
     ORDER BY n.id`,
    [maxAttempts],
  );
}

/** Claims a notice's email for `claimMs` so one replica sends it; false when another holds it or it went. */
export async function claimNoticeEmail(sql: Sql, id: number, now: Date, claimMs: number): Promise<boolean> {
  const claimed = await sql.all(
    `UPDATE notifications SET email_claimed_until = ?
     WHERE id = ? AND email_sent_at IS NULL AND (email_claimed_until IS NULL OR email_claimed_until < ?) RETURNING 1`,
    [new Date(now.getTime() + claimMs), id, now],
  );
  return claimed.length > 0;
}

/** Records a send: `error` null when it went. */
export async function recordNoticeEmail(sql: Sql, id: number, error: string | null, now: Date): Promise<void> {
  await sql.run(
    `UPDATE notifications SET email_sent_at = ?, email_attempts = email_attempts + 1, email_error = ?,
       email_claimed_until = NULL WHERE id = ?`,
    [error === null ? now : null, error?.slice(0, 500) ?? null, id],
  );
}

/** The partial reason of a loaded crawl, as its manifest says; null when whole or no longer loaded. */
export type PartialOf = (websiteId: string, crawlId: number) => PartialReason | null;
