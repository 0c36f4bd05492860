/** The benchmark's HTTP client: a signed-in session of the benchmark's admin, and one timed request. */
import { performance } from 'node:perf_hooks';
import { ADMIN } from './config.ts';

export class Client {
  cookie = '';
  csrf = '';
  constructor(readonly base: string) {}

  /** The same session sent to another replica. */
  on(base: string): Client {
    const other = new Client(base);
    other.cookie = this.cookie;
    other.csrf = this.csrf;
    return other;
  }

  async login(): Promise<void> {
    const response = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    this.cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    this.csrf = ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** `ms` as the client waits it; `serverMs` from the service's Server-Timing header (to the first byte). */
  async post(
    url: string,
    body: unknown,
    accept = 'application/json',
  ): Promise<{ ms: number; serverMs: number; bytes: number; total: number }> {
    const started = performance.now();
    const response = await this.send(url, body, accept);
    const buffer = await response.arrayBuffer();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`${url} → ${response.status}: ${Buffer.from(buffer).toString('utf8')}`);
    const serverMs = Number(/\bapp;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN);
    return { ms, serverMs, bytes: buffer.byteLength, total: Number(response.headers.get('x-total-count')) };
  }

  async json<T>(url: string, body: unknown): Promise<T> {
    const response = await this.send(url, body);
    if (!response.ok) throw new Error(`${url} → ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A signed-in POST of `body` as JSON; the response unread. */
  send(url: string, body: unknown, accept = 'application/json'): Promise<Response> {
    return fetch(`${this.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, cookie: this.cookie, 'x-csrf-token': this.csrf },
      body: JSON.stringify(body),
    });
  }
}

/** One timed request: as the client waits it, and inside the service (Server-Timing; NaN where not sent). */
export interface Timing {
  ms: number;
  serverMs: number;
}

export const timedPost = (client: Client, url: string, body: unknown, accept?: string) => async (): Promise<Timing> => {
  const { ms, serverMs } = await client.post(url, body, accept);
  return { ms, serverMs };
};
