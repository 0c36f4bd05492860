/**
 * Connections the engine's queries borrow and give back. Opening a connection is a round trip to a worker thread,
 * and on an idle machine each round trip costs a thread wake-up: a page query that opened its own connection spent
 * as long on that as on reading its rows. A borrowed connection runs one query at a time and is nobody else's until
 * given back, so its materialized results are never invalidated by another query (results are not streamed here).
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** Idle connections kept: more than the requests a 2-core service runs at once. */
export const MAX_IDLE_CONNECTIONS = 8;

export class ConnectionPool {
  readonly #idle: DuckDBConnection[] = [];
  #isClosed = false;

  constructor(
    readonly db: DuckDBInstance,
    readonly maxIdle = MAX_IDLE_CONNECTIONS,
  ) {}

  get idleCount(): number {
    return this.#idle.length;
  }

  /** Runs `work` on a borrowed connection; one whose work failed is closed rather than given back. */
  async use<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const conn = this.#idle.pop() ?? (await this.db.connect());
    let isReusable = false;
    try {
      const result = await work(conn);
      isReusable = true;
      return result;
    } finally {
      if (isReusable && !this.#isClosed && this.#idle.length < this.maxIdle) this.#idle.push(conn);
      else conn.closeSync();
    }
  }

  /** Closes the idle connections; borrowed ones close when given back. */
  close(): void {
    this.#isClosed = true;
    for (const conn of this.#idle.splice(0)) conn.closeSync();
  }
}
