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

/** The nice value of a crawl run's process, every thread of it: the dashboard's own work always comes first. */
export const CRAWL_NICE = 19;

/** Lowers every thread but the event loop to WORKER_NICE; new threads appear over time, so call it again. */
export function lowerWorkerThreads(): number {
  return lowerThreads(WORKER_NICE, process.pid);
}

/**
 * Lowers every thread of this process, the event loop included, to `nice`. Nice is per thread on Linux, and the
 * threads V8 starts with the process do not inherit what is set on its main thread later: call it again as threads come.
 */
export function lowerEveryThread(nice: number): number {
  return lowerThreads(nice);
}

function lowerThreads(nice: number, except?: number): number {
  if (process.platform !== 'linux' || !fs.existsSync(TASK_DIR)) return 0;
  let lowered = 0;
  for (const entry of fs.readdirSync(TASK_DIR)) {
    const tid = Number(entry);
    if (!Number.isInteger(tid) || tid === except) continue;
    try {
      if (os.getPriority(tid) >= nice) continue;
      os.setPriority(tid, nice);
      lowered++;
    } catch {
      // The thread ended in between.
    }
  }
  return lowered;
}
