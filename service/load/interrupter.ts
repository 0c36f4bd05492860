import type { DuckDBConnection } from '@duckdb/node-api';
import { LoadError } from './load-error.ts';

const INTERRUPT_REPEAT_MS = 50;

/**
 * Turns an AbortSignal into interrupts of the running DuckDB queries and a LoadError. DuckDB clears an
 * interrupt when the next query starts, so it is repeated until the load stops: precompute runs many queries.
 */
export class Interrupter {
  readonly #conns = new Set<DuckDBConnection>();
  #timer: NodeJS.Timeout | undefined;
  readonly #interruptAll = (): void => {
    for (const conn of this.#conns) {
      try {
        conn.interrupt();
      } catch {
        this.#conns.delete(conn);
      }
    }
  };
  readonly #onAbort = (): void => {
    this.#interruptAll();
    this.#timer ??= setInterval(this.#interruptAll, INTERRUPT_REPEAT_MS);
    this.#timer.unref();
  };

  constructor(readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', this.#onAbort);
  }

  get isAborted(): boolean {
    return this.signal?.aborted === true;
  }

  watch(conn: DuckDBConnection): void {
    this.#conns.add(conn);
  }

  unwatch(conn: DuckDBConnection): void {
    this.#conns.delete(conn);
  }

  check(): void {
    if (this.isAborted) throw new LoadError('load interrupted', 'interrupted');
  }

  /** Once aborted, any failure (an interrupted query surfaces as a DuckDB error) reads as the interruption. */
  translate(error: unknown): unknown {
    if (!this.isAborted || (error instanceof LoadError && error.kind === 'interrupted')) return error;
    return new LoadError('load interrupted', 'interrupted', { cause: error });
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.#onAbort);
    clearInterval(this.#timer);
    this.#conns.clear();
  }
}
