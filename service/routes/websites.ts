/**
 * POST /api/websites/list {} → {websites:[{id, name, domain,
 *   segments:[{id, name, urlScope, isHreflang, isAi, goalType, isDefault}],
 *   modules:[{module, isActive, reason?: 'missing-module'|'missing-setup-id'}]}]}
 *
 * The websites the user may see (CLIENT and STAFF: those bound to them; ADMIN: all; archived ones internal users only),
 * for the website picker,
 * the segment settings (hreflang, AI, goal type) and spec §2's 'module inactive' panel.
 */
import type { FastifyInstance } from 'fastify';
import type { Website } from '../../catalog/api.ts';
import { listWebsites } from '../app-db/websites.ts';
import type { AppDb } from '../app-db/db.ts';
import { authOf } from '../auth/http.ts';

export function registerWebsiteRoutes(app: FastifyInstance, { appDb }: { appDb: AppDb }): void {
  app.post('/api/websites/list', async (request): Promise<{ websites: Website[] }> => {
    const auth = authOf(request);
    const websites = await listWebsites(appDb, auth.seesAllWebsites ? undefined : [...auth.websites], {
      withArchived: auth.isInternal,
    });
    return { websites };
  });
}
