/**
 * Wires accounts into the app: security headers, cookies and the auth guard with its CSRF check. Returns the
 * access check the routes use; the routes themselves are registered by app.ts.
 *
 * The guard runs on every /api/ call before its handler:
 * - it resolves the session cookie to `request.auth`;
 * - anonymous calls get 401 {error:'Not signed in'}, except the public ones (health, liveness, login, and the admin
 *   CLI's hand-over, which has its own token, and setting a password with a one-time link, which is its own proof);
 * - state-changing calls need `x-csrf-token` equal to the session's token, else 403. Exempt are GET, login,
 *   and the read-only calls: websites/list and every call named `get-*` (report, overview, crawl list, checklist
 *   items, AI). They change nothing, and SameSite=Lax keeps the cookie off cross-site POSTs anyway.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import helmet from 'helmet';
import { AppDbUnreachableError } from '../app-db/errors.ts';
import type { AccessCheck } from './access.ts';
import type { Accounts } from './accounts.ts';
import { BAD_CSRF, NOT_SIGNED_IN } from './http.ts';
import { SESSION_COOKIE, findSession, isSameToken } from './sessions.ts';

export const HEALTH_CALL = '/api/health';
/** Answers without the app database, so it stays 200 whenever the process runs. */
export const LIVENESS_CALL = '/api/health/live';
export const PUBLIC_CALLS: ReadonlySet<string> = new Set([
  HEALTH_CALL,
  LIVENESS_CALL,
  '/api/auth/login',
  '/api/auth/set-password',
  '/api/admin/cli',
]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isReadOnlyCall = (route: string): boolean =>
  route === '/api/websites/list' || /^\/api\/.+\/get-[a-z-]+$/.test(route);

const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? request.url.split('?')[0]!;

export async function registerAccounts(app: FastifyInstance, accounts: Accounts): Promise<AccessCheck> {
  // Browsers ignore these over plain HTTP, and log an error for COOP on every page of a host other than localhost.
  const { isBehindHttps } = accounts.settings;
  // Built once, not per request as @fastify/helmet does (12 µs a request when warm, more after a pause).
  const securityHeaders = helmet({
    crossOriginOpenerPolicy: isBehindHttps,
    strictTransportSecurity: isBehindHttps,
    originAgentCluster: isBehindHttps,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and Observable Plot set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)),
  );
  await app.register(fastifyCookie);
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request, reply) => {
    const route = routeOf(request);
    if (!route.startsWith('/api/') && !request.url.startsWith('/api/')) return;
    if (route === LIVENESS_CALL) return;
    const token = request.cookies[SESSION_COOKIE];
    // Health reports an unreachable app database itself: a session it cannot read makes the call anonymous.
    const session =
      token &&
      (await findSession(accounts.appDb, token, accounts.clock()).catch((error: unknown) => {
        if (route === HEALTH_CALL && error instanceof AppDbUnreachableError) return undefined;
        throw error;
      }));
    request.auth = session || null;
    if (PUBLIC_CALLS.has(route)) return;
    if (!request.auth) return reply.code(401).send(NOT_SIGNED_IN);
    if (SAFE_METHODS.has(request.method) || isReadOnlyCall(route)) return;
    const given = request.headers['x-csrf-token'];
    if (typeof given !== 'string' || !isSameToken(given, request.auth.csrfToken)) return reply.code(403).send(BAD_CSRF);
  });

  return accounts.access;
}
