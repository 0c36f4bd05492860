/** What app-state code needs from the app database, whichever PostgreSQL holds it (service/app-db/db.ts). */
import type { CachedTopic } from './cached-topics.ts';

/** Values a statement can bind. Dates bind as TIMESTAMP (UTC), string arrays as VARCHAR[]. */
export type SqlParam = string | number | boolean | null | Date | readonly string[];

/** Statements take `?` placeholders, bound in order. */
export interface Sql {
  all<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  run(sql: string, params?: readonly SqlParam[]): Promise<void>;
  /**
   * A read whose answer depends on nothing but the database and `params` (no clock, no randomness): answered from
   * memory until `topic` is next changed, by this process or, over a PostgreSQL server, any other. Callers must not
   * modify the rows.
   */
  cached<T>(topic: CachedTopic, sql: string, params?: readonly SqlParam[]): Promise<readonly T[]>;
  /**
   * Says that what was just written changes the answers of these topics' reads (cached-topics.ts): dropped here at
   * once, or at commit inside a transaction, and on the other replicas by a notification.
   */
  changed(...topics: CachedTopic[]): Promise<void>;
}
