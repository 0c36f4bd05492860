/**
 * On a small box, report queries (DuckDB's threads and the libuv pool that runs them) can keep every core busy.
 * The event loop answers look-ups from memory and streams every response, so it runs at normal priority and every
 * other thread of the process a little lower: a long query then never delays a cheap answer by a scheduler slice.
 * Linux only (threads are listed in /proc/self/task and setpriority takes a thread id); elsewhere it does nothing.
 */
import fs from 'node:fs';
import os from 'node:os';

/** The nice value of worker threads: CFS gives the event loop about nine times their share when both want a core. */
export const WORKER_NICE = 10;
const TASK_DIR = '/proc/self/task';

/** Lowers every thread but the event loop to WORKER_NICE; new threads appear over time, so call it again. */
export function lowerWorkerThreads(): number {
  if (process.platform !== 'linux' || !fs.existsSync(TASK_DIR)) return 0;
  let lowered = 0;
  for (const entry of fs.readdirSync(TASK_DIR)) {
    const tid = Number(entry);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      if (os.getPriority(tid) >= WORKER_NICE) continue;
      os.setPriority(tid, WORKER_NICE);
      lowered++;
    } catch {
      // The thread ended in between.
    }
  }
  return lowered;
}
