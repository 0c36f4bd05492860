import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Config } from './config.ts';
import type { AppState } from './app-state.ts';
import type { AccessCheck } from './auth/access.ts';
import { HEALTH_CALL, LIVENESS_CALL, registerAccounts } from './auth/plugin.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAdminListRoutes } from './routes/admin-lists.ts';
import { registerPasswordLinkRoutes } from './routes/admin-password.ts';
import { moveWebsiteAside } from './store/remove-website.ts';
import { registerApprovalRoutes } from './routes/approval.ts';
import { registerAuthRoutes } from './routes/auth.ts';
import { registerChecklistRoutes } from './routes/checklist.ts';
import { registerCrawlRunRoutes } from './routes/crawl-runs.ts';
import { isPartialCrawl } from './store/crawl-labels.ts';
import { defaultComparison } from '../catalog/crawl-label.ts';
import { ReportEngine } from './engine/engine.ts';
import { totalOf, verifiedFixesByReport } from './routes/technical-health-check/verified-fixes.ts';
import { registerNotificationRoutes } from './routes/notifications.ts';
import { registerDataSourceRoutes } from './routes/data-sources.ts';
import { ImportJobs } from './sources/import-jobs.ts';
import { isServerLocation } from './app-db/db.ts';
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

export interface AppDeps {
  config: Config;
  db: DuckDBInstance;
  /**
   * The app database, sign-in and access, approvals and crawl runs (app-state.ts). Required: every /api/ call but
   * the public ones answers 401 without a session, and there is no way to build the app without that guard.
   */
  state: AppState;
  isLogging?: boolean;
  /** The AI suggestion provider; by default the one AI_PROVIDER and friends name (offline without them). */
  aiProvider?: AiProvider;
  /** Where the JSON log goes (default stdout); errors are logged even when isLogging is off. */
  logStream?: { write(line: string): void };
}

export const NO_AUTH = 'buildApp needs the app state: sign-in and access are never optional';
const APP_DB_DOWN = { status: 'unavailable', error: APP_DB_UNREACHABLE } as const;

export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../web/dist');

function createServer(deps: AppDeps): FastifyInstance {
  return Fastify({
    logger: { level: deps.isLogging ? 'info' : 'error', ...(deps.logStream && { stream: deps.logStream }) },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1_048_576,
    trustProxy: deps.state.accounts.settings.trustProxy,
  });
}

/** The calls on the app database's own records: sign-in, websites, approvals, checklists, crawl runs, notices. */
function registerAppStateRoutes(app: FastifyInstance, state: AppState, access: AccessCheck): void {
  const { accounts, appDb, clock, registry } = state;
  registerAuthRoutes(app, accounts);
  registerWebsiteRoutes(app, { appDb });
  registerApprovalRoutes(app, {
    registry,
    states: state.states,
    approvals: state.approvals,
    sync: () => state.sync(),
    access,
  });
  registerChecklistRoutes(app, { registry, appDb, clock, access });
  registerCrawlRunRoutes(app, {
    appDb,
    runner: state.crawlRunner,
    clock,
    access,
    partialOf: state.noticeSources.partialOf,
  });
  registerNotificationRoutes(app, { appDb, clock, sources: state.noticeSources });
}

/** Data source imports, run as jobs that refresh the store and the module states when they change a crawl. */
async function registerDataSources(app: FastifyInstance, state: AppState, access: AccessCheck): Promise<void> {
  const { appDb, clock, registry } = state;
  const jobs = new ImportJobs({
    appDb,
    clock,
    onChanged: async () => {
      if (await registry.refresh()) await state.sync();
    },
    logger: { error: (line) => app.log.error(line) },
  });
  await registerDataSourceRoutes(app, {
    registry,
    appDb,
    access,
    jobs,
    databaseUrl: isServerLocation(appDb.location) ? appDb.location : undefined,
    isKnownWebsite: (websiteId) => state.isKnownWebsite(websiteId),
  });
}

function registerAdministration(app: FastifyInstance, deps: AppDeps): void {
  const { state } = deps;
  const { accounts, appDb, clock, registry } = state;
  registerAdminRoutes(app, {
    accounts,
    mail: state.mail,
    store: {
      moveAside: (websiteId) => moveWebsiteAside(deps.config.dataDir, websiteId, clock()),
      afterRemoval: async () => {
        await registry.refresh();
        await state.sync();
      },
    },
  });
  registerAdminListRoutes(app, { appDb, clock });
  registerPasswordLinkRoutes(app, { appDb, clock });
}

