/**
 * Every error a handler throws answers JSON in the routes' own shape. A 4xx from Fastify itself (bad JSON, a
 * body too large) keeps its message; anything else is a 5xx with a generic message and the request id, and
 * its detail (a DuckDB message, a stack) goes only to the log under that id.
 */
import type { FastifyError, FastifyInstance } from 'fastify';

export const INTERNAL_ERROR = 'An unexpected error occurred; quote the request id when reporting it';

export function registerErrorReplies(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(status >= 500 && status < 600 ? status : 500)
      .send({ error: INTERNAL_ERROR, requestId: request.id });
  });
}
