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
import { LRUCache } from 'lru-cache';

/** A statement's bound values and their types (undefined: inferred from the value). */
export interface Bindings {
  values: DuckDBValue[];
  types: (DuckDBType | undefined)[];
}

/** Statements kept per connection; a connection's idle statements hold only their plans. */
export const MAX_STATEMENTS = 64;

export class StatementCache {
  /** By SQL, least recently used evicted first; an evicted or cleared statement is destroyed. */
  readonly #statements: LRUCache<string, DuckDBPreparedStatement>;
  /**
   * Texts run once so far; apart from the kept statements, so that page turns to new offsets, each a text of its own,
   * never push a kept statement out.
   */
  readonly #seenOnce: LRUCache<string, true>;

  constructor(
    readonly conn: DuckDBConnection,
    readonly maxStatements = MAX_STATEMENTS,
  ) {
    this.#statements = new LRUCache({ max: maxStatements, dispose: (statement) => statement.destroySync() });
    this.#seenOnce = new LRUCache({ max: maxStatements });
  }

  get size(): number {
    return this.#statements.size;
  }

  /** Whether a prepared statement of `sql` is kept. */
  has(sql: string): boolean {
    return this.#statements.has(sql);
  }

  /** Destroys every kept statement. */
  clear(): void {
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
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (!bindings && !this.#seenOnce.delete(sql)) {
        this.#seenOnce.set(sql, true);
        return this.conn.run(sql);
      }
      statement = await this.conn.prepare(sql);
      this.#statements.set(sql, statement);
    }
    if (bindings) statement.bind(bindings.values, bindings.types as DuckDBType[]);
    return statement.run();
  }
}
