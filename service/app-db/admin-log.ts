/**
 * The audit log of administration: every change an admin command makes (from the CLI or the dashboard), who made it
 * and when, written in the transaction of the change so one is never kept without the other.
 */
import type { Sql } from './sql.ts';

export interface AdminLogEntry {
  id: number;
  at: Date;
  /** The signed-in user's email, or `cli` for the admin CLI on the server. */
  actor: string;
  /** The command, e.g. `user add`. */
  action: string;
  /** What it changed: a website id, a user's email, a session. */
  target: string;
  /** The command's own one-line answer. */
  detail: string;
}

export async function writeAdminLog(tx: Sql, entry: Omit<AdminLogEntry, 'id'>): Promise<void> {
  await tx.run('INSERT INTO admin_log (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)', [
    entry.at,
    entry.actor,
    entry.action,
    entry.target,
    entry.detail,
  ]);
}

/** The newest entries first. */
export async function listAdminLog(sql: Sql, limit = 500): Promise<AdminLogEntry[]> {
  return sql.all<AdminLogEntry>(
    'SELECT id, at, actor, action, target, detail FROM admin_log ORDER BY id DESC LIMIT ?',
    [limit],
  );
}
