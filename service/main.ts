import { readClock, readConfig, readCrawlWorkers, readStorePollMs } from './config.ts';
import { checkEgressPolicy, egressPolicyFromEnv } from './crawl/egress.ts';
import { makeDataDirPrivate } from './data-dir.ts';
import { openDatabase } from './db/duckdb.ts';
import { lowerWorkerThreads } from './db/thread-priority.ts';
import { listLiveCrawls } from './store/layout.ts';
import { buildApp } from './app.ts';
import { seedDemo } from './demo.ts';
import { AppState } from './app-state.ts';
import { loopbackUrlOf, printDemoLogins } from './auth/start.ts';
import { loadCatalog } from './catalog/index.ts';
import { explainCatalog } from './engine/explain-catalog.ts';
import { findStaleCrawls } from './load/refresh.ts';
import { ensureWebBuild } from './web-build.ts';
import { readCrawlExportMemoryLimit } from './crawl/export-memory.ts';
import { openCrawlRegistry } from './source-data/mid-refresh.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = readConfig();
  const storePollMs = readStorePollMs();
  readCrawlWorkers();
  readCrawlExportMemoryLimit();
  checkEgressPolicy(egressPolicyFromEnv(process.env));
  const { clock, start: clockStart } = readClock();
  if (clockStart)
    console.log(`CLOCK_START: the service's clock started at ${clockStart.toISOString()} and runs at normal speed`);
  loadCatalog();
  await ensureWebBuild();
  // After the build: the umask it sets is for DATA_DIR, not for web/dist.
  makeDataDirPrivate(config.dataDir);
  if (config.isDemo && listLiveCrawls(config.dataDir).length === 0) {
    console.log(`No crawls in ${config.dataDir}: generating and loading the demo websites…`);
    const started = Date.now();
    const loaded = await seedDemo(config.dataDir, {
      onProgress: (p) =>
        console.log(`demo [${p.completed}/${p.total}] ${p.websiteId} crawl ${p.crawlId}: ${p.step} (${p.detail})`),
    });
    console.log(`Demo loaded: ${loaded} crawls in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  for (const crawl of await findStaleCrawls(config.dataDir))
    console.warn(
      `crawl ${crawl.crawlId} of website "${crawl.websiteId}" is served more slowly until \`npm run load-crawl -- --refresh\`: ${crawl.reason}`,
    );
  const db = await openDatabase();
  const registry = await openCrawlRegistry(config.dataDir, db);
  for (const website of registry.websites()) {
    const newest = registry.crawls(website.id)[0];
    if (newest) await explainCatalog(db, newest.alias);
  }
  const state = await AppState.open({
    dataDir: config.dataDir,
    registry,
    port: config.port,
    isDemo: config.isDemo,
    clock,
  });
  const app = await buildApp({ config, db, state, isLogging: process.env.LOG === '1' });
  await state.startJobs();
  const refreshStore = (): void => {
    registry.refresh().catch((error: unknown) => console.error('store refresh failed:', error));
  };
  // Over a PostgreSQL server a load announces its crawl, and every replica serves it at once; the poll remains.
  state.appDb.onStoreChange(refreshStore);
  const timer = setInterval(() => {
    refreshStore();
    lowerWorkerThreads();
  }, storePollMs);
  timer.unref();

  const shutdown = (): void => {
    clearInterval(timer);
    // Draining has a limit: a client that stopped reading a long export must not keep the process alive.
    setTimeout(() => {
      console.error(`requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: stopping anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app
      .close()
      .then(() => state.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  process.once('exit', () => state.accounts.withdrawAdminToken());

  await app.listen({ port: config.port, host: config.host });
  const loopbackUrl = loopbackUrlOf(app.server.address());
  // The port taken, which PORT=0 leaves to the system.
  console.log(`Technical Health Check is serving http://localhost:${new URL(loopbackUrl).port}/technical-health-check`);
  state.accounts.publishAdminToken(loopbackUrl);
  lowerWorkerThreads();
  if (config.isDemo) await printDemoLogins(state.accounts);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
