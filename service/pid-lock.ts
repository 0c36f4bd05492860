/**
 * A lock held by a process on one host: a file created with O_EXCL ('wx') holding the pid of its owner. A lock
 * whose process is gone is stale and taken over; the take-over itself runs under a short-lived guard file so two
 * processes cannot both remove the same stale lock and both go ahead.
 */
import fs from 'node:fs';

/** A lock file without a pid yet is presumed live this long (its owner is between open and write). */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;
const TAKEOVER_SUFFIX = '.takeover';

export interface PidLock {
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

/** Takes the lock, or throws `busy(pid of the holder)` while a live process holds it. */
export function acquirePidLock(file: string, busy: (pid: number | undefined) => Error): PidLock {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file)) return { file, release: () => releaseLock(file) };
    const holder = readHolder(file);
    if (!holder) continue;
    if (isHolderLive(holder)) throw busy(holder.pid);
    takeOverStale(file, holder, busy);
  }
  throw busy(readHolder(file)?.pid);
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

function takeOverStale(file: string, stale: Holder, busy: (pid: number | undefined) => Error): void {
  const guard = `${file}${TAKEOVER_SUFFIX}`;
  if (!tryCreate(guard)) {
    const guardHolder = readHolder(guard);
    if (guardHolder && isHolderLive(guardHolder)) throw busy(guardHolder.pid);
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
