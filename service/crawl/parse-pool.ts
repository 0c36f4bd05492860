/**
 * HTML parsing off the crawler's main thread: a few worker threads each run parse-html.ts, so parsing uses the
 * other cores while the main thread fetches and keeps the known-URL set. A worker that dies (out of memory on a
 * monster page) is replaced, and the pages it held are parsed again one at a time on a worker of their own, so the
 * page that kills it again is known and fails alone, with the reason, while the others are parsed. A page whose parse
 * takes longer than the time limit fails at once with that reason (a worker cannot be interrupted otherwise): its
 * worker is ended and replaced like a dead one.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParsedPage } from './parsed-page.ts';

export interface ParseRequest {
  id: number;
  body: Uint8Array;
  charset: string | null;
  url: string;
}

const require = createRequire(import.meta.url);
/**
 * The worker's bootstrap: registers tsx's loader in the worker itself (loader flags are not inherited by workers,
 * and vitest runs without them), then loads the TypeScript worker.
 */
const BOOTSTRAP = `import(${JSON.stringify(pathToFileURL(require.resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL('./parse-worker.ts', import.meta.url).href)}); });`;

/** A parser holds one page at a time: a small heap keeps the crawler's memory flat (V8 collects sooner). */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** Workers started in all to replace dead ones; past it, pages are refused rather than workers started forever. */
const MAX_REPLACEMENTS = 100;
/**
 * The longest one page's parse may take: ten times what the densest page under the body limit takes on a busy
 * machine (2 s). Some markup still costs time by the square of its size (htmlparser2 shifts an array per element
 * nested in SVG): a million nested `<svg>` would take minutes.
 */
export const PARSE_TIME_LIMIT_MS = 20_000;

type ParseReply = { ready: true } | { id: number; page: ParsedPage } | { id: number; error: string };

interface ParseJob {
  id: number;
  /** Kept until the page is parsed: a worker that dies takes the bytes it was sent with it. */
  body: Buffer;
  charset: string | null;
  url: string;
  isRetry: boolean;
  resolve: (page: ParsedPage) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  /** In the order sent: the first is the page being parsed. */
  jobs: Map<number, ParseJob>;
  isDead: boolean;
  /** Loaded and reading pages: the first page's time starts then, not while the worker starts. */
  isReady: boolean;
  timeLimit?: NodeJS.Timeout;
}

export class ParsePool {
  private readonly workers: PoolWorker[] = [];
  /** Pages a dead worker held, parsed again one at a time. */
  private readonly retries: ParseJob[] = [];
  private retryWorker: PoolWorker | null = null;
  private nextId = 0;
  private started = 0;
  private isClosed = false;

  constructor(
    size = Math.max(1, Math.min(2, os.availableParallelism())),
    private readonly timeLimitMs = PARSE_TIME_LIMIT_MS,
  ) {
    for (let i = 0; i < size; i++) this.workers.push(this.start((entry) => this.replace(entry)));
  }

  /** Parses one page on the least busy worker; rejects with the reason when it cannot be parsed. */
  parse(body: Buffer, charset: string | null, url: string): Promise<ParsedPage> {
    return new Promise((resolve, reject) => {
      const job: ParseJob = { id: this.nextId++, body, charset, url, isRetry: false, resolve, reject };
      let target: PoolWorker | undefined;
      for (const entry of this.workers) {
        if (!entry.isDead && (target === undefined || entry.jobs.size < target.jobs.size)) target = entry;
      }
      if (target === undefined) reject(new Error('no parse worker left'));
      else this.send(target, job);
    });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const all = this.retryWorker ? [...this.workers, this.retryWorker] : this.workers;
    for (const entry of all) clearTimeout(entry.timeLimit);
    await Promise.all(all.map((entry) => entry.worker.terminate()));
  }

  private send(entry: PoolWorker, job: ParseJob): void {
    entry.jobs.set(job.id, job);
    // A private copy is transferred: the body stays here for a retry, and a Buffer may share its memory with others.
    const bytes = new Uint8Array(job.body);
    const request: ParseRequest = { id: job.id, body: bytes, charset: job.charset, url: job.url };
    entry.worker.postMessage(request, [bytes.buffer]);
    if (entry.jobs.size === 1) this.startClock(entry);
  }

  /** Times the page the worker parses now, if any. */
  private startClock(entry: PoolWorker): void {
    clearTimeout(entry.timeLimit);
    const [current] = entry.jobs.values();
    if (!entry.isReady || current === undefined) return;
    entry.timeLimit = setTimeout(() => this.timeOut(entry, current), this.timeLimitMs);
  }

  /** The page took too long: it fails with the reason, and its worker is ended (then replaced, as a dead one is). */
  private timeOut(entry: PoolWorker, job: ParseJob): void {
    entry.jobs.delete(job.id);
    entry.isDead = true;
    job.reject(new Error(`parsing took longer than ${this.timeLimitMs / 1000} s`));
    void entry.worker.terminate();
  }

  private start(onDeath: (entry: PoolWorker, error: Error) => void): PoolWorker {
    this.started++;
    const worker = new Worker(BOOTSTRAP, { eval: true, execArgv: [], resourceLimits: WORKER_LIMITS });
    const entry: PoolWorker = { worker, jobs: new Map(), isDead: false, isReady: false };
    worker.on('message', (reply: ParseReply) => {
      if ('ready' in reply) {
        entry.isReady = true;
        return this.startClock(entry);
      }
      const job = entry.jobs.get(reply.id);
      if (job === undefined) return;
      entry.jobs.delete(reply.id);
      this.startClock(entry);
      if ('page' in reply) job.resolve(reply.page);
      else job.reject(new Error(reply.error));
      if (entry === this.retryWorker) this.retryNext();
    });
    let isHandled = false;
    const die = (error: Error): void => {
      if (isHandled) return;
      isHandled = true;
      entry.isDead = true;
      clearTimeout(entry.timeLimit);
      onDeath(entry, error);
    };
    worker.on('error', die);
    worker.on('exit', () => die(new Error('parse worker exited')));
    return entry;
  }

  /** A pool worker died: its pages are parsed again one by one, and a new worker takes its place. */
  private replace(entry: PoolWorker): void {
    const jobs = [...entry.jobs.values()];
    entry.jobs.clear();
    const at = this.workers.indexOf(entry);
    if (!this.isClosed && this.started < MAX_REPLACEMENTS && at !== -1) {
      this.workers[at] = this.start((next) => this.replace(next));
    }
    for (const job of jobs) {
      if (this.isClosed) job.reject(new Error('parse worker stopped'));
      else this.retries.push({ ...job, isRetry: true });
    }
    if (this.retryWorker === null || this.retryWorker.jobs.size === 0) this.retryNext();
  }

  /** The retry worker died on its one page: that page is the one that kills workers. */
  private retryDied(entry: PoolWorker, error: Error): void {
    for (const job of entry.jobs.values()) job.reject(new Error(`parser died: ${error.message}`));
    entry.jobs.clear();
    if (this.retryWorker === entry) this.retryWorker = null;
    this.retryNext();
  }

  private retryNext(): void {
    if (this.retryWorker !== null && this.retryWorker.jobs.size > 0) return;
    const job = this.retries.shift();
    if (job === undefined) return;
    if (this.isClosed || this.started >= MAX_REPLACEMENTS) {
      job.reject(new Error('parser died, and no parse worker is left to retry the page'));
      this.retryNext();
      return;
    }
    this.retryWorker ??= this.start((entry, error) => this.retryDied(entry, error));
    this.send(this.retryWorker, job);
  }
}
