/** What the app database runs on: a PostgreSQL server (server-connection.ts) or PGlite (embedded-connection.ts). */
export const IN_MEMORY = ':memory:';

/** Another process holds the embedded database. */
export class AppDbLockedError extends Error {}

export const isLockedError = (error: unknown): boolean => error instanceof AppDbLockedError;

export type Rows = Record<string, unknown>[];
/** Without parameters, `sql` may hold several statements separated by semicolons (the last one's rows return). */
export type Query = (sql: string, params: readonly unknown[]) => Promise<Rows>;

export interface Connection {
  readonly isShared: boolean;
  query: Query;
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Rejects unless the server answers within `timeoutMs` (absent: an embedded database, there while open). */
  ping?(timeoutMs: number): Promise<void>;
  /** Listens on `channel` from now on, reconnecting after a loss; resolves once listening the first time. */
  listen?(channel: string, events: ListenEvents): Promise<void>;
  close(): Promise<void>;
}

export interface ListenEvents {
  onNotify(payload: string): void;
  /** Notifications may be missed from now on. */
  onLost(): void;
  /** Listening (again): whatever was missed is unknown. */
  onListening(): void;
}
