/**
 * Prepared statements of one pooled connection, kept by their SQL. A page asked for again (a refresh, a skipCache
 * reload, another analyst on the same tab) compiles to the same text, and running it prepared skips DuckDB's parsing
 * and planning, about half of a fresh 100-row page's query step. A statement with bound values (a filtered page) is
 * kept too and its values bound again on every run (the connection is borrowed exclusively, so no other run binds in
 * between): that saves the prepare round trip, not the planning, as DuckDB plans such a statement again on every run
 * to put its values into the plan. DuckDB plans a kept statement again by itself when a database it reads has changed
 * since it was prepared.
 */
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBType,
  DuckDBValue,
} from '@duckdb/node-api';

/** A statement's bound values and their types (undefined: inferred from the value). */
export interface Bindings {
  values: DuckDBValue[];
  types: (DuckDBType | undefined)[];
}

/** Statements kept per connection; a connection's idle statements hold only their plans. */
export const MAX_STATEMENTS = 64;

export class StatementCache {
  /** By SQL, in order of last use. */
  readonly #statements = new Map<string, DuckDBPreparedStatement>();
  /**
   * Texts run once so far, in order of their run; apart from the kept statements, so that page turns to new offsets,
   * each a text of its own, never push a kept statement out.
   */
  readonly #seenOnce = new Set<string>();

  constructor(
    readonly conn: DuckDBConnection,
    readonly maxStatements = MAX_STATEMENTS,
  ) {}

  get size(): number {
    return this.#statements.size;
  }

  /** Whether a prepared statement of `sql` is kept. */
  has(sql: string): boolean {
    return this.#statements.has(sql);
  }

  /** Destroys every kept statement. */
  clear(): void {
    for (const statement of this.#statements.values()) statement.destroySync();
    this.#statements.clear();
    this.#seenOnce.clear();
  }

  /**
   * Runs `sql` (one statement) with `bindings`, if it has bound values. Without bound values the first run is
   * unprepared: preparing and then running is two round trips to a worker thread, one more than running, which a page
   * asked for once would pay for nothing; the second run prepares and keeps it. With bound values running unprepared
   * is three round trips (split, prepare, run), so the first run prepares and keeps it at once. A kept statement
   * runs in one.
   */
  async run(sql: string, bindings?: Bindings): Promise<DuckDBMaterializedResult> {
    const known = this.#statements.get(sql);
    if (known === undefined && !bindings && !this.#seenOnce.delete(sql)) {
      this.#seenOnce.add(sql);
      if (this.#seenOnce.size > this.maxStatements) this.#seenOnce.delete(this.#seenOnce.values().next().value!);
      return this.conn.run(sql);
    }
    this.#statements.delete(sql);
    const statement = known ?? (await this.conn.prepare(sql));
    this.#keep(sql, statement);
    if (bindings) statement.bind(bindings.values, bindings.types as DuckDBType[]);
    return statement.run();
  }

  #keep(sql: string, statement: DuckDBPreparedStatement): void {
    // Inserted last: the Map's order is the order of last use.
    this.#statements.set(sql, statement);
    for (const [oldest, evicted] of this.#statements) {
      if (this.#statements.size <= this.maxStatements) break;
      this.#statements.delete(oldest);
      evicted.destroySync();
    }
  }
}
