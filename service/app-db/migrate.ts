import { createHash } from 'node:crypto';
import type { Sql } from './sql.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The advisory lock that makes replicas starting together migrate one after the other. */
const MIGRATION_LOCK = 1_600_001;

const checksumOf = (migration: Migration): string => createHash('sha256').update(migration.sql).digest('hex');

/**
 * Applies the migrations the database lacks, in version order, inside the caller's transaction, holding an advisory
 * lock until it commits: a replica that starts meanwhile waits, then finds the work done. Versions ascend but may
 * leave gaps (branches reserve their numbers), so a migration is matched by its version, not its place, and one
 * below an applied version is still applied when it arrives. A database written by a newer build, or one whose
 * applied migration no longer matches its shipped text, is refused rather than guessed at.
 */
export async function migrate(tx: Sql, migrations: readonly Migration[], now: Date): Promise<number[]> {
  migrations.forEach((m, i) => {
    const before = migrations[i - 1];
    if (!Number.isInteger(m.version) || m.version < 1 || (before && m.version <= before.version))
      throw new Error(`Migration ${m.name} has version ${m.version}, expected more than ${before?.version ?? 0}`);
  });
  await tx.all('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
  await tx.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name VARCHAR NOT NULL,
    checksum VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL
  )`);
  const applied = await tx.all<{ version: number; name: string; checksum: string }>(
    'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
  );
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const latest = migrations.at(-1)?.version ?? 0;
  for (const row of applied) {
    const known = byVersion.get(row.version);
    if (!known)
      throw new Error(
        `The app database is at schema version ${row.version} (${row.name}), newer than this build knows (${latest})`,
      );
    if (checksumOf(known) !== row.checksum)
      throw new Error(`Migration ${row.version} (${row.name}) was changed after it was applied; add a new migration`);
  }
  const appliedVersions = new Set(applied.map((row) => row.version));
  const done: number[] = [];
  for (const migration of migrations.filter((m) => !appliedVersions.has(m.version))) {
    await tx.run(migration.sql);
    await tx.run('INSERT INTO schema_migrations VALUES (?, ?, ?, ?)', [
      migration.version,
      migration.name,
      checksumOf(migration),
      now,
    ]);
    done.push(migration.version);
  }
  return done;
}
