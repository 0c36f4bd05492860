import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import { AppDb, IN_MEMORY } from '../app-db/db.ts';
import { readCrawlSilenceMs } from '../config.ts';
import { CrawlRunner, INTERRUPTED, STALE_HEARTBEAT_MS, runExportDir } from './runner.ts';
import { claimQueuedRun, queueRun } from './runs.ts';

const NOW = new Date('2026-03-25T10:00:00.000Z');
let appDb: AppDb;
let dataDir: string;

beforeAll(async () => {
  appDb = await AppDb.open(IN_MEMORY);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-runner-'));
});
afterAll(async () => {
  await appDb.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A run claimed by `owner` whose last heartbeat was `heartbeatAgoMs` before NOW, with an export directory. */
async function runningRun(websiteId: string, owner: string, heartbeatAgoMs: number): Promise<number> {
  await queueRun(appDb, {
    websiteId,
    trigger: 'manual',
    startedBy: null,
    scheduledFor: null,
    settings: defaultCrawlSettings(`${websiteId}.example`),
    now: NOW,
  });
  const run = await claimQueuedRun(appDb, owner, new Date(NOW.getTime() - heartbeatAgoMs));
  fs.mkdirSync(runExportDir(dataDir, run!.id), { recursive: true });
  return run!.id;
}

const statusOf = async (id: number) =>
  (
    await appDb.all<{ status: string; reason: string | null }>('SELECT status, reason FROM crawl_runs WHERE id = ?', [
      id,
    ])
  )[0];

describe('the runner at start-up and on each poll', () => {
  it('fails the runs of a dead process on this host or of a silent one elsewhere, and keeps the others', async () => {
    const deadPid = 2 ** 22 + 12345; // above the highest pid Linux can give (2^22): no such process
    const live = `${os.hostname()}:${process.pid}:other`;
    const dead = await runningRun('a', `${os.hostname()}:${deadPid}:x`, 0);
    const silent = await runningRun('b', 'another-host:42:x', STALE_HEARTBEAT_MS + 1000);
    const recent = await runningRun('c', 'another-host:43:x', STALE_HEARTBEAT_MS - 5000);
    const alive = await runningRun('d', live, 0);
    const runner = new CrawlRunner({
      appDb,
      dataDir,
      clock: () => NOW,
      workers: 1,
      silenceMs: readCrawlSilenceMs({}),
      onLoaded: () => Promise.resolve(),
      logger: { info: () => undefined, error: () => undefined },
    });
    await runner.poll();
    expect(await statusOf(dead)).toEqual({ status: 'failed', reason: INTERRUPTED });
    expect(await statusOf(silent)).toEqual({ status: 'failed', reason: INTERRUPTED });
    expect(await statusOf(recent)).toEqual({ status: 'running', reason: null });
    expect(await statusOf(alive)).toEqual({ status: 'running', reason: null });
    expect(fs.existsSync(runExportDir(dataDir, dead))).toBe(false);
    expect(fs.existsSync(runExportDir(dataDir, silent))).toBe(false);
    expect(fs.existsSync(runExportDir(dataDir, recent))).toBe(true);
    expect(runner.runningIds).toEqual([]);
  });
});
