/**
 * Everything the service keeps in the app database, opened once per process: accounts and sessions, websites,
 * the crawl registry's moduleState, approvals with their mail, the auto-approval schedule and the checklist.
 * main.ts opens it and hands it to buildApp; tests open one over a temp directory with an injected clock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CrawlRegistry } from '../store/registry.ts';
import type { ModuleState } from '../store/crawl-meta.ts';
import { ADMIN_TOKEN_FILE, AppDb, appDbLocation } from '../app-db/db.ts';
import { CrawlStates, syncRegistry } from '../app-db/crawls.ts';
import { importDuckDbAppState } from '../app-db/duckdb-app-state.ts';
import { checkedKeysAt, type ChecklistKey } from '../app-db/checklist.ts';
import { getSegment, websiteExists } from '../app-db/websites.ts';
import { Approvals, type Clock } from '../jobs/approval.ts';
import { AutoApproval } from '../jobs/auto-approval.ts';
import { createMailer, readMailSettings, type MailSettings, type Mailer } from '../jobs/mailer.ts';
import { demoLoginsInUse, seedDemoAccounts, type DemoLogin } from './demo-accounts.ts';
import { LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './login-limiter.ts';
import { SESSION_TTL_MS } from './sessions.ts';
import { CrawlRunner } from '../crawl-runs/runner.ts';
import { readCrawlWorkers } from '../config.ts';

const MAIL_RETRY_MS = 5 * 60 * 1000;

export interface AccountsOptions {
  dataDir: string;
  registry: CrawlRegistry;
  /** The port the service listens on, for the default PUBLIC_URL. */
  port: number;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  isDemo?: boolean;
  /** Replaces the SMTP/outbox mailer (tests). */
  mailer?: Mailer;
  loginLimits?: LoginLimits;
  sessionTtlMs?: number;
  logger?: { info(message: string): void; error(message: string): void };
}

export interface AccountSettings {
  sessionTtlMs: number;
  loginLimits: LoginLimits;
  /** Trust X-Forwarded-* from a reverse proxy (TRUST_PROXY=1), e.g. to mark cookies Secure behind https. */
  trustProxy: boolean;
  mail: MailSettings;
  /** Crawl runs at once in this process (CRAWL_WORKERS). */
  crawlWorkers: number;
}

const DEMO_PUBLISHED_WEBSITE = 'northwind-outfitters';

export class Accounts {
  /** Authenticates the admin CLI's hand-over to this process (scripts/admin.ts). */
  readonly adminToken = randomBytes(32).toString('base64url');
  #unsubscribe: () => void = () => undefined;
  #unsubscribeRemote: () => void = () => undefined;
  #statesReload: Promise<void> = Promise.resolve();
  #isStatesReloadQueued = false;
  #mailTimer: NodeJS.Timeout | undefined;
  #adminTokenFile: string | undefined;
  readonly loginLimiter: LoginLimiter;
  /** Crawl runs (service/crawl-runs/): started with the other jobs. */
  readonly crawlRunner: CrawlRunner;

  private constructor(
    readonly appDb: AppDb,
    readonly registry: CrawlRegistry,
    readonly states: CrawlStates,
    readonly approvals: Approvals,
    readonly autoApproval: AutoApproval,
    readonly settings: AccountSettings,
    readonly clock: Clock,
    readonly dataDir: string,
    private readonly mailer: Mailer,
    private readonly logger: NonNullable<AccountsOptions['logger']>,
  ) {
    this.loginLimiter = new LoginLimiter(appDb, settings.loginLimits, clock);
    this.crawlRunner = new CrawlRunner({
      appDb,
      dataDir,
      clock,
      workers: settings.crawlWorkers,
      onLoaded: async () => {
        await registry.refresh();
        await this.sync();
      },
      logger,
    });
  }

