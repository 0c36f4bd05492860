/**
 * Connections the engine's queries borrow and give back. Opening a connection is a round trip to a worker thread,
 * and on an idle machine each round trip costs a thread wake-up: a page query that opened its own connection spent
 * as long on that as on reading its rows. A borrowed connection runs one query at a time and is nobody else's until
 * given back, so its materialized results are never invalidated by another query (results are not streamed here).
 * Each connection keeps its prepared statements (statement-cache.ts) while it is pooled.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
import { StatementCache } from './statement-cache.ts';

/** Idle connections kept: more than the requests a 2-core service runs at once. */
export const MAX_IDLE_CONNECTIONS = 8;

export class ConnectionPool {
  readonly #idle: StatementCache[] = [];
  #isClosed = false;
  #generation = 0;

  constructor(
    readonly db: DuckDBInstance,
    readonly maxIdle = MAX_IDLE_CONNECTIONS,
  ) {}

  get idleCount(): number {
    return this.#idle.length;
  }

  /**
   * Runs `work` on a borrowed connection (`statements.conn`) with its kept statements; one whose work failed is closed
   * rather than given back.
   */
  async use<T>(work: (statements: StatementCache) => Promise<T>): Promise<T> {
    const statements = this.#idle.pop() ?? new StatementCache(await this.db.connect());
    const generation = this.#generation;
    let isReusable = false;
    try {
      const result = await work(statements);
      isReusable = true;
      return result;
    } finally {
      if (generation !== this.#generation) statements.clear();
      if (isReusable && !this.#isClosed && this.#idle.length < this.maxIdle) this.#idle.push(statements);
      else statements.conn.closeSync();
    }
  }

  /** Drops every connection's kept statements (the crawl store changed): idle ones now, borrowed ones on return. */
  clearStatements(): void {
    this.#generation += 1;
    for (const statements of this.#idle) statements.clear();
  }

  /** Closes the idle connections; borrowed ones close when given back. */
  close(): void {
    this.#isClosed = true;
    for (const { conn } of this.#idle.splice(0)) conn.closeSync();
  }
}
