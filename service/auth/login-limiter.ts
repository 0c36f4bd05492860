/**
 * Sign-in limits in the style of OWASP ASVS 2.2: only failed sign-ins count. Failures are counted per account and
 * address pair, and per address with a looser ceiling (credential stuffing tries many accounts from one place).
 * Past its free failures a counter makes the next attempt wait, twice as long after each further failure, up to
 * a cap. A success clears its pair, so a user under attack from elsewhere still signs in from a clean address.
 *
 * Failures live in the app database (login_failures), so a restart forgets nothing. Attempts still being checked
 * count too (in memory: they belong to this process), so a burst of parallel guesses gets no more than the free
 * failures.
 */
import type { AppDb } from '../app-db/db.ts';

export interface LoginLimits {
  /** Failures of one account from one address before attempts wait. */
  pairFreeFailures: number;
  /** Failures from one address, over all accounts, before attempts wait. */
  addressFreeFailures: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A counter is forgotten this long after its last failure. */
  memoryMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  pairFreeFailures: 5,
  addressFreeFailures: 100,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  memoryMs: 24 * 60 * 60_000,
};

export type LoginAttempt =
  { isAllowed: false; retryAfterSeconds: number } | { isAllowed: true; finish: (isSuccess: boolean) => Promise<void> };

interface Counter {
  key: string;
  freeFailures: number;
}

export class LoginLimiter {
  readonly #inFlight = new Map<string, number>();
  /** Checks and records run one at a time, so no attempt reads a counter another is about to change. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly appDb: AppDb,
    private readonly limits: LoginLimits,
    private readonly clock: () => Date,
  ) {}

  /** Decides whether `email` may try a password from `address` now; when allowed, `finish` records the outcome. */
  begin(email: string, address: string): Promise<LoginAttempt> {
    const pair: Counter = { key: `pair ${address} ${email}`, freeFailures: this.limits.pairFreeFailures };
    const ceiling: Counter = { key: `address ${address}`, freeFailures: this.limits.addressFreeFailures };
    return this.#serial(async () => {
      const now = this.clock().getTime();
      const waits = await Promise.all([pair, ceiling].map((c) => this.#waitMs(c, now)));
      const waitMs = Math.max(...waits);
      if (waitMs > 0) return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      for (const c of [pair, ceiling]) this.#inFlight.set(c.key, (this.#inFlight.get(c.key) ?? 0) + 1);
      return { isAllowed: true, finish: (isSuccess: boolean) => this.#finish(pair, ceiling, isSuccess) };
    });
  }

  /** How long an attempt on this counter must wait; 0 when it may go ahead now. */
  async #waitMs(counter: Counter, now: number): Promise<number> {
    const [row] = await this.appDb.all<{ failures: number; last_failed_at: Date }>(
      'SELECT failures, last_failed_at FROM login_failures WHERE key = $1',
      [counter.key],
    );
    const isRemembered = row !== undefined && now - row.last_failed_at.getTime() < this.limits.memoryMs;
    const failures = isRemembered ? row.failures : 0;
    const inFlight = this.#inFlight.get(counter.key) ?? 0;
    if (failures + inFlight < counter.freeFailures) return 0;
    // Past the free failures, one attempt at a time: the next waits for this one's outcome.
    if (inFlight > 0) return 1000;
    if (!isRemembered) return 0;
    return Math.max(0, row.last_failed_at.getTime() + this.#delayMs(failures, counter.freeFailures) - now);
  }

  #delayMs(failures: number, freeFailures: number): number {
    if (failures < freeFailures) return 0;
    return Math.min(this.limits.maxDelayMs, this.limits.firstDelayMs * 2 ** Math.min(failures - freeFailures, 30));
  }

  #finish(pair: Counter, ceiling: Counter, isSuccess: boolean): Promise<void> {
    return this.#serial(async () => {
      for (const c of [pair, ceiling]) {
        const left = (this.#inFlight.get(c.key) ?? 1) - 1;
        if (left > 0) this.#inFlight.set(c.key, left);
        else this.#inFlight.delete(c.key);
      }
      const now = this.clock();
      const forgetBefore = new Date(now.getTime() - this.limits.memoryMs);
      await this.appDb.transaction(async (tx) => {
        if (isSuccess) {
          await tx.run('DELETE FROM login_failures WHERE key = $1', [pair.key]);
          return;
        }
        for (const c of [pair, ceiling])
          await tx.run(
            `INSERT INTO login_failures VALUES ($1, 1, $2)
             ON CONFLICT (key) DO UPDATE SET
               failures = CASE WHEN login_failures.last_failed_at < $3 THEN 1 ELSE login_failures.failures + 1 END,
               last_failed_at = excluded.last_failed_at`,
            [c.key, now, forgetBefore],
          );
        await tx.run('DELETE FROM login_failures WHERE last_failed_at < $1', [forgetBefore]);
      });
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
