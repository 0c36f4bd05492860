/**
 * Runs queued crawl runs, each in a child process (worker.ts) at the lowest priority, never in a request.
 *
 * Every couple of seconds, and at once after a local start, the runner queues the schedules' due runs, fails the
 * runs a dead process left behind, and claims queued runs (oldest first) while it runs fewer than CRAWL_WORKERS.
 * About once a second it writes each of its runs' progress and heartbeat and reads their cancel requests, so a
 * cancel sent to any replica reaches the owner within a second or so. A child that has not exited (cancel without
 * keep) or acknowledged the stop (cancel keeping what was crawled) within KILL_GRACE_MS is killed: a frozen event
 * loop cannot hold a run, nor the runs queued behind it. A run past its time limit is ended when it is stalled while
 * fetching, or when its worker (which heartbeats whatever it does, so one long export or load step is no silence)
 * goes silent. Stopping (SIGTERM) stops the children and fails their runs as interrupted; each run's export and
 * scratch directories go whatever the outcome.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STALLED_AFTER_MS, type CrawlRunProgress } from '../../catalog/crawl-runs.ts';
import { isServerLocation, type AppDb } from '../app-db/db.ts';
import { isPidAlive } from '../pid-lock.ts';
import { exitReason } from './failure-reason.ts';
import { queueDueRuns } from './schedule.ts';
import {
  activeRuns,
  beat,
  claimQueuedRun,
  endRun,
  hasQueuedRuns,
  markLoading,
  runSettings,
  type RunEnd,
  type RunRow,
} from './runs.ts';
import type { FromWorker, ToWorker, WorkerJob } from './worker.ts';

export const INTERRUPTED = 'Interrupted by a restart of the service';
export const RUNS_DIR = 'crawl-runs';
const POLL_MS = 2000;
const BEAT_MS = 1000;
/** A run whose owner has not written for this long is taken for dead (its host may be another machine). */
export const STALE_HEARTBEAT_MS = 60_000;
/** How long a cancelled child may take to exit (or, keeping what was crawled, to acknowledge) before it is killed. */
export const KILL_GRACE_MS = 2000;
/** Heartbeats per silence: a worker heartbeats every 2 s by default. */
const BEATS_PER_SILENCE = 30;
export const KILLED_KEEPING =
  'Cancelled; the crawl did not answer the request to stop within 2 s, so it was ended and nothing was kept';
const SCRATCH_DIR = 'scratch';
const HOUR_MS = 3_600_000;
const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKER = path.join(import.meta.dirname, 'worker.ts');

export const runExportDir = (dataDir: string, runId: number): string => path.join(dataDir, RUNS_DIR, String(runId));
/** The crawl's working files (CrawlOptions.scratchDir), under DATA_DIR so a restart finds what a killed worker left. */
export const scratchRoot = (dataDir: string): string => path.join(dataDir, RUNS_DIR, SCRATCH_DIR);
export const runScratchDir = (dataDir: string, runId: number): string => path.join(scratchRoot(dataDir), String(runId));

export interface CrawlRunnerOptions {
  appDb: AppDb;
  dataDir: string;
  clock: () => Date;
  /** Runs at once in this process (CRAWL_WORKERS). */
  workers: number;
  /** A worker silent this long past its run's time limit is ended (readCrawlSilenceMs). */
  silenceMs: number;
  /** Called after a load, before the run is marked loaded, so this process serves the crawl at once. */
  onLoaded: () => Promise<void>;
  /** Called after a run ended here and its notices were written (to email them). */
  onEnded?: () => void;
  logger: { info(message: string): void; error(message: string): void };
}

interface ActiveRun {
  id: number;
  child: ChildProcess;
  exportDir: string;
  scratchDir: string;
  timeLimitHours: number;
  /** By the runner's clock. */
  startedAt: number;
  progress: CrawlRunProgress;
  /** When the worker last sent anything, by performance.now(): silence is the process's, whatever the clock says. */
  heardAt: number;
  cancel?: { keep: boolean };
  /** The stop was the runner's, at the time limit by its clock, not a user's cancel. */
  isStoppedAtTimeLimit?: boolean;
  isStopAcknowledged: boolean;
  killTimer?: NodeJS.Timeout;
  /** Set when the child was killed for not acknowledging a cancel that kept what was crawled. */
  killedReason?: string;
  /** Set when the child was killed for running, stalled or silent, past its time limit. */
  overrunReason?: string;
  hasExited: boolean;
  outcome?: Extract<FromWorker, { type: 'loaded' | 'failed' }>;
  stderr: string;
  finished: Promise<void>;
}

