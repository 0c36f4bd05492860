import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Egress } from './egress.ts';
import { Fetcher, retryDelay } from './fetcher.ts';

describe('Fetcher', () => {
  const hits = new Map<string, number>();
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const n = (hits.get(req.url ?? '') ?? 0) + 1;
      hits.set(req.url ?? '', n);
      if (req.url === '/flaky') {
        if (n < 3) {
          res.writeHead(503, { 'retry-after': '0' });
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<p>ok</p>');
      }
      if (req.url === '/busy') {
        res.writeHead(429, { 'retry-after': '3600' });
        return res.end();
      }
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('x'.repeat(5000));
      }
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      if (req.url === '/drip') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const drip = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(drip));
        return;
      }
      if (req.url === '/redirect') {
        res.writeHead(301, { location: '/elsewhere' });
        return res.end();
      }
      res.writeHead(404);
      res.end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const fetcher = (options: Partial<ConstructorParameters<typeof Fetcher>[0]> = {}): Fetcher =>
    new Fetcher({
      concurrency: 2,
      userAgent: 'TestBot/1',
      retryBaseMs: 10,
      egress: new Egress({ allow: ['127.0.0.1/32'], dnsServers: [] }),
      ...options,
    });

  it('retries 5xx with backoff, honouring Retry-After, until it succeeds', async () => {
    const f = fetcher();
    const response = await f.fetch(`${base}/flaky`, { wantsBody: () => true });
    expect(response.status).toBe(200);
    expect(response.body?.toString()).toBe('<p>ok</p>');
    expect(hits.get('/flaky')).toBe(3);
    await f.close();
  });

  it('gives up at once when Retry-After asks for longer than it waits', async () => {
    const f = fetcher({ maxRetryAfterMs: 1000 });
    const response = await f.fetch(`${base}/busy`);
    expect(response.status).toBe(429);
    expect(hits.get('/busy')).toBe(1);
    await f.close();
  });

  it('cuts bodies at the maximum size and does not follow redirects', async () => {
    const f = fetcher({ maxBodyBytes: 1000 });
    const big = await f.fetch(`${base}/big`, { wantsBody: () => true });
    expect(big).toMatchObject({ status: 200, bodySize: 1000, isTruncated: true });
    expect(big.body?.length).toBe(1000);
    const redirect = await f.fetch(`${base}/redirect`, { wantsBody: () => true });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/elsewhere');
    await f.close();
  });

  it('times out, and reports a refused connection without retrying', async () => {
    const f = fetcher({ timeoutMs: 200, retries: 0 });
    const slow = await f.fetch(`${base}/slow`, { wantsBody: () => true });
    expect(slow).toMatchObject({ status: null, error: 'timeout' });
    const started = performance.now();
    const refused = await fetcher({ retryBaseMs: 5000 }).fetch('http://127.0.0.1:1/');
    expect(refused).toMatchObject({ status: null, error: 'ECONNREFUSED' });
    expect(performance.now() - started).toBeLessThan(4000);
    await f.close();
  });

  it('cuts a response that drips at its deadline, headers and body together, and does not retry it', async () => {
    const f = fetcher({ timeoutMs: 700 });
    const started = performance.now();
    const drip = await f.fetch(`${base}/drip`, { wantsBody: () => true });
    expect(drip).toMatchObject({ status: null, error: 'timeout' });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(hits.get('/drip')).toBe(1);
    await f.close();
  });

  it('refuses what the egress policy refuses, at once and without retrying', async () => {
    const f = fetcher({ egress: new Egress({ allow: [], dnsServers: [] }) });
    const refused = await f.fetch(`${base}/refused-target`);
    expect(refused.status).toBeNull();
    expect(refused.error).toBe(
      'refused by the egress policy: 127.0.0.1 is a loopback address (set CRAWL_ALLOW to allow it)',
    );
    expect(hits.get('/refused-target')).toBeUndefined();
    await f.close();
  });
});

describe('retryDelay', () => {
  it('reads seconds and HTTP dates, else uses the backoff', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryDelay({ headers: { 'retry-after': '7' } }, 500, now)).toBe(7000);
    expect(retryDelay({ headers: { 'retry-after': 'Mon, 23 Nov 2026 12:00:03 GMT' } }, 500, now)).toBe(3000);
    expect(retryDelay({ headers: {} }, 500, now)).toBe(500);
    expect(retryDelay({ headers: { 'retry-after': 'soon' } }, 500, now)).toBe(500);
  });
});
