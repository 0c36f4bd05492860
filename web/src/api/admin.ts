/** The administration calls (service/routes/admin*.ts): lists, and every change as an admin command. */
import type {
  AdminLogAnswer,
  AdminRunAnswer,
  AdminSessionsAnswer,
  AdminUsersAnswer,
  AdminWebsitesAnswer,
} from '../../../catalog/admin-api.ts';
import { postJson } from './client.ts';

export type { AdminLogEntry, AdminSession, AdminUser } from '../../../catalog/admin-api.ts';

/** A command as the admin CLI takes it (service/admin/commands.ts), e.g. {command: 'user add', email, …}. */
export type AdminCommand = { command: string } & Record<string, unknown>;

export const runAdminCommand = async (command: AdminCommand): Promise<string> =>
  (await postJson<AdminRunAnswer>('/api/admin/run', { command })).output;

export const fetchAdminWebsites = async (signal?: AbortSignal) =>
  (await postJson<AdminWebsitesAnswer>('/api/admin/get-websites', {}, { signal })).websites;
export const fetchAdminUsers = async (signal?: AbortSignal) =>
  (await postJson<AdminUsersAnswer>('/api/admin/get-users', {}, { signal })).users;
export const fetchAdminSessions = async (signal?: AbortSignal) =>
  (await postJson<AdminSessionsAnswer>('/api/admin/get-sessions', {}, { signal })).sessions;
export const fetchAuditLog = async (signal?: AbortSignal) =>
  (await postJson<AdminLogAnswer>('/api/admin/get-audit-log', {}, { signal })).entries;

/** Sets a password with a one-time link's token (public: the link is the proof). */
export const setPasswordWithLink = (token: string, password: string) =>
  postJson<{ email: string }>('/api/auth/set-password', { token, password }, { isSessionProbe: true });
