import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Config } from './config.ts';
import type { CrawlRegistry } from './store/registry.ts';
import { allowAll, type AccessCheck } from './auth/access.ts';
import type { Accounts } from './auth/accounts.ts';
import { HEALTH_CALL, LIVENESS_CALL, registerAccounts } from './auth/plugin.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerApprovalRoutes } from './routes/approval.ts';
import { registerAuthRoutes } from './routes/auth.ts';
import { registerChecklistRoutes } from './routes/checklist.ts';
import { registerCrawlRunRoutes } from './routes/crawl-runs.ts';
import { registerWebsiteRoutes } from './routes/websites.ts';
import { registerServerTiming } from './server-timing.ts';
import { APP_DB_UNREACHABLE, RETRY_AFTER_S, registerErrorReplies } from './routes/error-replies.ts';
import { registerNulByteGuard } from './routes/nul-bytes.ts';
import { registerTechnicalHealthCheckRoutes } from './routes/technical-health-check.ts';
import { registerAiRoutes } from './routes/ai.ts';
import { registerQueryReportRoutes } from './routes/query-report.ts';
import { AiSuggestions } from './ai/suggestions.ts';
import { createAiProvider } from './ai/config.ts';
import type { AiProvider } from './ai/provider.ts';
import { getSegment } from './app-db/websites.ts';
import { DEFAULT_SEGMENT } from './app-db/model.ts';

export interface AppDeps {
  config: Config;
  db: DuckDBInstance;
  registry: CrawlRegistry;
  access?: AccessCheck;
  /** Sign-in, sessions, CSRF, approval, checklist and the access rules; without it every call is open. */
  accounts?: Accounts;
  isLogging?: boolean;
  /** The AI suggestion provider; by default the one AI_PROVIDER and friends name (offline without them). */
  aiProvider?: AiProvider;
  /** Where the JSON log goes (default stdout); errors are logged even when isLogging is off. */
  logStream?: { write(line: string): void };
}

const APP_DB_DOWN = { status: 'unavailable', error: APP_DB_UNREACHABLE } as const;

export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../web/dist');

/** Builds the service without listening, so tests drive it with `app.inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { accounts } = deps;
  const app = Fastify({
    logger: { level: deps.isLogging ? 'info' : 'error', ...(deps.logStream && { stream: deps.logStream }) },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1_048_576,
    trustProxy: accounts?.settings.trustProxy ?? false,
  });
  registerErrorReplies(app);
  // Before the auth guard, which looks the session cookie up in the app database.
  registerNulByteGuard(app);
  registerServerTiming(app);
  // Registered first: its auth guard must cover every route.
  const access = accounts ? await registerAccounts(app, accounts) : (deps.access ?? allowAll);
  if (accounts) {
    registerAuthRoutes(app, accounts);
    registerWebsiteRoutes(app, accounts);
    registerApprovalRoutes(app, accounts, access);
    registerChecklistRoutes(app, accounts, access);
    registerCrawlRunRoutes(app, accounts, access);
    registerAdminRoutes(app, accounts);
  }

  // Readiness for anyone (load balancers, start scripts): 503 while the app database is unreachable; the store's
  // size, pending crawls included, for admins only. Liveness answers whenever the process does.
  app.get(HEALTH_CALL, async (request, reply) => {
    if (accounts && !(await accounts.appDb.isReachable()))
      return reply.code(503).header('retry-after', RETRY_AFTER_S).send(APP_DB_DOWN);
    return request.auth?.role === 'ADMIN'
      ? {
          status: 'ok',
          websites: deps.registry.websites().length,
          crawls: deps.registry.websites().reduce((n, w) => n + deps.registry.crawls(w.id).length, 0),
        }
      : { status: 'ok' };
  });
  app.get(LIVENESS_CALL, () => ({ status: 'ok' }));

  registerTechnicalHealthCheckRoutes(app, {
    registry: deps.registry,
    db: deps.db,
    access,
    moduleStateOf: accounts && ((websiteId, crawlId) => accounts.moduleStateOf(websiteId, crawlId)),
    checkedKeys: accounts && ((websiteId, reportId, crawlId) => accounts.checkedKeysFor(websiteId, reportId, crawlId)),
    segmentScope: accounts && ((websiteId, segmentId) => accounts.segmentScope(websiteId, segmentId)),
    isKnownWebsite: accounts && ((websiteId) => accounts.isKnownWebsite(websiteId)),
  });

  registerQueryReportRoutes(app, { registry: deps.registry, db: deps.db, access });
  const suggestions = new AiSuggestions(deps.db, deps.aiProvider ?? createAiProvider(process.env), (error) =>
    app.log.warn({ err: error }, 'AI provider failed; the offline suggestion stands in'),
  );
  const stopClearing = deps.registry.onChange(() => suggestions.cache.clear());
  app.addHook('onClose', () => void stopClearing());
  registerAiRoutes(app, {
    registry: deps.registry,
    access,
    suggestions,
    isAiWebsite:
      accounts &&
      (async (websiteId) => (await getSegment(accounts.appDb, websiteId, DEFAULT_SEGMENT.id))?.isAi === true),
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !fs.existsSync(path.join(WEB_DIST_DIR, 'index.html'))) {
      return reply.code(404).send({ error: `${request.method} ${request.url.split('?')[0]} does not exist` });
    }
    return reply.type('text/html').sendFile('index.html');
  });
  if (fs.existsSync(WEB_DIST_DIR)) {
    await app.register(fastifyStatic, { root: WEB_DIST_DIR });
  }
  return app;
}
