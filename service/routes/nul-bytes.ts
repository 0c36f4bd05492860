/**
 * A NUL byte anywhere a call reads is refused with 400 {error, field} naming where it is. PostgreSQL refuses NUL in
 * text, so one that got through would fail deep inside (a session look-up, a login) as a 500. One guard covers every
 * route: the URL's path and query, the headers and cookies before the auth guard reads the session, and the parsed
 * body (keys included) before any handler validates it.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

const NUL = '\0';
const ENCODED_NUL = /%00/i;

/** The 400 body naming `field`, in readBody's shape. */
export const nulRefusal = (field: string): { error: string; field: string } => ({
  error: `Invalid ${field}: contains a NUL byte`,
  field,
});

/** The path (dot-separated, as readBody names fields) of the first string or key holding a NUL, if any. */
export function nulField(value: unknown, at: readonly (string | number)[] = []): string | undefined {
  const name = (): string => at.join('.');
  if (typeof value === 'string') return value.includes(NUL) ? name() : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], [...at, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, entry] of Object.entries(value)) {
    if (key.includes(NUL)) return [...at, key].join('.');
    const found = nulField(entry, [...at, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Cookie values are URL-decoded when read, so an encoded NUL counts as one. */
function nulCookie(header: string): string | undefined {
  for (const pair of header.split(';')) {
    const [name = '', value = ''] = pair.split('=', 2);
    if (name.includes(NUL) || value.includes(NUL) || ENCODED_NUL.test(value)) return `cookie.${name.trim()}`;
  }
  return undefined;
}

function nulInHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'cookie' && typeof value === 'string') {
      const found = nulCookie(value);
      if (found !== undefined) return found;
    } else if (nulField(value) !== undefined) return `headers.${name}`;
  }
  return undefined;
}

export function registerNulByteGuard(app: FastifyInstance): void {
  const refuse = (reply: FastifyReply, field: string): FastifyReply => reply.code(400).send(nulRefusal(field));
  app.addHook('onRequest', async (request, reply) => {
    const [path = '', search] = request.url.split('?', 2);
    if (path.includes(NUL) || ENCODED_NUL.test(path)) return refuse(reply, 'path');
    if (search !== undefined && (search.includes(NUL) || ENCODED_NUL.test(search))) {
      const named = nulField(request.query, ['query']);
      return refuse(reply, named === undefined || named === 'query' ? 'query' : named);
    }
    const header = nulInHeaders(request.headers);
    if (header !== undefined) return refuse(reply, header);
  });
  app.addHook('preValidation', async (request, reply) => {
    const field = nulField(request.body);
    if (field !== undefined) return refuse(reply, field === '' ? 'body' : field);
  });
}
