/**
 * POST /api/auth/set-password {token, password} → {email}: the page a one-time link (an invitation or a password
 * reset, service/auth/password-tokens.ts) opens sets the password with it. Public: whoever holds the link is the
 * user. The password follows the admin CLI's rule; the user's sessions are signed out, and the link is spent.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDb } from '../app-db/db.ts';
import { passwordSchema } from '../app-db/model.ts';
import { writeAdminLog } from '../app-db/admin-log.ts';
import { sendAppError } from '../auth/http.ts';
import { hashPassword } from '../auth/password.ts';
import { usePasswordToken } from '../auth/password-tokens.ts';

export const SET_PASSWORD_CALL = '/api/auth/set-password';

const bodySchema = z.object({ token: z.string().min(1).max(200), password: z.unknown() });

export function registerPasswordLinkRoutes(
  app: FastifyInstance,
  { appDb, clock }: { appDb: AppDb; clock: () => Date },
): void {
  app.post(SET_PASSWORD_CALL, async (request, reply) => {
    const body = bodySchema.safeParse(request.body ?? {});
    if (!body.success)
      return reply.code(400).send({ error: 'The link is incomplete: open it again from the email', field: 'token' });
    const password = passwordSchema.safeParse(body.data.password);
    if (!password.success)
      return reply
        .code(400)
        .send({ error: `password: ${password.error.issues[0]?.message ?? 'not valid'}`, field: 'password' });
    const passwordHash = await hashPassword(password.data);
    const now = clock();
    try {
      const email = await appDb.transaction(async (tx) => {
        const user = await usePasswordToken(tx, body.data.token, passwordHash, now);
        await writeAdminLog(tx, {
          at: now,
          actor: user,
          action: 'set password',
          target: user,
          detail: `${user} chose a password with a one-time link`,
        });
        return user;
      });
      return { email };
    } catch (error) {
      return sendAppError(reply, error);
    }
  });
}
