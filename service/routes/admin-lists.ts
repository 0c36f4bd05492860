/**
 * What the dashboard's administration pages list, for a signed-in ADMIN or STAFF user (to a CLIENT these calls do not
 * exist: 404). Each lists only what the caller manages (service/admin/lists.ts):
 * POST /api/admin/get-websites  → {websites}   the caller's websites, archived ones included
 * POST /api/admin/get-users     → {users}      ADMIN: every user; STAFF: the clients of their websites
 * POST /api/admin/get-sessions  → {sessions}   the live sessions of those users (and the caller's own)
 * POST /api/admin/get-audit-log → {entries}    ADMIN only: the latest changes, newest first
 */
import type { FastifyInstance } from 'fastify';
import type {
  AdminLogAnswer,
  AdminSessionsAnswer,
  AdminUsersAnswer,
  AdminWebsitesAnswer,
} from '../../catalog/admin-api.ts';
import type { AppDb } from '../app-db/db.ts';
import { isAdminActor } from '../admin/actor.ts';
import { auditLog, visibleSessions, visibleUsers, visibleWebsites } from '../admin/lists.ts';
import { actorOf, notFound } from './admin.ts';

export function registerAdminListRoutes(app: FastifyInstance, { appDb, clock }: { appDb: AppDb; clock: () => Date }) {
  app.post('/api/admin/get-websites', async (request, reply): Promise<AdminWebsitesAnswer | typeof reply> => {
    const actor = actorOf(request);
    if (!actor) return notFound(request, reply);
    return { websites: await visibleWebsites(appDb, actor) };
  });

  app.post('/api/admin/get-users', async (request, reply): Promise<AdminUsersAnswer | typeof reply> => {
    const actor = actorOf(request);
    if (!actor) return notFound(request, reply);
    return { users: await visibleUsers(appDb, actor) };
  });

  app.post('/api/admin/get-sessions', async (request, reply): Promise<AdminSessionsAnswer | typeof reply> => {
    const actor = actorOf(request);
    if (!actor) return notFound(request, reply);
    const sessions = await visibleSessions(appDb, actor, clock());
    return {
      sessions: sessions.map(({ userId: _, createdAt, expiresAt, ...s }) => ({
        ...s,
        createdAt: createdAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
      })),
    };
  });

  app.post('/api/admin/get-audit-log', async (request, reply): Promise<AdminLogAnswer | typeof reply> => {
    const actor = actorOf(request);
    if (!actor || !isAdminActor(actor)) return notFound(request, reply);
    const entries = await auditLog(appDb);
    return { entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })) };
  });
}
