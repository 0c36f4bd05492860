import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Offline by design: nothing may try to download an extension. */
const BASE_OPTIONS = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
} as const;

export interface OpenOptions {
  readOnly?: boolean;
  threads?: number;
  memoryLimit?: string;
}

export async function openDatabase(file = ':memory:', options: OpenOptions = {}): Promise<DuckDBInstance> {
  const settings: Record<string, string> = { ...BASE_OPTIONS, threads: String(options.threads ?? 2) };
  if (options.readOnly) settings.access_mode = 'READ_ONLY';
  if (options.memoryLimit) settings.memory_limit = options.memoryLimit;
  return DuckDBInstance.create(file, settings);
}

/** Runs `work` on a fresh connection: a streaming result is invalidated by any other query on its connection. */
export async function withConnection<T>(db: DuckDBInstance, work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const conn = await db.connect();
  try {
    return await work(conn);
  } finally {
    conn.closeSync();
  }
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
export const quoteLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** A scalar as text; anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
