/**
 * A lock shared by the hosts of one store: a PostgreSQL advisory lock on the app database's server (DATABASE_URL),
 * held by a connection of its own, so a holder that dies drops it with its connection. The pid lock (pid-lock.ts)
 * keeps out the processes of one host; this one the other hosts.
 */
import pg from 'pg';

export interface SharedLock {
  /** The lock's own connection, for a notification sent while holding it. */
  client: pg.Client;
  release: () => Promise<void>;
}

/** Takes the advisory lock named `name`, or throws `busy()` while another connection holds it. */
export async function acquireSharedLock(databaseUrl: string, name: string, busy: () => Error): Promise<SharedLock> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'thc-lock' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const [row] = (
      await client.query<{ isLocked: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS "isLocked"`, [
        name,
      ])
    ).rows;
    if (!row?.isLocked) throw busy();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { client, release: () => client.end().catch(() => undefined) };
}
