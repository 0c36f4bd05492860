/**
 * Every error a handler throws answers JSON in the routes' own shape. A 4xx from Fastify itself (bad JSON, a
 * body too large) keeps its message; an app database server that cannot be reached is a 503 saying so; anything
 * else is a 5xx with a generic message and the request id, and its detail (a DuckDB message, a stack) goes only to
 * the log under that id.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppDbUnreachableError } from '../app-db/errors.ts';

export const INTERNAL_ERROR = 'An unexpected error occurred; quote the request id when reporting it';
export const APP_DB_UNREACHABLE = 'The app database is unreachable; try again in a moment';
/** Seconds a client is asked to wait while the app database is unreachable. */
export const RETRY_AFTER_S = 5;

export function registerErrorReplies(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    if (error instanceof AppDbUnreachableError) {
      request.log.warn({ err: error }, 'app database unreachable');
      return reply
        .code(503)
        .header('retry-after', RETRY_AFTER_S)
        .send({ error: APP_DB_UNREACHABLE, requestId: request.id });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(status >= 500 && status < 600 ? status : 500)
      .send({ error: INTERNAL_ERROR, requestId: request.id });
  });
}
