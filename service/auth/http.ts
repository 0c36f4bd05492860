/** Request helpers shared by the account, approval, checklist and admin routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppDataError } from '../app-db/errors.ts';
import type { AuthContext } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set for /api/ calls before any handler runs; null when anonymous. */
    auth: AuthContext | null;
  }
}

export const NOT_SIGNED_IN = { error: 'Not signed in' } as const;
export const BAD_CSRF = { error: 'Missing or invalid CSRF token' } as const;

/** The signed-in user of a call the auth guard let through. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error(`${request.url} ran without a session; the auth guard must cover it`);
  return request.auth;
}

/** Answers an AppDataError with its status and message; anything else is rethrown as a 500. */
export function sendAppError(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AppDataError) return reply.code(error.status).send({ error: error.message });
  throw error;
}
