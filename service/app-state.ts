/**
 * The service's app state, built in one place and closed in reverse: the app database and the crawls' moduleState it
 * mirrors, sign-in and access (auth/), approvals with their mailer and schedule (jobs/), and the crawl runner
 * (crawl-runs/). main.ts opens it and hands it to buildApp, which gives each route only the parts it uses; tests
 * open one over a temp directory with an injected clock.
 */
import { readCrawlSilenceMs, readCrawlWorkers } from './config.ts';
import type { CrawlRegistry } from './store/registry.ts';
import { crawlLabelOf, partialOf } from './store/crawl-labels.ts';
import type { ModuleState } from './store/crawl-meta.ts';
import { AppDb, appDbLocation } from './app-db/db.ts';
import { CrawlStates, syncRegistry } from './app-db/crawls.ts';
import { importDuckDbAppState } from './app-db/duckdb-app-state.ts';
import { checkedKeysAt, type ChecklistKey } from './app-db/checklist.ts';
import { DEFAULT_SEGMENT } from './app-db/model.ts';
import { getSegment, listWebsites, websiteExists } from './app-db/websites.ts';
import { Accounts, readAccountSettings } from './auth/accounts.ts';
import { seedDemoAccounts } from './auth/demo-accounts.ts';
import type { LoginLimits } from './auth/login-limiter.ts';
import { Approvals, type Clock } from './jobs/approval.ts';
import { AutoApproval } from './jobs/auto-approval.ts';
import { createMailer, readMailSettings, type MailSettings, type Mailer } from './jobs/mailer.ts';
import { CrawlRunner } from './crawl-runs/runner.ts';
import { CrawlNoticeMail, type NoticeSources } from './notifications/crawl-notices.ts';

const MAIL_RETRY_MS = 5 * 60 * 1000;
const DEMO_PUBLISHED_WEBSITE = 'northwind-outfitters';

type Logger = { info(message: string): void; error(message: string): void };

export interface AppStateOptions {
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
  logger?: Logger;
}

interface AppStateParts {
  appDb: AppDb;
  registry: CrawlRegistry;
  states: CrawlStates;
  accounts: Accounts;
  approvals: Approvals;
  autoApproval: AutoApproval;
  crawlRunner: CrawlRunner;
  noticeMail: CrawlNoticeMail;
  noticeSources: NoticeSources;
  mailer: Mailer;
  mailSettings: MailSettings;
  clock: Clock;
  logger: Logger;
}

export class AppState {
  readonly appDb: AppDb;
  /** The crawl store, whose websites and crawls the app database registers as they arrive. */
  readonly registry: CrawlRegistry;
  /** The crawls' moduleState as the app database has it, in memory so access checks stay synchronous. */
  readonly states: CrawlStates;
  /** Sessions, logins and access. */
  readonly accounts: Accounts;
  readonly approvals: Approvals;
  readonly autoApproval: AutoApproval;
  readonly crawlRunner: CrawlRunner;
  /** Emails the notices of ended crawl runs (notifications/). */
  readonly noticeMail: CrawlNoticeMail;
  /** What a notice reads from the store: the crawl's label and whether it is partial. */
  readonly noticeSources: NoticeSources;
  readonly clock: Clock;
  readonly #mailer: Mailer;
  readonly #mailSettings: MailSettings;
  readonly #logger: Logger;
  #unsubscribe: () => void = () => undefined;
  #unsubscribeRemote: () => void = () => undefined;
  #statesReload: Promise<void> = Promise.resolve();
  #isStatesReloadQueued = false;
  #mailTimer: NodeJS.Timeout | undefined;

  private constructor(parts: AppStateParts) {
    this.appDb = parts.appDb;
    this.registry = parts.registry;
    this.states = parts.states;
    this.accounts = parts.accounts;
    this.approvals = parts.approvals;
    this.autoApproval = parts.autoApproval;
    this.crawlRunner = parts.crawlRunner;
    this.noticeMail = parts.noticeMail;
    this.noticeSources = parts.noticeSources;
    this.clock = parts.clock;
    this.#mailer = parts.mailer;
    this.#mailSettings = parts.mailSettings;
    this.#logger = parts.logger;
  }