  static async open(options: AccountsOptions): Promise<Accounts> {
    const env = options.env ?? process.env;
    const clock = options.clock ?? (() => new Date());
    const logger = options.logger ?? console;
    const appDb = await AppDb.openWaiting(appDbLocation(options.dataDir, env), clock);
    try {
      const imported = await importDuckDbAppState(appDb, options.dataDir);
      if (imported)
        logger.info(
          `Imported the app state of ${options.dataDir}/app.duckdb (${Object.values(imported).reduce((a, b) => a + b, 0)} rows); the file is kept as app.duckdb.imported`,
        );
    } catch (error) {
      await appDb.close();
      throw error;
    }
    const mail = readMailSettings(env, options.dataDir, options.port);
    const mailer = options.mailer ?? createMailer(mail);
    const states = new CrawlStates();
    const approvals = new Approvals(appDb, states, mailer, mail, clock, logger);
    const settings: AccountSettings = {
      sessionTtlMs: options.sessionTtlMs ?? SESSION_TTL_MS,
      loginLimits: options.loginLimits ?? LOGIN_LIMITS,
      trustProxy: env.TRUST_PROXY === '1',
      mail,
      crawlWorkers: readCrawlWorkers(env),
    };
    const accounts = new Accounts(
      appDb,
      options.registry,
      states,
      approvals,
      new AutoApproval(appDb, approvals, clock, (w, c) => options.registry.crawl(w, c) !== undefined, logger),
      settings,
      clock,
      options.dataDir,
      mailer,
      logger,
    );
    await accounts.sync();
    if (options.isDemo && (await seedDemoAccounts(appDb, clock()))) {
      // The demo shows both sides at once: Northwind's history is published to its client (without the emails a
      // real approval sends), its two newest crawls wait for approval; Alpine stays wholly pending.
      for (const crawl of options.registry.crawls(DEMO_PUBLISHED_WEBSITE).slice(2)) {
        await approvals.approve(crawl.websiteId, crawl.crawlId, 'demo setup', { isMailed: false });
      }
    }
    accounts.#unsubscribeRemote = appDb.onRemoteWrite(['crawl_registry'], () => accounts.#reloadStates());
    accounts.#unsubscribe = options.registry.onChange(() => {
      accounts.sync().catch((error: unknown) => logger.error(`crawl registry sync failed: ${String(error)}`));
    });
    return accounts;
  }

  /** Registers websites and crawls the loader added to the store since the last sync. */
  async sync(): Promise<void> {
    await syncRegistry(this.appDb, this.registry, this.states, this.clock());
  }

  /** Another replica wrote (an approval, maybe): the moduleState mirror reloads, once for a burst of writes. */
  #reloadStates(): void {
    if (this.#isStatesReloadQueued) return;
    this.#isStatesReloadQueued = true;
    this.#statesReload = this.#statesReload
      .then(() => {
        this.#isStatesReloadQueued = false;
        return this.states.reload(this.appDb);
      })
      .catch((error: unknown) => this.logger.error(`crawl state reload failed: ${String(error)}`));
  }

  /** The segment's URL scope: null for the whole site, undefined when the website has no such segment. */
  async segmentScope(websiteId: string, segmentId: string): Promise<string | null | undefined> {
    const segment = await getSegment(this.appDb, websiteId, segmentId);
    return segment && (segment.urlScope ?? null);
  }

  isKnownWebsite(websiteId: string): Promise<boolean> {
    return websiteExists(this.appDb, websiteId);
  }

  /** The crawl's moduleState as the app database has it (PENDING until synced). */
  moduleStateOf(websiteId: string, crawlId: number): ModuleState {
    return this.states.moduleStateOf(websiteId, crawlId);
  }

  /**
   * The (url, subKeys) items checked for a report at a crawl: what `showChecked: false` hides from rows and
   * counts. subKeys follow the report's subKeyColumns ([] for reports keyed by url alone).
   */
  checkedKeysFor(websiteId: string, reportId: string, crawlId: number): Promise<ChecklistKey[]> {
    return checkedKeysAt(this.appDb, websiteId, reportId, crawlId);
  }

  /** The demo logins still on their demo passwords, to print at start. */
  demoLoginsInUse(): Promise<DemoLogin[]> {
    return demoLoginsInUse(this.appDb);
  }

  /**
   * Makes up a missed auto-approval, keeps the schedule, retries queued mail now and every few minutes, and runs
   * crawl runs (failing those a dead process left, queuing scheduled ones).
   */
  async startJobs(): Promise<void> {
    await this.autoApproval.start();
    await this.crawlRunner.start();
    this.approvals.deliverSoon();
    this.#mailTimer = setInterval(() => this.approvals.deliverSoon(), MAIL_RETRY_MS);
    this.#mailTimer.unref();
  }

  /**
   * Writes DATA_DIR/admin.token (mode 0600) so the admin CLI can hand its commands to this process. Over a shared
   * PostgreSQL server the CLI opens the database itself, and replicas sharing DATA_DIR would overwrite the file.
   */
  publishAdminToken(url: string): void {
    if (this.appDb.isShared) return;
    const file = path.join(this.dataDir, ADMIN_TOKEN_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ url, token: this.adminToken, pid: process.pid }), { mode: 0o600 });
    fs.renameSync(tmp, file);
    this.#adminTokenFile = file;
  }

  /** Removes admin.token if it is still ours; safe to call from an exit handler. */
  withdrawAdminToken(): void {
    const file = this.#adminTokenFile;
    if (!file) return;
    this.#adminTokenFile = undefined;
    try {
      const content = JSON.parse(fs.readFileSync(file, 'utf8')) as { token?: string };
      if (content.token === this.adminToken) fs.rmSync(file, { force: true });
    } catch {
      // Already gone, or replaced by another process: nothing of ours to remove.
    }
  }

  async close(): Promise<void> {
    await this.crawlRunner.stop();
    this.#unsubscribe();
    this.#unsubscribeRemote();
    await this.#statesReload;
    this.autoApproval.stop();
    clearInterval(this.#mailTimer);
    this.withdrawAdminToken();
    await this.approvals.idle();
    this.mailer.close();
    await this.appDb.close();
  }
}
