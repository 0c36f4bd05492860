/**
 * The per-website load lock, `store/<websiteId>/.load.lock`: created with O_EXCL ('wx') and holding the pid of
 * the loading process. A lock whose process is gone is stale and taken over; the take-over itself runs under
 * a short-lived guard file so two loaders cannot both remove the same stale lock and both go ahead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from '../store/layout.ts';
import { LoadError } from './load-error.ts';

/** A lock file without a pid yet is presumed live this long (its owner is between open and write). */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;
const TAKEOVER_SUFFIX = '.takeover';

export interface LoadLock {
  file: string;
  release(): void;
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireLoadLock(websiteDirPath: string, websiteId: string): LoadLock {
  const file = path.join(websiteDirPath, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file)) return { file, release: () => releaseLock(file) };
    const holder = readHolder(file);
    if (!holder) continue;
    if (isHolderLive(holder)) throw busy(file, websiteId, holder.pid);
    takeOverStale(file, holder, websiteId);
  }
  throw busy(file, websiteId, readHolder(file)?.pid);
}

/** Removes the lock only if it is still ours. */
function releaseLock(file: string): void {
  if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}

function tryCreate(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${process.pid}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

interface Holder {
  pid: number | undefined;
  content: string;
  mtimeMs: number;
}

function readHolder(file: string): Holder | undefined {
  try {
    const content = fs.readFileSync(file, 'utf8');
    const { mtimeMs } = fs.statSync(file);
    const pid = /^\d+$/.test(content.trim()) ? Number(content.trim()) : undefined;
    return { pid, content, mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const isHolderLive = (holder: Holder): boolean =>
  holder.pid === undefined ? Date.now() - holder.mtimeMs < UNWRITTEN_LOCK_GRACE_MS : isPidAlive(holder.pid);

function takeOverStale(file: string, stale: Holder, websiteId: string): void {
  const guard = `${file}${TAKEOVER_SUFFIX}`;
  if (!tryCreate(guard)) {
    const guardHolder = readHolder(guard);
    if (guardHolder && isHolderLive(guardHolder)) throw busy(file, websiteId, guardHolder.pid);
    fs.rmSync(guard, { force: true });
    return;
  }
  try {
    const now = readHolder(file);
    if (now && now.content === stale.content && now.mtimeMs === stale.mtimeMs) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

const busy = (file: string, websiteId: string, pid: number | undefined): LoadError =>
  new LoadError(
    `${file}: another load (${pid === undefined ? 'pid unknown' : `pid ${pid}`}) is running for website "${websiteId}"`,
    'locked',
  );
