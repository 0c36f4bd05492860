import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { openDatabase, withConnection } from './duckdb.ts';
import { WORKER_NICE, lowerWorkerThreads } from './thread-priority.ts';

describe.runIf(process.platform === 'linux')('lowerWorkerThreads', () => {
  it('lowers every thread but the event loop, DuckDB and libuv workers included, and leaves the event loop', async () => {
    const db = await openDatabase(':memory:', { threads: 2 });
    try {
      await withConnection(db, (conn) => conn.run('SELECT sum(range) FROM range(1000000)'));
      const before = os.getPriority(process.pid);
      lowerWorkerThreads();
      const tids = fs.readdirSync('/proc/self/task').map(Number);
      const workers = tids.filter((tid) => tid !== process.pid);
      expect(workers.length).toBeGreaterThan(2);
      const priorities = workers.map((tid) => {
        try {
          return os.getPriority(tid);
        } catch {
          return WORKER_NICE;
        }
      });
      expect(priorities.every((p) => p >= WORKER_NICE)).toBe(true);
      expect(os.getPriority(process.pid)).toBe(before);
      expect(lowerWorkerThreads()).toBe(0);
    } finally {
      db.closeSync();
    }
  });
});
