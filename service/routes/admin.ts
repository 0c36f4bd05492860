/**
 * The admin commands over HTTP (service/admin/commands.ts), both answering {output} or {error}:
 * POST /api/admin/cli {command}  the admin CLI's hand-over while the service holds the embedded app database: loopback
 *                                 connections only, authenticated by `x-admin-token` = DATA_DIR/admin.token.
 * POST /api/admin/run {command}  the same for a signed-in ADMIN (session + CSRF token).
 * Usage errors are 400, refusals their AppDataError status (404 unknown user/website, 409 duplicate).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UsageError, parseAdminCommand, runAdminCommand } from '../admin/commands.ts';
import type { Accounts } from '../auth/accounts.ts';
import { authOf, sendAppError } from '../auth/http.ts';
import { isSameToken } from '../auth/sessions.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const bodySchema = z.object({ command: z.unknown() });

export function registerAdminRoutes(
  app: FastifyInstance,
  accounts: Pick<Accounts, 'appDb' | 'clock' | 'adminToken'>,
): void {
  const run = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = bodySchema.safeParse(request.body ?? {});
    try {
      const command = parseAdminCommand(body.success ? body.data.command : undefined);
      return { output: await runAdminCommand({ appDb: accounts.appDb, now: accounts.clock() }, command) };
    } catch (error) {
      if (error instanceof UsageError) return reply.code(400).send({ error: error.message });
      return sendAppError(reply, error);
    }
  };

  app.post('/api/admin/cli', async (request, reply) => {
    const token = request.headers['x-admin-token'];
    // The socket's own address: X-Forwarded-For, trusted or not, must not make a remote call look local.
    const isLoopback = LOOPBACK.test(request.raw.socket.remoteAddress ?? '');
    if (!isLoopback || typeof token !== 'string' || !isSameToken(token, accounts.adminToken))
      return reply.code(403).send({ error: 'Forbidden' });
    return run(request, reply);
  });

  app.post('/api/admin/run', async (request, reply) => {
    if (authOf(request).role !== 'ADMIN')
      return reply.code(403).send({ error: 'Only ADMIN users can run admin commands' });
    return run(request, reply);
  });
}
