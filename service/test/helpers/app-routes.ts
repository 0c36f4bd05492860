import type { FastifyInstance } from 'fastify';

export interface AppRoute {
  url: string;
  methods: string[];
}

/** Every route of a ready app with its methods (HEAD left out), read from `printRoutes`' tree. */
export function appRoutes(app: FastifyInstance): AppRoute[] {
  const routes: AppRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes.length = depth;
    const url = `${prefixes.join('')}${match[2]!}`;
    prefixes.push(match[2]!);
    const methods = (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD');
    if (methods.length > 0) routes.push({ url, methods });
  }
  return routes;
}
