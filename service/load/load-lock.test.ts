import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../store/layout.ts';
import { LoadError } from './load-error.ts';
import { acquireLoadLock, isPidAlive } from './load-lock.ts';

let dir: string;
let lockFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'load-lock-'));
  lockFile = path.join(dir, LOCK_FILE);
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pid that certainly belongs to no process: a child that has already exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('acquireLoadLock', () => {
  it('creates the lock holding our pid and removes it on release', () => {
    const lock = acquireLoadLock(dir, 'acme');
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('refuses while a live process holds it, naming the pid', () => {
    const lock = acquireLoadLock(dir, 'acme');
    try {
      expect(() => acquireLoadLock(dir, 'acme')).toThrow(
        new LoadError(`${lockFile}: another load (pid ${process.pid}) is running for website "acme"`, 'locked'),
      );
    } finally {
      lock.release();
    }
  });

  it('refuses a lock held by another live process', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(lockFile, `${child.pid}\n`);
      expect(() => acquireLoadLock(dir, 'acme')).toThrow(`another load (pid ${child.pid}) is running`);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('takes over a stale lock whose process is gone', () => {
    const pid = deadPid();
    expect(isPidAlive(pid)).toBe(false);
    fs.writeFileSync(lockFile, `${pid}\n`);
    const lock = acquireLoadLock(dir, 'acme');
    expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('treats a lock without a pid as live while fresh and as stale once old', () => {
    fs.writeFileSync(lockFile, '');
    expect(() => acquireLoadLock(dir, 'acme')).toThrow('another load (pid unknown) is running');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile, old, old);
    acquireLoadLock(dir, 'acme').release();
  });

  it('does not remove a lock that another process has taken since', () => {
    const lock = acquireLoadLock(dir, 'acme');
    fs.writeFileSync(lockFile, '1\n');
    lock.release();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe('1\n');
  });
});
