/**
 * POST /api/auth/login   {email, password} → {user:{email, role, websites}, csrfToken} + the session cookie
 * POST /api/auth/logout  → {ok:true}; the session is revoked and the cookie cleared
 * GET  /api/auth/me      → {user:{email, role, websites}, csrfToken}, or 401 when not signed in
 *
 * A wrong password and an unknown email get the same 401 after the same work; a disabled account, 403. Failed sign-ins are limited per
 * account and address, and per address (auth/login-limiter.ts) → 429 with Retry-After in seconds.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { SessionAnswer, SessionUser } from '../../catalog/api.ts';
import { findUserByEmail, type UserRow } from '../app-db/users.ts';
import { listWebsites } from '../app-db/websites.ts';
import type { Accounts } from '../auth/accounts.ts';
import { authOf } from '../auth/http.ts';
import { readBody } from './read-body.ts';
import { verifyAgainstNothing, verifyPassword } from '../auth/password.ts';
import { SESSION_COOKIE, createSession, findSession, revokeSession, type AuthContext } from '../auth/sessions.ts';

export const INVALID_LOGIN = { error: 'Invalid email or password' } as const;
/** Told only to whoever gave the right password. */
export const ACCOUNT_DISABLED = { error: 'This account is disabled; ask your administrator' } as const;
export const TOO_MANY_LOGINS = 'Too many sign-in attempts; try again later';

const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1).max(320),
  password: z.string().min(1).max(200),
});

export function registerAuthRoutes(
  app: FastifyInstance,
  accounts: Pick<Accounts, 'appDb' | 'clock' | 'settings' | 'loginLimiter'>,
): void {
  /** Everything a signed-in dashboard needs about its user: role and visible websites. */
  const describe = async (
    auth: Pick<AuthContext, 'email' | 'role' | 'seesAllWebsites' | 'websites'>,
  ): Promise<SessionUser> => ({
    email: auth.email,
    role: auth.role,
    websites: auth.seesAllWebsites ? (await listWebsites(accounts.appDb)).map((w) => w.id) : [...auth.websites],
  });

  app.post('/api/auth/login', async (request, reply: FastifyReply) => {
    const body = readBody(loginSchema, request, reply);
    if (!body) return reply;
    const attempt = await accounts.loginLimiter.begin(body.email, request.ip);
    if (!attempt.isAllowed)
      return reply.code(429).header('retry-after', attempt.retryAfterSeconds).send({ error: TOO_MANY_LOGINS });
    let isValid = false;
    let user: UserRow | undefined;
    try {
      user = await findUserByEmail(accounts.appDb, body.email);
      isValid = user
        ? await verifyPassword(body.password, user.password_hash)
        : await verifyAgainstNothing(body.password);
    } finally {
      await attempt.finish(isValid);
    }
    if (!user || !isValid) return reply.code(401).send(INVALID_LOGIN);
    if (user.disabled_at !== null) return reply.code(403).send(ACCOUNT_DISABLED);
    const now = accounts.clock();
    const origin = { address: request.ip, userAgent: request.headers['user-agent'] };
    const session = await accounts.appDb.transaction((tx) =>
      createSession(tx, user.id, now, accounts.settings.sessionTtlMs, origin),
    );
    const auth = await findSession(accounts.appDb, session.token, now);
    if (!auth) throw new Error('A session just created could not be read back');
    void reply.setCookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      expires: session.expiresAt,
    });
    return { user: await describe(auth), csrfToken: session.csrfToken };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await revokeSession(accounts.appDb, authOf(request).tokenHash, accounts.clock());
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  });

  app.get('/api/auth/me', async (request): Promise<SessionAnswer> => {
    const auth = authOf(request);
    return { user: await describe(auth), csrfToken: auth.csrfToken };
  });
}
