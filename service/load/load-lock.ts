/**
 * The per-website load lock, `store/<websiteId>/.load.lock`: a pid lock (service/pid-lock.ts), so one load of a
 * website at a time on this host. Over a shared PostgreSQL server (DATABASE_URL), hosts sharing the store also take
 * the website's advisory lock, held by a connection of the load's own: a load that dies drops it with its connection.
 */
import path from 'node:path';
import { LOCK_FILE } from '../store/layout.ts';
import { acquirePidLock, type PidLock } from '../pid-lock.ts';
import { acquireSharedLock } from '../shared-lock.ts';
import { LoadError } from './load-error.ts';
import { announceStoreChange } from '../app-db/db.ts';

export { isPidAlive } from '../pid-lock.ts';
export type LoadLock = PidLock;

export function acquireLoadLock(websiteDirPath: string, websiteId: string): LoadLock {
  const file = path.join(websiteDirPath, LOCK_FILE);
  return acquirePidLock(file, (pid) => busy(file, websiteId, pid));
}

export interface SharedLoadLock {
  /** Tells the replicas listening on the server that this load is published, so they rescan the store now. */
  announce(): Promise<void>;
  release(): Promise<void>;
}

export async function acquireSharedLoadLock(
  databaseUrl: string,
  websiteDirPath: string,
  websiteId: string,
): Promise<SharedLoadLock> {
  const lock = await acquireSharedLock(
    databaseUrl,
    `thc-load:${websiteId}`,
    () =>
      new LoadError(
        `${websiteDirPath}: another load (on another host) is running for website "${websiteId}"`,
        'locked',
      ),
  );
  return {
    // A lost announcement only delays the new crawl until the replicas' store poll.
    announce: () => announceStoreChange(lock.client).catch(() => undefined),
    release: () => lock.release(),
  };
}

const busy = (file: string, websiteId: string, pid: number | undefined): LoadError =>
  new LoadError(
    `${file}: another load (${pid === undefined ? 'pid unknown' : `pid ${pid}`}) is running for website "${websiteId}"`,
    'locked',
  );
