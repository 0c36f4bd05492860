/**
 * Moves an installation's app state from one app database to another (`npm run admin -- app-db migrate-to URL`, and
 * an earlier build's app.duckdb at first start): every table, row for row, in one transaction on the target, which
 * must hold no app state yet. The target is at this build's schema; a column or table the source lacks (it is
 * older) keeps its default.
 */
import type { AppDb } from './db.ts';
import { APP_TABLES } from './app-tables.ts';
import { ALL_TOPICS } from './cached-topics.ts';
import { AppDataError } from './errors.ts';
import type { Sql, SqlParam } from './sql.ts';

/** The tables with generated ids restart their sequence past the copied ids. */
const GENERATED_IDS = [
  'users',
  'sessions',
  'approval_log',
  'checklist_items',
  'crawl_runs',
  'admin_log',
  'notifications',
];
const COPY_LOCK = 1_600_002;

export type CopyCounts = Record<(typeof APP_TABLES)[number], number>;

async function columnsOf(sql: Pick<Sql, 'all'>, table: string): Promise<string[]> {
  const rows = await sql.all<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position, column_name`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/** The first table holding rows, or undefined when none does. */
async function firstTableWithRows(sql: Pick<Sql, 'all'>): Promise<string | undefined> {
  for (const table of APP_TABLES) {
    const [row] = await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    if (row!.n > 0) return table;
  }
  return undefined;
}

export const holdsAppState = async (sql: Pick<Sql, 'all'>): Promise<boolean> =>
  (await firstTableWithRows(sql)) !== undefined;

export async function copyAppState(from: Pick<Sql, 'all'>, to: AppDb): Promise<CopyCounts> {
  return to.transaction(async (tx) => {
    const counts = {} as CopyCounts;
    // Replicas starting together on an earlier build's DATA_DIR: one copies, the others then find the rows there.
    await tx.all('SELECT pg_advisory_xact_lock(?)', [COPY_LOCK]);
    const filled = await firstTableWithRows(tx);
    if (filled) throw new AppDataError(`The target already holds app state (${filled} has rows)`, 409);
    for (const table of APP_TABLES) {
      const sourceColumns = new Set(await columnsOf(from, table));
      const columns = (await columnsOf(tx, table)).filter((c) => sourceColumns.has(c));
      counts[table] = 0;
      if (columns.length === 0) continue;
      const list = columns.map((c) => `"${c}"`).join(', ');
      const rows = await from.all<Record<string, SqlParam>>(`SELECT ${list} FROM ${table} ORDER BY ${list}`);
      const insert = `INSERT INTO ${table} (${list}) VALUES (${columns.map(() => '?').join(', ')})`;
      for (const r of rows)
        await tx.run(
          insert,
          columns.map((c) => r[c] ?? null),
        );
      counts[table] = rows.length;
      if (GENERATED_IDS.includes(table))
        await tx.all(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`,
        );
    }
    // When the schema was applied moves along too: the auto-approval makes up no run scheduled before version 1.
    const applied = await from.all<{ version: number; applied_at: Date }>(
      'SELECT version, applied_at FROM schema_migrations ORDER BY version',
    );
    for (const m of applied)
      await tx.run('UPDATE schema_migrations SET applied_at = ? WHERE version = ?', [m.applied_at, m.version]);
    await tx.changed(...ALL_TOPICS);
    return counts;
  });
}