/**
 * Readiness for anyone (load balancers, start scripts): 503 while the app database is unreachable; the store's
 * size, pending crawls included, for admins only. Liveness answers whenever the process does.
 */
function registerHealthCalls(app: FastifyInstance, state: AppState): void {
  const { appDb, registry } = state;
  app.get(HEALTH_CALL, async (request, reply) => {
    if (!(await appDb.isReachable())) return reply.code(503).header('retry-after', RETRY_AFTER_S).send(APP_DB_DOWN);
    return request.auth?.role === 'ADMIN'
      ? {
          status: 'ok',
          websites: registry.websites().length,
          crawls: registry.websites().reduce((n, w) => n + registry.crawls(w.id).length, 0),
        }
      : { status: 'ok' };
  });
  app.get(LIVENESS_CALL, () => ({ status: 'ok' }));
}

/** The report engine's calls (technical health check, query report), and the approvals' verified-fix counts. */
function registerReportRoutes(app: FastifyInstance, deps: AppDeps, access: AccessCheck): void {
  const { state } = deps;
  const { registry } = state;
  const engine = new ReportEngine(deps.db, registry);
  app.addHook('onClose', () => {
    engine.dispose();
    state.approvals.verifiedFixesOf = undefined;
  });
  const checklist = {
    checkedKeys: (websiteId: string, reportId: string, crawlId: number) =>
      state.checkedItemsFor(websiteId, reportId, crawlId),
    checkedReports: (websiteId: string, crawlId: number) => state.checkedReportsFor(websiteId, crawlId),
  };
  state.approvals.verifiedFixesOf = async (websiteId, crawlId) => {
    const crawls = registry.crawls(websiteId);
    const current = crawls.find((c) => c.crawlId === crawlId);
    const comparison = current && defaultComparison(crawls, crawlId, isPartialCrawl);
    if (!current || !comparison) return undefined;
    return totalOf(await verifiedFixesByReport(engine, checklist, current, comparison));
  };
  registerTechnicalHealthCheckRoutes(app, {
    registry,
    db: deps.db,
    engine,
    access,
    moduleStateOf: (websiteId, crawlId) => state.moduleStateOf(websiteId, crawlId),
    ...checklist,
    segmentScope: (websiteId, segmentId) => state.segmentScope(websiteId, segmentId),
    isKnownWebsite: (websiteId) => state.isKnownWebsite(websiteId),
  });

  registerQueryReportRoutes(app, { registry, db: deps.db, access });
}

/** AI suggestions, their cache cleared whenever the store changes. */
function registerAiSuggestions(app: FastifyInstance, deps: AppDeps, access: AccessCheck): void {
  const { state } = deps;
  const { registry } = state;
  const suggestions = new AiSuggestions(deps.db, deps.aiProvider ?? createAiProvider(process.env), (error) =>
    app.log.warn({ err: error }, 'AI provider failed; the offline suggestion stands in'),
  );
  const stopClearing = registry.onChange(() => suggestions.cache.clear());
  app.addHook('onClose', () => void stopClearing());
  registerAiRoutes(app, {
    registry,
    access,
    suggestions,
    isAiWebsite: (websiteId) => state.isAiWebsite(websiteId),
    websiteName: (websiteId) => state.websiteName(websiteId),
  });
}

/** The built dashboard (web/dist) when there is one; an unknown /api/ call is a JSON 404. */
async function registerWebApp(app: FastifyInstance): Promise<void> {
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !fs.existsSync(path.join(WEB_DIST_DIR, 'index.html'))) {
      return reply.code(404).send({ error: `${request.method} ${request.url.split('?')[0]} does not exist` });
    }
    return reply.type('text/html').sendFile('index.html');
  });
  if (fs.existsSync(WEB_DIST_DIR)) {
    await app.register(fastifyStatic, { root: WEB_DIST_DIR });
  }
}

/** Builds the service without listening, so tests drive it with `app.inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { state } = deps;
  // For callers the compiler does not see (a cast, plain JavaScript): an app without its auth guard is never built.
  if (!state?.accounts) throw new Error(NO_AUTH);
  const app = createServer(deps);
  registerErrorReplies(app);
  // Before the auth guard, which looks the session cookie up in the app database.
  registerNulByteGuard(app);
  registerServerTiming(app);
  // Registered first: its auth guard must cover every route.
  const access = await registerAccounts(app, state.accounts);
  registerAppStateRoutes(app, state, access);
  await registerDataSources(app, state, access);
  registerAdministration(app, deps);
  registerHealthCalls(app, state);
  registerReportRoutes(app, deps, access);
  registerAiSuggestions(app, deps, access);
  await registerWebApp(app);
  return app;
}
