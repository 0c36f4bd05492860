import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

describe.runIf(process.platform === 'linux')('lowerEveryThread', () => {
  it('lowers the event loop and every thread the process started with (a crawl run worker)', () => {
    // In a child, since a lowered thread of this test process could not be raised again without privilege.
    const script = `
      import fs from 'node:fs';
      import os from 'node:os';
      import { lowerEveryThread } from './service/db/thread-priority.ts';
      const nice = () => fs.readdirSync('/proc/self/task').map((tid) => { try { return os.getPriority(Number(tid)); } catch { return 19; } });
      const before = nice();
      const lowered = lowerEveryThread(19);
      console.log(JSON.stringify({ lowered, before, priorities: nice() }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const { lowered, before, priorities } = JSON.parse(child.stdout) as {
      lowered: number;
      before: number[];
      priorities: number[];
    };
    expect(priorities.length).toBeGreaterThan(1);
    // Threads already at 19 (a test run under `nice`) need no lowering.
    expect(lowered).toBe(before.filter((p) => p < 19).length);
    expect(priorities.every((p) => p === 19)).toBe(true);
  });
});
