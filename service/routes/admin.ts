/**
 * The admin commands over HTTP (service/admin/), both answering {output} or {error[, field]}:
 * POST /api/admin/cli {command}  the admin CLI's hand-over while the service holds the embedded app database: loopback
 *                                 connections only, authenticated by `x-admin-token` = DATA_DIR/admin.token.
 * POST /api/admin/run {command}  the same for a signed-in ADMIN, or a STAFF user within their websites and their
 *                                 clients (service/admin/actor.ts); to a CLIENT the call does not exist (404).
 * Usage errors are 400 naming the field, refusals their AppDataError status (403 ADMIN only, 404 unknown or out of
 * reach, 409 duplicate). Every change is in the audit log (who, what, when).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UsageError, parseAdminCommand } from '../admin/commands.ts';
import { runAdminCommand, type AdminContext } from '../admin/run-command.ts';
import { CLI_ACTOR, type Actor } from '../admin/actor.ts';
import type { Accounts } from '../auth/accounts.ts';
import { authOf, sendAppError } from '../auth/http.ts';
import { isSameToken } from '../auth/sessions.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const bodySchema = z.object({ command: z.unknown() });

export interface AdminRouteParts {
  accounts: Pick<Accounts, 'appDb' | 'clock' | 'adminToken'>;
  mail: AdminContext['mail'];
  store: AdminContext['store'];
}

/** The signed-in caller as an admin actor; undefined for a CLIENT, to whom the admin calls do not exist. */
export function actorOf(request: FastifyRequest): Actor | undefined {
  const auth = authOf(request);
  if (!auth.isInternal) return undefined;
  return { email: auth.email, role: auth.role, websites: auth.websites };
}

/** The answer a call that does not exist gets (app.ts's not-found handler). */
export const notFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
  reply.code(404).send({ error: `${request.method} ${request.url.split('?')[0]} does not exist` });

export function registerAdminRoutes(app: FastifyInstance, { accounts, mail, store }: AdminRouteParts): void {
  const run = async (request: FastifyRequest, reply: FastifyReply, actor: Actor) => {
    const body = bodySchema.safeParse(request.body ?? {});
    try {
      const command = parseAdminCommand(body.success ? body.data.command : undefined);
      const context = { appDb: accounts.appDb, now: accounts.clock(), actor, mail, store };
      return { output: await runAdminCommand(context, command) };
    } catch (error) {
      if (error instanceof UsageError)
        return reply.code(400).send({ error: error.message, ...(error.field && { field: error.field }) });
      return sendAppError(reply, error);
    }
  };

  app.post('/api/admin/cli', async (request, reply) => {
    const token = request.headers['x-admin-token'];
    // The socket's own address: X-Forwarded-For, trusted or not, must not make a remote call look local.
    const isLoopback = LOOPBACK.test(request.raw.socket.remoteAddress ?? '');
    if (!isLoopback || typeof token !== 'string' || !isSameToken(token, accounts.adminToken))
      return reply.code(403).send({ error: 'Forbidden' });
    return run(request, reply, CLI_ACTOR);
  });

  app.post('/api/admin/run', async (request, reply) => {
    const actor = actorOf(request);
    if (!actor) return notFound(request, reply);
    return run(request, reply, actor);
  });
}
