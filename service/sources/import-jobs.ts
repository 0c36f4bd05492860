/**
 * The Data sources page's background jobs: each import or removal runs in a child process (import-worker.ts) of the
 * replica that started it; the job itself lives in the app database (import-job-rows.ts), so the page's poll may
 * reach any replica and one job per website runs at a time across replicas (the store's import lock refuses one
 * started elsewhere too). A job is `checked` once its files are read and its version written, or it has ended: the
 * call that started it answers then, so bad input is refused by that call; refreshing the crawls goes on, and the
 * page polls the job.
 */
import crypto from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportJob } from '../../catalog/data-source-calls.ts';
import type { Sql } from '../app-db/sql.ts';
import { firstLine } from '../error-text.ts';
import type { ImportErrorKind } from './import-error.ts';
import { beat, endJob, insertJob, jobsOf, writeStep } from './import-job-rows.ts';
import type { FromImportWorker, ToImportWorker } from './import-worker.ts';

const WORKER = path.join(import.meta.dirname, 'import-worker.ts');
const ROOT = path.resolve(import.meta.dirname, '../..');
/** How often the replica running jobs says it is alive (STALE_HEARTBEAT_MS is far longer). */
const BEAT_MS = 10_000;

export type JobRefusal = { error: string; kind: ImportErrorKind | 'error' };

/** Another job of the website is running, on this replica or another. */
export const JOB_RUNNING: JobRefusal = {
  error: 'Another import is running for this website; try again when it is done',
  kind: 'locked',
};

interface Entry {
  job: ImportJob;
  child: ChildProcess | undefined;
  /** Files the job was given that are removed when it ends (an upload's temporary folder). */
  tempDir: string | undefined;
  /** The job's writes to the app database, in order. */
  writes: Promise<void>;
}

export interface ImportJobsOptions {
  appDb: Sql;
  clock: () => Date;
  /** After a job that changed the store: the service reads it again. */
  onChanged: () => Promise<void>;
  logger: { error(line: string): void };
}

export class ImportJobs {
  /** Jobs this replica runs. */
  readonly #running = new Map<string, Entry>();
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  #beat: NodeJS.Timeout | undefined;
  #isClosing = false;

  constructor(private readonly options: ImportJobsOptions) {}

  /** The website's latest jobs, newest first, whichever replica runs them. */
  ofWebsite(websiteId: string): Promise<ImportJob[]> {
    return jobsOf(this.options.appDb, websiteId, this.owner, this.options.clock());
  }

  async isRunning(websiteId: string): Promise<boolean> {
    return (await this.ofWebsite(websiteId)).some((j) => j.status === 'running');
  }

  /**
   * Starts a job; resolves once it is checked, with the refusal when it failed (JOB_RUNNING when the website has one
   * running). The job's `files` are what the page shows; `tempDir` is removed when the job ends.
   */
  async start(
    job: Pick<ImportJob, 'websiteId' | 'source' | 'kind' | 'files' | 'by'>,
    message: ToImportWorker,
    tempDir?: string,
  ): Promise<{ job: ImportJob; refusal: JobRefusal | undefined }> {
    const now = this.options.clock();
    const entry: Entry = {
      job: {
        ...job,
        id: crypto.randomUUID(),
        status: 'running',
        step: null,
        startedAt: now.toISOString(),
        endedAt: null,
        summary: null,
      },
      child: undefined,
      tempDir,
      writes: Promise.resolve(),
    };
    await this.ofWebsite(job.websiteId); // fails the jobs of replicas that are gone, which would block this one
    if (!(await insertJob(this.options.appDb, entry.job, this.owner, now))) {
      if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
      return { job: entry.job, refusal: JOB_RUNNING };
    }
    this.#running.set(entry.job.id, entry);
    this.#beat ??= setInterval(() => {
      beat(this.options.appDb, this.owner, this.options.clock()).catch((error: unknown) =>
        this.options.logger.error(`data sources jobs: heartbeat failed: ${firstLine(error)}`),
      );
    }, BEAT_MS).unref();
    const refusal = await this.#run(entry, message);
    return { job: { ...entry.job }, refusal };
  }

  /** Queues a write of the job's state; a failed write is logged (the job goes on). */
  #write(entry: Entry, write: (sql: Sql, now: Date) => Promise<void>): Promise<void> {
    entry.writes = entry.writes
      .then(() => write(this.options.appDb, this.options.clock()))
      .catch((error: unknown) =>
        this.options.logger.error(`data sources job ${entry.job.id}: app database write failed: ${firstLine(error)}`),
      );
    return entry.writes;
  }

  #run(entry: Entry, message: ToImportWorker): Promise<JobRefusal | undefined> {
    return new Promise((resolve) => {
      const child = fork(WORKER, [], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      entry.child = child;
      let stderr = '';
      let outcome: Exclude<FromImportWorker, { type: 'step' }> | undefined;
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      child.on('message', (heard: FromImportWorker) => {
        if (heard.type !== 'step') return void (outcome = heard);
        entry.job.step = heard.step;
        const written = this.#write(entry, (sql, now) => writeStep(sql, entry.job.id, heard.step, now));
        if (heard.step.phase === 'refreshing') void written.then(() => resolve(undefined));
      });
      child.once('exit', (code, signal) => {
        const ended = outcome ?? {
          type: 'failed' as const,
          error: `the import stopped (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`,
          kind: 'error' as const,
        };
        void this.#end(entry, ended).then(() =>
          resolve(ended.type === 'failed' ? { error: ended.error, kind: ended.kind } : undefined),
        );
      });
      child.on('error', (error) => {
        if (child.pid !== undefined) return;
        const failed = {
          type: 'failed' as const,
          error: `the import could not start: ${error.message}`,
          kind: 'error' as const,
        };
        void this.#end(entry, failed).then(() => resolve({ error: failed.error, kind: 'error' }));
      });
      child.send(message);
    });
  }

  async #end(entry: Entry, outcome: Exclude<FromImportWorker, { type: 'step' }>): Promise<void> {
    if (entry.job.status !== 'running') return;
    entry.child = undefined;
    if (entry.tempDir) fs.rmSync(entry.tempDir, { recursive: true, force: true });
    entry.job.endedAt = this.options.clock().toISOString();
    entry.job.status = outcome.type === 'done' ? 'done' : 'failed';
    entry.job.summary = outcome.type === 'done' ? outcome.summary : outcome.error;
    await this.#write(entry, (sql) => endJob(sql, entry.job));
    this.#running.delete(entry.job.id);
    if (this.#running.size === 0) this.#stopBeat();
    if (outcome.type === 'failed' && outcome.kind === 'error')
      this.options.logger.error(`data sources job ${entry.job.id} failed: ${outcome.error}`);
    if (this.#isClosing) return;
    this.options
      .onChanged()
      .catch((error: unknown) => this.options.logger.error(`store refresh failed: ${String(error)}`));
  }

  #stopBeat(): void {
    clearInterval(this.#beat);
    this.#beat = undefined;
  }

  /**
   * Stops running jobs (the service is closing): an import is atomic, so one stopped leaves the store as it was; each
   * is recorded as failed before the app database closes.
   */
  async close(): Promise<void> {
    this.#isClosing = true;
    this.#stopBeat();
    const running = [...this.#running.values()];
    await Promise.all(
      running.map(
        (e) =>
          new Promise<void>((resolve) => {
            if (!e.child) return resolve(e.writes);
            e.child.once('exit', () => setImmediate(() => resolve(e.writes)));
            e.child.kill('SIGKILL');
          }),
      ),
    );
  }
}
