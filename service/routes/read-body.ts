import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** Parses a JSON body with a schema; on failure answers 400 {error, field} naming the first bad field. */
export function readBody<T extends z.ZodType>(
  schema: T,
  request: FastifyRequest,
  reply: FastifyReply,
): z.infer<T> | undefined {
  const parsed = schema.safeParse(request.body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  void reply.code(400).send({ error: `Invalid ${field || 'payload'}: ${issue?.message ?? 'bad request'}`, field });
  return undefined;
}