  static async open(options: AppStateOptions): Promise<AppState> {
    const { dataDir, registry } = options;
    const env = options.env ?? process.env;
    const clock = options.clock ?? (() => new Date());
    const logger = options.logger ?? console;
    const appDb = await AppDb.openWaiting(appDbLocation(dataDir, env), clock);
    let state: AppState;
    try {
      const imported = await importDuckDbAppState(appDb, dataDir);
      if (imported)
        logger.info(
          `Imported the app state of ${dataDir}/app.duckdb (${Object.values(imported).reduce((a, b) => a + b, 0)} rows); the file is kept as app.duckdb.imported`,
        );
      const mail = readMailSettings(env, dataDir, options.port);
      const mailer = options.mailer ?? createMailer(mail);
      const states = new CrawlStates();
      const labelOf = (websiteId: string, crawlId: number): string | undefined => {
        const record = registry.crawl(websiteId, crawlId);
        return record && crawlLabelOf(registry.crawls(websiteId), record);
      };
      const approvals = new Approvals(appDb, states, mailer, mail, clock, logger, labelOf);
      const noticeSources: NoticeSources = {
        labelOf,
        partialOf: (websiteId, crawlId) => {
          const record = registry.crawl(websiteId, crawlId);
          return record ? partialOf(record) : null;
        },
      };
      const noticeMail = new CrawlNoticeMail(appDb, mailer, mail, clock, noticeSources, logger);
      const accounts = new Accounts({
        appDb,
        states,
        clock,
        dataDir,
        settings: readAccountSettings(env, mail.publicUrl, options),
      });
      const isLive = (websiteId: string, crawlId: number): boolean => registry.crawl(websiteId, crawlId) !== undefined;
      const autoApproval = new AutoApproval(appDb, approvals, clock, isLive, logger);
      const crawlRunner = new CrawlRunner({
        appDb,
        dataDir,
        clock,
        workers: readCrawlWorkers(env),
        silenceMs: readCrawlSilenceMs(env),
        onLoaded: async () => {
          await registry.refresh();
          await state.sync();
        },
        onEnded: () => noticeMail.deliverSoon(),
        logger,
      });
      state = new AppState({
        appDb,
        registry,
        states,
        accounts,
        approvals,
        autoApproval,
        crawlRunner,
        noticeMail,
        noticeSources,
        mailer,
        mailSettings: mail,
        clock,
        logger,
      });
    } catch (error) {
      await appDb.close();
      throw error;
    }
    await state.sync();
    if (options.isDemo && (await seedDemoAccounts(appDb, clock()))) {
      // The demo shows both sides at once: Northwind's history is published to its client (without the emails a
      // real approval sends), its two newest crawls wait for approval; Alpine stays wholly pending.
      for (const crawl of registry.crawls(DEMO_PUBLISHED_WEBSITE).slice(2)) {
        await state.approvals.approve(crawl.websiteId, crawl.crawlId, 'demo setup', { isMailed: false });
      }
    }
    state.#unsubscribeRemote = appDb.onRemoteChange('crawl-registry', () => state.#reloadStates());
    state.#unsubscribe = registry.onChange(() => {
      state.sync().catch((error: unknown) => logger.error(`crawl registry sync failed: ${String(error)}`));
    });
    return state;
  }

  /** Where the admin commands' one-time password links go: the approval emails' mailer and the public address. */
  get mail(): { mailer: Mailer; publicUrl: string } {
    return { mailer: this.#mailer, publicUrl: this.#mailSettings.publicUrl };
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
      .catch((error: unknown) => this.#logger.error(`crawl state reload failed: ${String(error)}`));
  }

  /** The segment's URL scope: null for the whole site, undefined when the website has no such segment. */
  async segmentScope(websiteId: string, segmentId: string): Promise<string | null | undefined> {
    const segment = await getSegment(this.appDb, websiteId, segmentId);
    return segment && (segment.urlScope ?? null);
  }

  isKnownWebsite(websiteId: string): Promise<boolean> {
    return websiteExists(this.appDb, websiteId);
  }

  /** The website's name in the app database (what the dashboard shows), undefined for a website it lacks. */
  async websiteName(websiteId: string): Promise<string | undefined> {
    return (await listWebsites(this.appDb, [websiteId]))[0]?.name;
  }

  /** Whether the website's default segment has AI suggestions on. */
  async isAiWebsite(websiteId: string): Promise<boolean> {
    return (await getSegment(this.appDb, websiteId, DEFAULT_SEGMENT.id))?.isAi === true;
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

  /**
   * Makes up a missed auto-approval, keeps the schedule, retries queued mail now and every few minutes, and runs
   * crawl runs (failing those a dead process left, queuing scheduled ones).
   */
  async startJobs(): Promise<void> {
    await this.autoApproval.start();
    await this.crawlRunner.start();
    this.approvals.deliverSoon();
    this.noticeMail.deliverSoon();
    this.#mailTimer = setInterval(() => {
      this.approvals.deliverSoon();
      this.noticeMail.deliverSoon();
    }, MAIL_RETRY_MS);
    this.#mailTimer.unref();
  }

  /** Stops the jobs, then closes what they use, the app database last. */
  async close(): Promise<void> {
    await this.crawlRunner.stop();
    this.#unsubscribe();
    this.#unsubscribeRemote();
    await this.#statesReload;
    this.autoApproval.stop();
    clearInterval(this.#mailTimer);
    this.accounts.withdrawAdminToken();
    await this.approvals.idle();
    await this.noticeMail.idle();
    this.#mailer.close();
    await this.appDb.close();
  }
}
