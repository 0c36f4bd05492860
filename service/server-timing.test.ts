import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerServerTiming } from './server-timing.ts';

const durationOf = (header: unknown): number => {
  const match = /^app;dur=(\d+\.\d)$/.exec(String(header));
  if (!match) throw new Error(`not a Server-Timing value: ${String(header)}`);
  return Number(match[1]);
};

describe('registerServerTiming', () => {
  it('reports the time to the first byte, streamed answers and errors included', async () => {
    const app = Fastify();
    registerServerTiming(app);
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return { ok: true };
    });
    app.get('/stream', (_request, reply) => reply.type('text/csv').send(Readable.from(['a\n', 'b\n'])));
    app.get('/fails', (_request, reply) => reply.code(400).send({ error: 'bad' }));
    await app.ready();

    const slow = await app.inject({ method: 'GET', url: '/slow' });
    expect(durationOf(slow.headers['server-timing'])).toBeGreaterThanOrEqual(39);
    expect(durationOf(slow.headers['server-timing'])).toBeLessThan(5000);

    const stream = await app.inject({ method: 'GET', url: '/stream' });
    expect(stream.body).toBe('a\nb\n');
    expect(durationOf(stream.headers['server-timing'])).toBeGreaterThanOrEqual(0);

    const fails = await app.inject({ method: 'GET', url: '/fails' });
    expect(fails.statusCode).toBe(400);
    expect(durationOf(fails.headers['server-timing'])).toBeLessThan(40);
    await app.close();
  });
});
