/**
 * HTTP for the crawler: one undici Agent (a keep-alive pool per origin, `concurrency` connections each) whose every
 * connection goes through the egress policy, no redirect following (the crawler records every hop), a deadline per
 * response (connection, headers and body together), a maximum body size, and retries with exponential backoff on
 * 429, 5xx and network errors that honour `Retry-After`. A timeout is not retried: it has already cost the deadline.
 */
import { EventEmitter } from 'node:events';
import { Agent, errors as undiciErrors } from 'undici';
import { EgressError, REFUSED, type Egress } from './egress.ts';

export interface FetcherOptions {
  concurrency: number;
  userAgent: string;
  /** Decides where the fetcher may connect; closed with the fetcher. */
  egress: Egress;
  /** The deadline of one response, from the request to the end of the body. */
  timeoutMs?: number;
  maxBodyBytes?: number;
  retries?: number;
  retryBaseMs?: number;
  /** Longest Retry-After honoured; longer waits give up. */
  maxRetryAfterMs?: number;
  /** Stops every request and wait at once; listened to once, however many are pending. */
  signal?: AbortSignal;
}

export interface FetchResponse {
  /** HTTP status; null when no response came. */
  status: number | null;
  /** Why no response came (network error, timeout). */
  error: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The body when it was asked for (null otherwise, and for errors). */
  body: Buffer | null;
  /** Bytes received, or Content-Length when the body was not read. */
  bodySize: number;
  /** The body was cut at the maximum size. */
  isTruncated: boolean;
  /** From the request to the end of the body, in milliseconds (last attempt). */
  elapsedMs: number;
}

export interface FetchRequest {
  method?: 'GET' | 'HEAD';
  /** Whether to read the body, given the response headers; the body is drained unread otherwise. */
  wantsBody?: (status: number, headers: FetchResponse['headers']) => boolean;
  /** This request's deadline, when shorter than the fetcher's. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 20_000;
/** A host that does not accept a connection in this time is taken as down. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export class Fetcher {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly waits = new Set<() => void>();

  constructor(private readonly options: FetcherOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.retries = options.retries ?? 2;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    this.agent = new Agent({
      connections: options.concurrency,
      keepAliveTimeout: 30_000,
      connect: options.egress.connector(Math.min(this.timeoutMs, CONNECT_TIMEOUT_MS)),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    // One listener for the crawl's signal: requests in flight fail as the agent goes, waits end at once.
    options.signal?.addEventListener(
      'abort',
      () => {
        for (const wake of this.waits) wake();
        this.waits.clear();
        void this.agent.destroy().catch(() => undefined);
      },
      { once: true },
    );
  }

  get isStopped(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Waits `ms`, or less when the signal stops the fetcher. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.isStopped) return resolve();
      const wake = (): void => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waits.add(wake);
    });
  }

  async fetch(url: string, request: FetchRequest = {}): Promise<FetchResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.once(url, request);
      if (attempt >= this.retries || this.isStopped || !isRetryable(response)) return response;
      const wait = retryDelay(response, this.retryBaseMs * 2 ** attempt);
      if (wait > this.maxRetryAfterMs) return response;
      await this.pause(wait);
    }
  }

  private async once(url: string, request: FetchRequest): Promise<FetchResponse> {
    const started = performance.now();
    const method = request.method ?? 'GET';
    const { origin, pathname, search } = new URL(url);
    const deadline = new Deadline(Math.min(this.timeoutMs, request.timeoutMs ?? Infinity));
    try {
      const response = await this.agent.request({
        origin,
        path: `${pathname}${search}`,
        method,
        signal: deadline,
        headers: { 'user-agent': this.options.userAgent, accept: '*/*', 'accept-encoding': 'identity' },
      });
      const headers = response.headers;
      const status = response.statusCode;
      let body: Buffer | null = null;
      let bodySize = 0;
      let isTruncated = false;
      if (method === 'GET' && request.wantsBody?.(status, headers)) {
        const chunks: Buffer[] = [];
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          if (bodySize + chunk.length > this.maxBodyBytes) {
            chunks.push(chunk.subarray(0, this.maxBodyBytes - bodySize));
            bodySize = this.maxBodyBytes;
            isTruncated = true;
            void discard(response.body, Infinity);
            break;
          }
          chunks.push(chunk);
          bodySize += chunk.length;
        }
        body = chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks);
      } else {
        const length = Number(headers['content-length']);
        if (Number.isFinite(length) && length >= 0) {
          bodySize = length;
          await discard(response.body, length);
        } else {
          for await (const chunk of response.body as AsyncIterable<Buffer>) {
            bodySize += chunk.length;
            if (bodySize > this.maxBodyBytes) {
              isTruncated = true;
              void discard(response.body, Infinity);
              break;
            }
          }
        }
      }
      return { status, error: null, headers, body, bodySize, isTruncated, elapsedMs: performance.now() - started };
    } catch (error) {
      return {
        status: null,
        error: this.isStopped ? 'aborted' : describeError(error),
        headers: {},
        body: null,
        bodySize: 0,
        isTruncated: false,
        elapsedMs: performance.now() - started,
      };
    } finally {
      deadline.clear();
    }
  }

  get egress(): Egress {
    return this.options.egress;
  }

  async close(): Promise<void> {
    this.options.egress.close();
    await this.agent.destroy();
  }
}

/**
 * A response's deadline, as the EventEmitter form of a signal that undici also takes: on loopback an AbortSignal per
 * request (AbortSignal.timeout, or a controller's) cost a fifth to a third of the fetcher's throughput; this costs
 * nothing measurable.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.reason = Object.assign(new Error('the response deadline passed'), { name: 'TimeoutError' });
      this.emit('abort');
    }, ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Errors a retry is unlikely to mend soon: the host refused, does not resolve or cannot be reached, took the whole
 * deadline, or the crawl stopped; and every refusal or DNS failure of the egress policy (its answers are kept).
 */
const FINAL_ERRORS = new Set([
  'aborted',
  'timeout',
  'connect timeout',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Bodies up to this size are read and dropped, which keeps the connection; larger ones close it. */
const DUMP_BYTES = 256 * 1024;

type Body = Awaited<ReturnType<Agent['request']>>['body'];

async function discard(body: Body, length: number): Promise<void> {
  body.on('error', () => undefined);
  if (length <= DUMP_BYTES) await body.dump({ limit: DUMP_BYTES }).catch(() => undefined);
  else body.destroy();
}

function isRetryable(response: FetchResponse): boolean {
  if (response.status === null) {
    const error = response.error ?? '';
    return !FINAL_ERRORS.has(error) && !error.startsWith(REFUSED) && !error.startsWith('DNS ');
  }
  return response.status === 429 || response.status >= 500;
}

/** Retry-After in seconds or as an HTTP date, else the backoff. */
export function retryDelay(response: Pick<FetchResponse, 'headers'>, backoffMs: number, now = Date.now()): number {
  const header = response.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return backoffMs;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? backoffMs : Math.max(0, date - now);
}

function describeError(error: unknown): string {
  if (error instanceof EgressError) return error.message;
  if (error instanceof undiciErrors.RequestAbortedError || (error as Error).name === 'AbortError') return 'aborted';
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error as Error).name === 'TimeoutError'
  )
    return 'timeout';
  if (error instanceof undiciErrors.ConnectTimeoutError) return 'connect timeout';
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}` : (error as Error).message;
}

/** First value of a header that may repeat. */
export function headerValue(headers: FetchResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
