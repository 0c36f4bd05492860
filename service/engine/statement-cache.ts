/**
 * Prepared statements of one pooled connection, kept by their SQL. A page asked for again (a refresh, a skipCache
 * reload, another analyst on the same tab) compiles to the same text, and running it prepared skips DuckDB's parsing
 * and planning, about half of a fresh 100-row page's query. Only statements without bound values are kept: running
 * one never changes it, so a kept statement is the same query each time. DuckDB plans a kept statement again by
 * itself when a database it reads has changed since it was prepared.
 */
import type { DuckDBConnection, DuckDBMaterializedResult, DuckDBPreparedStatement } from '@duckdb/node-api';

/** Statements kept per connection; a connection's idle statements hold only their plans. */
export const MAX_STATEMENTS = 64;

export class StatementCache {
  readonly #statements = new Map<string, DuckDBPreparedStatement>();

  constructor(
    readonly conn: DuckDBConnection,
    readonly maxStatements = MAX_STATEMENTS,
  ) {}

  get size(): number {
    return this.#statements.size;
  }

  has(sql: string): boolean {
    return this.#statements.has(sql);
  }

  /** Destroys every kept statement. */
  clear(): void {
    for (const statement of this.#statements.values()) statement.destroySync();
    this.#statements.clear();
  }

  /** Runs `sql` (one statement without bound values) from its kept prepared statement, preparing it the first time. */
  async run(sql: string): Promise<DuckDBMaterializedResult> {
    let statement = this.#statements.get(sql);
    if (statement) this.#statements.delete(sql);
    else statement = await this.conn.prepare(sql);
    // Re-inserting moves the statement to the most recent end of the Map's order.
    this.#statements.set(sql, statement);
    for (const [oldest, evicted] of this.#statements) {
      if (this.#statements.size <= this.maxStatements) break;
      this.#statements.delete(oldest);
      evicted.destroySync();
    }
    return statement.run();
  }
}
