/** The administration calls' answers (service/routes/admin-*.ts), as both sides see them. */
import type { Role, Website } from './api.ts';

export interface AdminUser {
  id: number;
  email: string;
  role: Role;
  websites: string[];
  isDisabled: boolean;
}

/** A live session: who is signed in, since when, from where. */
export interface AdminSession {
  id: number;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  address: string | null;
  userAgent: string | null;
}

export interface AdminLogEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  detail: string;
}

/** POST /api/admin/get-websites: the websites the caller manages, archived ones included. */
export interface AdminWebsitesAnswer {
  websites: Website[];
}

/** POST /api/admin/get-users: the users the caller manages. */
export interface AdminUsersAnswer {
  users: AdminUser[];
}

/** POST /api/admin/get-sessions. */
export interface AdminSessionsAnswer {
  sessions: AdminSession[];
}

/** POST /api/admin/get-audit-log: ADMIN only, newest first. */
export interface AdminLogAnswer {
  entries: AdminLogEntry[];
}

/** POST /api/admin/run: the command's one-line answer; a refusal is {error, field?} with a 4xx status. */
export interface AdminRunAnswer {
  output: string;
}
