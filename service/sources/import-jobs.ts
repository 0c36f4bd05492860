/**
 * The Data sources page's background jobs: each import or removal runs in a child process (import-worker.ts), one
 * per website at a time in this process (the store's import lock refuses one started elsewhere). A job is `checked`
 * once its files are read and its version written, or it has ended: the call that started it answers then, so bad
 * input is refused by that call; refreshing the crawls goes on, and the page polls the job. The latest jobs of each
 * website are kept in memory (JOBS_KEPT), which a replica does not share with another.
 */
import crypto from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportJob } from '../../catalog/data-source-calls.ts';
import type { ImportErrorKind } from './import-error.ts';
import type { FromImportWorker, ToImportWorker } from './import-worker.ts';

const WORKER = path.join(import.meta.dirname, 'import-worker.ts');
const ROOT = path.resolve(import.meta.dirname, '../..');
export const JOBS_KEPT = 10;

export type JobRefusal = { error: string; kind: ImportErrorKind | 'error' };

interface Entry {
  job: ImportJob;
  child: ChildProcess | undefined;
  /** Files the job was given that are removed when it ends (an upload's temporary folder). */
  tempDir: string | undefined;
  checked: Promise<JobRefusal | undefined>;
}

export interface ImportJobsOptions {
  clock: () => Date;
  /** After a job that changed the store: the service reads it again. */
  onChanged: () => Promise<void>;
  logger: { error(line: string): void };
}

export class ImportJobs {
  readonly #jobs = new Map<string, Entry[]>();

  constructor(private readonly options: ImportJobsOptions) {}

  /** The website's latest jobs, newest first. */
  ofWebsite(websiteId: string): ImportJob[] {
    return (this.#jobs.get(websiteId) ?? []).map((e) => ({ ...e.job }));
  }

  isRunning(websiteId: string): boolean {
    return (this.#jobs.get(websiteId) ?? []).some((e) => e.job.status === 'running');
  }

  /**
   * Starts a job; resolves once it is checked, with the refusal when it failed. The job's `files` are what the page
   * shows; `tempDir` is removed when the job ends.
   */
  async start(
    job: Pick<ImportJob, 'websiteId' | 'source' | 'kind' | 'files' | 'by'>,
    message: ToImportWorker,
    tempDir?: string,
  ): Promise<{ job: ImportJob; refusal: JobRefusal | undefined }> {
    const entry: Entry = {
      job: {
        ...job,
        id: crypto.randomUUID(),
        status: 'running',
        step: null,
        startedAt: this.options.clock().toISOString(),
        endedAt: null,
        summary: null,
      },
      child: undefined,
      tempDir,
      checked: Promise.resolve(undefined),
    };
    const list = this.#jobs.get(job.websiteId) ?? [];
    list.unshift(entry);
    // Running jobs are never dropped: only ended ones beyond the newest JOBS_KEPT.
    this.#jobs.set(
      job.websiteId,
      list.filter((e, i) => i < JOBS_KEPT || e.job.status === 'running'),
    );
    entry.checked = this.#run(entry, message);
    const refusal = await entry.checked;
    return { job: { ...entry.job }, refusal };
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
        if (heard.step.phase === 'refreshing') resolve(undefined);
      });
      child.once('exit', (code, signal) => {
        const ended = outcome ?? {
          type: 'failed' as const,
          error: `the import stopped (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`,
          kind: 'error' as const,
        };
        this.#end(entry, ended);
        resolve(ended.type === 'failed' ? { error: ended.error, kind: ended.kind } : undefined);
      });
      child.on('error', (error) => {
        if (child.pid !== undefined) return;
        this.#end(entry, { type: 'failed', error: `the import could not start: ${error.message}`, kind: 'error' });
        resolve({ error: entry.job.summary ?? '', kind: 'error' });
      });
      child.send(message);
    });
  }

  #end(entry: Entry, outcome: Exclude<FromImportWorker, { type: 'step' }>): void {
    if (entry.job.status !== 'running') return;
    entry.child = undefined;
    if (entry.tempDir) fs.rmSync(entry.tempDir, { recursive: true, force: true });
    entry.job.endedAt = this.options.clock().toISOString();
    entry.job.status = outcome.type === 'done' ? 'done' : 'failed';
    entry.job.summary = outcome.type === 'done' ? outcome.summary : outcome.error;
    if (outcome.type === 'failed' && outcome.kind === 'error')
      this.options.logger.error(`data sources job ${entry.job.id} failed: ${outcome.error}`);
    this.options
      .onChanged()
      .catch((error: unknown) => this.options.logger.error(`store refresh failed: ${String(error)}`));
  }

  /** Stops running jobs (the service is closing): an import is atomic, so one stopped leaves the store as it was. */
  async close(): Promise<void> {
    const running = [...this.#jobs.values()].flat().filter((e) => e.child !== undefined);
    await Promise.all(
      running.map(
        (e) =>
          new Promise<void>((resolve) => {
            e.child!.once('exit', () => resolve());
            e.child!.kill('SIGKILL');
          }),
      ),
    );
  }
}