const NO_PROGRESS: CrawlRunProgress = { pagesDone: 0, queued: 0, errors: 0, pagesPerSecond: 0, elapsedMs: 0 };

export class CrawlRunner {
  /** host:pid of this process, and which runner of it (tests run several in one process). */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly #active = new Map<number, ActiveRun>();
  #isStopped = true;
  #pollTimer: NodeJS.Timeout | undefined;
  #beatTimer: NodeJS.Timeout | undefined;
  #polling: Promise<void> = Promise.resolve();
  #isPollQueued = false;
  #beating: Promise<void> = Promise.resolve();
  readonly #silenceMs: number;

  constructor(private readonly options: CrawlRunnerOptions) {
    this.#silenceMs = options.silenceMs;
  }

  /** Fails what a dead process left, then keeps polling until `stop()`. */
  async start(): Promise<void> {
    this.#isStopped = false;
    await this.#sweepScratch();
    this.kick();
    await this.#polling;
    this.#pollTimer = setInterval(() => this.kick(), POLL_MS);
    this.#pollTimer.unref();
    this.#beatTimer = setInterval(() => void this.#beatAll(), BEAT_MS);
    this.#beatTimer.unref();
  }

  /** Polls now (after a local start); polls never overlap. */
  kick(): void {
    if (this.#isStopped || this.#isPollQueued) return;
    this.#isPollQueued = true;
    this.#polling = this.#polling
      .then(() => {
        this.#isPollQueued = false;
        return this.poll();
      })
      .catch((error: unknown) => this.options.logger.error(`crawl runs poll failed: ${messageOf(error)}`));
  }

  /** A cancel was just requested here: acts on it now if the run is this runner's (others learn it at their beat). */
  heed(runId: number, cancel: { keep: boolean }): void {
    const run = this.#active.get(runId);
    if (run) this.#stopChild(run, cancel);
  }

  /** Runs in progress here, by id. */
  get runningIds(): number[] {
    return [...this.#active.keys()];
  }

  /** The worker process of a run in progress here. */
  workerPid(runId: number): number | undefined {
    return this.#active.get(runId)?.child.pid;
  }

  async poll(): Promise<void> {
    const { appDb, clock } = this.options;
    await this.#failAbandoned();
    await queueDueRuns(appDb, clock());
    while (!this.#isStopped && this.#active.size < this.options.workers && (await hasQueuedRuns(appDb))) {
      const row = await claimQueuedRun(appDb, this.owner, clock());
      if (!row) break;
      this.#launch(row);
    }
  }

  async stop(): Promise<void> {
    this.#isStopped = true;
    clearInterval(this.#pollTimer);
    clearInterval(this.#beatTimer);
    await this.#polling;
    await this.#beating;
    const runs = [...this.#active.values()];
    for (const run of runs) this.#stopChild(run, { keep: false });
    await Promise.all(runs.map((run) => run.finished));
  }

  /** Fails running runs whose owner is gone: a dead pid on this host, or silent for STALE_HEARTBEAT_MS. */
  async #failAbandoned(): Promise<void> {
    const { appDb, clock, dataDir } = this.options;
    const now = clock();
    for (const run of await activeRuns(appDb)) {
      if (this.#active.has(run.id) || run.owner === this.owner) continue;
      const [host, pid] = (run.owner ?? '').split(':');
      const isDead =
        (host === os.hostname() && Number(pid) !== process.pid && !isPidAlive(Number(pid))) ||
        !run.heartbeat_at ||
        now.getTime() - run.heartbeat_at.getTime() > STALE_HEARTBEAT_MS;
      if (!isDead) continue;
      const owner = run.owner ?? '';
      if (await appDb.transaction((tx) => endRun(tx, run.id, owner, { status: 'failed', reason: INTERRUPTED }, now)))
        this.options.onEnded?.();
      fs.rmSync(runExportDir(dataDir, run.id), { recursive: true, force: true });
      fs.rmSync(runScratchDir(dataDir, run.id), { recursive: true, force: true });
      this.options.logger.info(`crawl run ${run.id} of ${run.owner}: ${INTERRUPTED}`);
    }
  }

  /** Removes the scratch of every run not in progress on some host: what workers killed before a restart left. */
  async #sweepScratch(): Promise<void> {
    const root = scratchRoot(this.options.dataDir);
    if (!fs.existsSync(root)) return;
    const active = new Set((await activeRuns(this.options.appDb)).map((run) => String(run.id)));
    for (const name of fs.readdirSync(root))
      if (!active.has(name)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }

  #launch(row: RunRow): void {
    const { appDb, dataDir } = this.options;
    const exportDir = runExportDir(dataDir, row.id);
    const scratchDir = runScratchDir(dataDir, row.id);
    const settings = runSettings(row);
    fs.rmSync(exportDir, { recursive: true, force: true });
    fs.rmSync(scratchDir, { recursive: true, force: true });
    fs.mkdirSync(scratchDir, { recursive: true, mode: 0o700 });
    const child = fork(WORKER, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, 19);
    } catch {
      // Not permitted here: the crawl runs at normal priority.
    }
    let exited!: () => void;
    const run: ActiveRun = {
      id: row.id,
      child,
      exportDir,
      scratchDir,
      timeLimitHours: settings.timeLimitHours,
      startedAt: this.options.clock().getTime(),
      progress: NO_PROGRESS,
      heardAt: performance.now(),
      isStopAcknowledged: false,
      hasExited: false,
      stderr: '',
      finished: new Promise<void>((resolve) => (exited = resolve)),
    };
    this.#active.set(row.id, run);
    child.stderr?.on('data', (chunk: Buffer) => (run.stderr = (run.stderr + chunk.toString()).slice(-2000)));
    child.on('message', (message: FromWorker) => this.#heard(run, message));
    const end = (exit: number | string): void => {
      if (run.hasExited) return;
      run.hasExited = true;
      clearTimeout(run.killTimer);
      this.#finish(run, exit)
        .catch((error: unknown) => this.options.logger.error(`crawl run ${run.id} did not end: ${messageOf(error)}`))
        .finally(() => {
          this.#active.delete(run.id);
          exited();
          this.kick();
        });
    };
    child.once('exit', (code, signal) => end(code ?? signal ?? 'unknown'));
    // A worker that could not be started has no exit to wait for.
    child.on('error', (error) => {
      run.stderr += `\n${error.message}`;
      if (child.pid === undefined) end('not started');
    });
    const job: WorkerJob = {
      runId: row.id,
      websiteId: row.website_id,
      dataDir,
      exportDir,
      scratchDir,
      settings,
      heartbeatMs: this.#silenceMs / BEATS_PER_SILENCE,
      ...(isServerLocation(appDb.location) && { databaseUrl: appDb.location }),
    };
    child.send({ type: 'job', job } satisfies ToWorker);
  }

  #heard(run: ActiveRun, message: FromWorker): void {
    const now = this.options.clock().getTime();
    run.heardAt = performance.now();
    switch (message.type) {
      case 'progress': {
        // The worker's times are its own clock's; the service's clock may run from CLOCK_START.
        const { lastActivityAt, phase } = message.progress;
        const activity = lastActivityAt === undefined ? undefined : lastActivityAt + (now - Date.now());
        this.#advance(run, { ...message.progress, phase: phase ?? 'fetching', lastActivityAt: activity }, now);
        break;
      }
      case 'loading':
        this.#advance(run, { ...run.progress, phase: 'loading', lastActivityAt: now }, now);
        void markLoading(this.options.appDb, run.id, this.owner).catch((error: unknown) =>
          this.options.logger.error(`crawl run ${run.id}: ${messageOf(error)}`),
        );
        break;
      case 'load-progress':
        this.#advance(run, { ...run.progress, phase: 'loading', lastActivityAt: now }, now);
        break;
      case 'stopping':
        run.isStopAcknowledged = true;
        break;
      case 'heartbeat':
        break;
      default:
        run.outcome = message;
    }
  }

  /** Takes the worker's progress; progressAt moves only when pages or activity do (60 s without is stalled). */
  #advance(run: ActiveRun, next: CrawlRunProgress, now: number): void {
    const before = run.progress;
    const hasMoved =
      before.progressAt === undefined ||
      next.pagesDone !== before.pagesDone ||
      (next.lastActivityAt !== undefined && next.lastActivityAt !== before.lastActivityAt);
    run.progress = { ...next, progressAt: hasMoved ? now : before.progressAt };
  }

  /**
   * Sends the stop and arms the kill. A cancel after one keeping what was crawled may still drop it; any other
   * second cancel changes nothing (the routes answer it 409).
   */
  #stopChild(run: ActiveRun, cancel: { keep: boolean }): void {
    if (run.cancel && (!run.cancel.keep || cancel.keep)) return;
    run.cancel = cancel;
    run.isStopAcknowledged = false;
    if (run.child.connected) run.child.send({ type: 'stop', keep: cancel.keep } satisfies ToWorker);
    clearTimeout(run.killTimer);
    run.killTimer = setTimeout(() => {
      if (run.hasExited || (cancel.keep && run.isStopAcknowledged)) return;
      // A run found stalled or silent meanwhile keeps that reason.
      if (run.isStoppedAtTimeLimit)
        run.overrunReason ??=
          `The crawl failed: it did not answer the stop at its time limit of ${run.timeLimitHours} h within ` +
          `${KILL_GRACE_MS / 1000} s, so it was ended and nothing was kept`;
      else if (cancel.keep) run.killedReason = KILLED_KEEPING;
      run.child.kill('SIGKILL');
    }, KILL_GRACE_MS);
    run.killTimer.unref();
  }

  /**
   * At its time limit by this runner's clock a run still fetching is told to stop and keep what it crawled, as a
   * cancel that keeps would (the crawler's own limit, the same hours by the worker's clock, does the same). Past it, a
   * run still fetching whose progress has not moved for STALLED_AFTER_MS, or whose worker has been silent for the
   * silence (a frozen worker, which can neither fetch nor heartbeat), is ended, so that no run outlives its limit for
   * long. One export or load step may take longer than a minute on a big site: the worker heartbeats meanwhile, and
   * is left to finish.
   */
  #endIfOverrun(run: ActiveRun): void {
    const now = this.options.clock().getTime();
    const { progressAt, phase } = run.progress;
    const isOverrun = now - run.startedAt > run.timeLimitHours * HOUR_MS;
    if (!isOverrun || (run.cancel && !run.isStoppedAtTimeLimit)) return;
    const isFetching = phase !== 'exporting' && phase !== 'loading';
    if (!run.cancel && isFetching) {
      run.isStoppedAtTimeLimit = true;
      this.#stopChild(run, { keep: true });
      return;
    }
    const isStalled = isFetching && (progressAt === undefined || now - progressAt >= STALLED_AFTER_MS);
    const isSilent = performance.now() - run.heardAt >= this.#silenceMs;
    if (!isStalled && !isSilent) return;
    const why = isStalled
      ? 'with no progress for a minute'
      : `and its worker silent for ${Math.round(this.#silenceMs / 1000)} s`;
    run.overrunReason =
      `The crawl failed: it was still running past its time limit of ${run.timeLimitHours} h ${why}, ` +
      'so it was ended and nothing was kept';
    this.#stopChild(run, { keep: false });
  }

