/**
 * The per-website load lock, `store/<websiteId>/.load.lock`: a pid lock (service/pid-lock.ts), so one load of a
 * website at a time on this host.
 */
import path from 'node:path';
import { LOCK_FILE } from '../store/layout.ts';
import { acquirePidLock, type PidLock } from '../pid-lock.ts';
import { LoadError } from './load-error.ts';

export { isPidAlive } from '../pid-lock.ts';
export type LoadLock = PidLock;

export function acquireLoadLock(websiteDirPath: string, websiteId: string): LoadLock {
  const file = path.join(websiteDirPath, LOCK_FILE);
  return acquirePidLock(file, (pid) => busy(file, websiteId, pid));
}

const busy = (file: string, websiteId: string, pid: number | undefined): LoadError =>
  new LoadError(
    `${file}: another load (${pid === undefined ? 'pid unknown' : `pid ${pid}`}) is running for website "${websiteId}"`,
    'locked',
  );
