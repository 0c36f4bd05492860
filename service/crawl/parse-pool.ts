/**
 * HTML parsing off the crawler's main thread: a few worker threads each run parse-html.ts, so parsing uses the
 * other cores while the main thread fetches and keeps the known-URL set. Page bytes are transferred, not copied.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeHtml } from './charset.ts';
import { parseHtml } from './parse-html.ts';
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

type ParseReply = { id: number; page: ParsedPage } | { id: number; error: string };

interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: (page: ParsedPage) => void; reject: (error: Error) => void }>;
  isDead: boolean;
}

export class ParsePool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;

  constructor(size = Math.max(1, Math.min(2, os.availableParallelism()))) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(BOOTSTRAP, { eval: true, execArgv: [], resourceLimits: WORKER_LIMITS });
      const entry: PoolWorker = { worker, pending: new Map(), isDead: false };
      worker.on('message', (reply: ParseReply) => {
        const waiter = entry.pending.get(reply.id);
        entry.pending.delete(reply.id);
        if ('page' in reply) waiter?.resolve(reply.page);
        else waiter?.reject(new Error(reply.error));
      });
      const fail = (error: Error): void => {
        entry.isDead = true;
        for (const waiter of entry.pending.values()) waiter.reject(error);
        entry.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', () => fail(new Error('parse worker exited')));
      this.workers.push(entry);
    }
  }

  /**
   * Parses one page on the least busy worker (`body` is handed over and unusable afterwards); on this thread when
   * no worker is left.
   */
  parse(body: Buffer, charset: string | null, url: string): Promise<ParsedPage> {
    let target: PoolWorker | undefined;
    for (const entry of this.workers) {
      if (!entry.isDead && (target === undefined || entry.pending.size < target.pending.size)) target = entry;
    }
    if (target === undefined) return Promise.resolve(parseHtml(decodeHtml(body, charset), url));
    const id = this.nextId++;
    // A Buffer may share its memory with others (the pool of small allocations): transfer only a private copy.
    const bytes = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : Uint8Array.from(body);
    return new Promise((resolve, reject) => {
      const worker = target;
      worker.pending.set(id, { resolve, reject });
      const request: ParseRequest = { id, body: bytes, charset, url };
      worker.worker.postMessage(request, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((entry) => entry.worker.terminate()));
  }
}
