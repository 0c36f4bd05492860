/**
 * Auto-approval: every Tuesday at 11:00 Europe/London, crawls still pending are approved (spec §4).
 *
 * croner supplies the calendar (time zone and summer time included); the waiting is a plain timer driven by an
 * injectable clock, so tests move time by hand. A run is identified by its scheduled time and recorded in
 * job_runs in the same transaction as its approvals: it happens once however often the process restarts, and a
 * run missed while the process was down is made up at start-up. Runs scheduled before the app database existed
 * are not made up, so a fresh install does not approve everything it loads on its first day.
 */
import { Cron } from 'croner';
import type { AppDb } from '../app-db/db.ts';
import type { Approvals, Clock } from './approval.ts';

export const AUTO_APPROVAL_JOB = 'auto-approval';
export const AUTO_APPROVAL_PATTERN = '0 11 * * 2';
export const AUTO_APPROVAL_TIME_ZONE = 'Europe/London';
/** The timer re-checks at least this often, so a suspended machine or a clock change cannot skip a run. */
const MAX_WAIT_MS = 60 * 60 * 1000;

export interface AutoApprovalRun {
  scheduledFor: Date;
  approved: { websiteId: string; crawlId: number }[];
}

interface Logger {
  info(message: string): void;
  error(message: string): void;
}

export class AutoApproval {
  readonly #calendar = new Cron(AUTO_APPROVAL_PATTERN, { timezone: AUTO_APPROVAL_TIME_ZONE, paused: true });
  #timer: NodeJS.Timeout | undefined;
  #isStopped = true;

  constructor(
    private readonly appDb: AppDb,
    private readonly approvals: Approvals,
    private readonly clock: Clock,
    /** Crawls removed from the store stay pending: nobody should be told about them. */
    private readonly isLive: (websiteId: string, crawlId: number) => boolean,
    private readonly logger: Logger = console,
  ) {}

  /** The latest scheduled time at or before `now`. */
  lastDue(now: Date): Date | undefined {
    return this.#calendar.previousRuns(1, new Date(now.getTime() + 1))[0];
  }

  nextRun(now: Date): Date {
    const next = this.#calendar.nextRun(now);
    if (!next) throw new Error('The auto-approval schedule has no next run');
    return next;
  }

  /** Runs the latest scheduled approval due at `now` unless it ran already; resolves with what it did. */
  async runDue(now: Date = this.clock()): Promise<AutoApprovalRun | undefined> {
    const scheduledFor = this.lastDue(now);
    if (!scheduledFor || scheduledFor < (await this.#installedAt())) return undefined;
    const approved = await this.approvals.approveScheduled(AUTO_APPROVAL_JOB, scheduledFor, this.isLive);
    if (!approved) return undefined;
    this.logger.info(
      `Auto-approval for ${scheduledFor.toISOString()}: ${approved.length} crawl(s) approved` +
        (approved.length ? ` (${approved.map((c) => `${c.websiteId}:${c.crawlId}`).join(', ')})` : ''),
    );
    return { scheduledFor, approved };
  }

  /** Makes up a missed run, then keeps to the schedule until `stop()`. */
  async start(): Promise<AutoApprovalRun | undefined> {
    this.#isStopped = false;
    const run = await this.runDue();
    this.#arm();
    return run;
  }

  stop(): void {
    this.#isStopped = true;
    clearTimeout(this.#timer);
    this.#calendar.stop();
  }

  #arm(): void {
    if (this.#isStopped) return;
    const now = this.clock();
    const next = this.nextRun(now);
    const untilNext = Math.max(next.getTime() - now.getTime(), 0);
    const isWaitingForRun = untilNext <= MAX_WAIT_MS;
    this.#timer = setTimeout(
      () => {
        // A timer may fire a millisecond early; the run it waited for still counts as due.
        const at = isWaitingForRun ? new Date(Math.max(this.clock().getTime(), next.getTime())) : this.clock();
        this.runDue(at)
          .catch((error: unknown) =>
            this.logger.error(`auto-approval failed: ${error instanceof Error ? error.message : String(error)}`),
          )
          .finally(() => this.#arm());
      },
      isWaitingForRun ? untilNext : MAX_WAIT_MS,
    );
    this.#timer.unref();
  }

  async #installedAt(): Promise<Date> {
    const [row] = await this.appDb.all<{ applied_at: Date }>(
      'SELECT applied_at FROM schema_migrations WHERE version = 1',
    );
    return row?.applied_at ?? new Date(0);
  }
}