  #beatAll(): Promise<void> {
    this.#beating = this.#beating.then(async () => {
      for (const run of this.#active.values()) {
        this.#endIfOverrun(run);
        try {
          const state = await beat(this.options.appDb, run.id, this.owner, run.progress, this.options.clock());
          if (state?.cancelRequestedAt) this.#stopChild(run, { keep: state.keepCrawled });
        } catch (error) {
          this.options.logger.error(`crawl run ${run.id} heartbeat failed: ${messageOf(error)}`);
        }
      }
    });
    return this.#beating;
  }

  async #finish(run: ActiveRun, exit: number | string): Promise<void> {
    const { appDb, clock } = this.options;
    const { outcome } = run;
    let end: RunEnd;
    if (outcome?.type === 'loaded') {
      await this.options.onLoaded();
      const pages = `the ${outcome.fetched.toLocaleString('en-GB')} pages crawled so far were kept`;
      // Stopped early without a user's cancel: the time limit, by the runner's clock or the crawler's.
      const reason = !outcome.stoppedEarly
        ? null
        : run.cancel?.keep && !run.isStoppedAtTimeLimit
          ? `Cancelled; ${pages}`
          : `Stopped at the time limit of ${run.timeLimitHours} h; ${pages}`;
      end = { status: 'loaded', crawlId: outcome.crawlId, reason };
    } else if (run.overrunReason) {
      end = { status: 'failed', reason: run.overrunReason };
    } else if (this.#isStopped) {
      end = { status: 'failed', reason: INTERRUPTED };
    } else if (run.cancel && (!run.cancel.keep || run.killedReason)) {
      end = { status: 'cancelled', reason: run.killedReason ?? null };
    } else if (outcome?.type === 'failed') {
      end = { status: 'failed', reason: outcome.reason };
    } else {
      end = { status: 'failed', reason: exitReason(exit, run.stderr) };
    }
    fs.rmSync(run.exportDir, { recursive: true, force: true });
    fs.rmSync(run.scratchDir, { recursive: true, force: true });
    await beat(appDb, run.id, this.owner, run.progress, clock());
    if (await appDb.transaction((tx) => endRun(tx, run.id, this.owner, end, clock()))) this.options.onEnded?.();
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
