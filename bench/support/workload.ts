/** Analysts at once: several clients working through the dashboard's calls, each with its pauses. */
import { performance } from 'node:perf_hooks';
import type { Client } from './client.ts';
import { acceptOf, sleep } from './config.ts';
import type { HttpCase } from './session.ts';
import { round, seededRandom, stats, type Stats } from './stats.ts';

export interface LoadCase {
  name: string;
  /** As the client waits it. */
  client: Stats;
  /** Inside the service, to the first byte (Server-Timing). */
  server: Stats;
}

/**
 * `users` clients at once, each working through the cases in turn: a request, then a pause drawn uniformly from
 * `think` (a seeded generator, so runs are comparable); clients start staggered, as analysts do not all click in
 * the same millisecond.
 */
export async function workload(
  clients: readonly Client[],
  httpCases: readonly HttpCase[],
  users: number,
  perUser: number,
  think: readonly [number, number],
): Promise<{
  users: number;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  /** Every request's time as the client waits it, over all cases. */
  all: Stats;
  perCase: LoadCase[];
}> {
  const started = performance.now();
  let sent = 0;
  const samples = new Map<string, { client: number[]; server: number[] }>();
  let errors = 0;
  const random = seededRandom(20261121);
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      await sleep(random() * think[1]);
      for (let i = 0; i < perUser; i++) {
        const [name, url, body] = httpCases[(user + i) % httpCases.length]!;
        // Round robin over the replicas, as a load balancer sends them.
        const client = clients[sent++ % clients.length]!;
        try {
          const { ms, serverMs } = await client.post(`/api/technical-health-check${url}`, body, acceptOf(url));
          const into = samples.get(name) ?? { client: [], server: [] };
          into.client.push(ms);
          into.server.push(serverMs);
          samples.set(name, into);
        } catch {
          errors++;
        }
        await sleep(think[0] + random() * (think[1] - think[0]));
      }
    }),
  );
  const perCase = httpCases.flatMap(([name]) => {
    const s = samples.get(name);
    return s ? [{ name, client: stats(s.client), server: stats(s.server) }] : [];
  });
  const requests = users * perUser;
  return {
    users,
    requests,
    errors,
    requestsPerSecond: round(requests / ((performance.now() - started) / 1000)),
    all: stats([...samples.values()].flatMap((s) => s.client)),
    perCase,
  };
}
