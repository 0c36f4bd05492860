/**
 * The egress policy end to end: a real crawl of a site on 127.0.0.1 (allowed) whose pages reach for a stand-in
 * internal host on 127.0.0.2 (not allowed; Linux routes all of 127/8 to lo) by every road a crawl takes: a link, an
 * image, a canonical, a redirect, a robots.txt Sitemap: line, an external-link check, names that resolve to it, an
 * IPv4-mapped literal and DNS rebinding. The internal host must see no connection at all, and every refused URL must
 * be a row of the export (loaded by the real loader) with the reason. Names resolve through a stub DNS server on
 * loopback; one that never answers, a start URL that never answers and a page that drips must all end promptly.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCrawlSettings } from '../../catalog/crawl-runs.ts';
import type { FromWorker, ToWorker } from '../crawl-runs/worker.ts';
import { crawlWebsite, CrawlError } from '../crawl/crawl.ts';
import type { CrawlOptions } from '../crawl/crawl-options.ts';
import { loadCrawl } from '../load/load-crawl.ts';
import { testCrawlOptions } from './helpers/crawl-site.ts';
import { readExportRows } from './helpers/read-export.ts';
import { startStubDns, type StubDns } from './helpers/stub-dns.ts';

const html = (body: string, head = ''): string =>
  `<!doctype html><html><head><title>Page</title>${head}</head><body>${body}</body></html>`;
const refused = (what: string): string => `refused by the egress policy: ${what} (set CRAWL_ALLOW to allow it)`;

let work: string;
let site: http.Server;
let internal: http.Server;
let port = 0;
const internalConnections: string[] = [];
const siteHosts: string[] = [];

/** The site's pages; `P` is the port both servers listen on. */
function route(url: string, P: number): { status?: number; headers?: Record<string, string>; body?: string } {
  const inside = `http://127.0.0.2:${P}`;
  if (url === '/robots.txt') return { body: `User-agent: *\nSitemap: ${inside}/sitemap.xml\n` };
  if (url === '/')
    return {
      body: html(
        `<a href="${inside}/latest/meta-data/iam">link</a> <img src="${inside}/pixel.png" alt="">` +
          `<a href="/go">redirect</a> <a href="/canonical.html">canonical</a>` +
          `<a href="http://evil.test:${P}/">name</a> <a href="http://[::ffff:127.0.0.2]:${P}/mapped">mapped</a>` +
          `<a href="http://rebind.test:${P}/a">a</a> <a href="http://rebind.test:${P}/b">b</a>` +
          `<a href="http://169.254.169.254/latest/meta-data/">metadata</a>`,
      ),
    };
  if (url === '/go') return { status: 301, headers: { location: `${inside}/admin/delete?all=1` } };
  if (url === '/canonical.html') return { body: html('', `<link rel="canonical" href="${inside}/canonical">`) };
  return { body: html('') };
}

async function listen(server: http.Server, host: string, at: number): Promise<number> {
  await new Promise<void>((resolve) => server.listen(at, host, resolve));
  return (server.address() as AddressInfo).port;
}

const options = (name: string, overrides: Partial<CrawlOptions>): CrawlOptions =>
  testCrawlOptions(`http://127.0.0.1:${port}/`, path.join(work, name, 'export'), {
    websiteId: `egress-${name}`,
    maxUrls: 100,
    maxDepth: 10,
    userAgent: 'EgressTest/1',
    ...overrides,
  });

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-crawl-egress-'));
  site = http.createServer((req, res) => {
    siteHosts.push(req.headers.host ?? '');
    if (req.url === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const drip = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(drip));
      return;
    }
    const answer = route(req.url ?? '/', port);
    res.writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'text/html' });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });
  port = await listen(site, '127.0.0.1', 0);
  internal = http.createServer((req, res) => res.end('internal'));
  internal.on('connection', (socket) => internalConnections.push(socket.remoteAddress ?? ''));
  await listen(internal, '127.0.0.2', port);
});

afterAll(async () => {
  site.closeAllConnections();
  internal.closeAllConnections();
  await Promise.all([new Promise((r) => site.close(r)), new Promise((r) => internal.close(r))]);
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a crawl under the egress policy', () => {
  let dns: StubDns;
  beforeAll(async () => {
    // rebind.test first answers an allowed address, then the internal one: only the first answer may ever be used.
    dns = await startStubDns((name, n) => {
      if (name === 'evil.test') return '127.0.0.2';
      if (name === 'rebind.test') return n === 1 ? '127.0.0.1' : '127.0.0.2';
      return null;
    });
  });
  afterAll(() => dns.close());

  it('never connects to the internal host, and records every refused URL with the reason', async () => {
    const crawl = options('refused', { egress: { allow: ['127.0.0.1/32'], dnsServers: [dns.server] } });
    await crawlWebsite(crawl);
    await loadCrawl({ dataDir: path.join(work, 'refused', 'data'), exportDir: crawl.outDir });
    expect(internalConnections).toEqual([]);

    const inside = `http://127.0.0.2:${port}`;
    const rows = await readExportRows(
      crawl.outDir,
      'urls',
      'SELECT url, http_status_code AS status, fetch_error AS error FROM $table ORDER BY url',
    );
    const byUrl = new Map(rows.map((row) => [row.url, row]));
    const loopback = refused('127.0.0.2 is a loopback address');
    for (const url of [
      `${inside}/latest/meta-data/iam`,
      `${inside}/pixel.png`,
      `${inside}/admin/delete?all=1`,
      `${inside}/canonical`,
    ]) {
      expect(byUrl.get(url), url).toEqual({ url, status: null, error: loopback });
    }
    expect(byUrl.get(`http://evil.test:${port}/`)?.error).toBe(
      refused('evil.test resolves to 127.0.0.2, a loopback address'),
    );
    expect(byUrl.get(`http://[::ffff:7f00:2]:${port}/mapped`)?.error).toBe(
      refused('::ffff:7f00:2 is a loopback address'),
    );
    expect(byUrl.get('http://169.254.169.254/latest/meta-data/')?.error).toBe(
      refused('169.254.169.254 is a link-local address, the cloud metadata range'),
    );
    expect(byUrl.get(`http://127.0.0.1:${port}/go`)).toMatchObject({ status: 301, error: null });

    // Rebinding: one DNS question for the whole crawl, and both URLs reached the address its answer allowed.
    expect(dns.queries.get('rebind.test')).toBe(1);
    expect(byUrl.get(`http://rebind.test:${port}/a`)).toMatchObject({ status: 200, error: null });
    expect(byUrl.get(`http://rebind.test:${port}/b`)).toMatchObject({ status: 200, error: null });
    expect(siteHosts).toContain(`rebind.test:${port}`);

    // A sitemap on another host is never fetched, whatever its address: the row says so.
    const sitemaps = await readExportRows(
      crawl.outDir,
      'sitemaps',
      'SELECT url, fetch_error, restricted_reason FROM $table',
    );
    expect(sitemaps).toContainEqual({
      url: `${inside}/sitemap.xml`,
      fetch_error: 'not fetched: on another host than the site',
      restricted_reason: 'outside_scope',
    });
  });

  it('cuts a page that drips at the response deadline, not at an idle timeout', async () => {
    const crawl = options('drip', {
      startUrl: `http://127.0.0.1:${port}/drip`,
      timeoutMs: 1500,
      egress: { allow: ['127.0.0.1/32'], dnsServers: [dns.server] },
    });
    const started = performance.now();
    await expect(crawlWebsite(crawl)).rejects.toThrow(
      `start URL http://127.0.0.1:${port}/drip is unreachable (timeout)`,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('a DNS server that never answers', () => {
  let silent: StubDns;
  beforeAll(async () => {
    silent = await startStubDns(() => null, { isSilent: true });
  });
  afterAll(() => silent.close());

  it('ends the crawl promptly, its hosts recorded as DNS timeouts, each name asked once', async () => {
    const links = ['a.test', 'b.test', 'c.test'].flatMap((host) =>
      ['/x', '/y'].map((p) => `<a href="http://${host}:${port}${p}">${host}</a>`),
    );
    const linking = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(req.url === '/' ? html(links.join(' ')) : '');
    });
    const crawl = options('silent', {
      startUrl: `http://127.0.0.1:${await listen(linking, '127.0.0.1', 0)}/`,
      egress: { allow: ['127.0.0.1/32'], dnsServers: [silent.server], dnsTimeoutMs: 500 },
    });
    const started = performance.now();
    await crawlWebsite(crawl).finally(() => linking.close());
    expect(performance.now() - started).toBeLessThan(30_000);
    const rows = await readExportRows(
      crawl.outDir,
      'urls',
      `SELECT url, fetch_error AS error FROM $table WHERE url LIKE '%.test%' ORDER BY url`,
    );
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.error === 'DNS timeout')).toBe(true);
    const asked = ['a.test', 'b.test', 'c.test'].map((host) => silent.queries.get(host));
    expect(new Set(asked).size).toBe(1);
  });

  it('declares a start URL that never resolves unreachable, without retrying', async () => {
    const crawl = options('silent-start', {
      startUrl: `http://down.test:${port}/`,
      egress: { allow: [], dnsServers: [silent.server], dnsTimeoutMs: 500 },
    });
    const started = performance.now();
    const failure = await crawlWebsite(crawl).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CrawlError);
    expect((failure as Error).message).toBe(`start URL http://down.test:${port}/ is unreachable (DNS timeout)`);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('a start URL that accepts connections and never answers', () => {
  it('is declared unreachable within 30 s with the default deadline', async () => {
    const mute = http.createServer(() => undefined);
    const mutePort = await listen(mute, '127.0.0.1', 0);
    const crawl = options('mute', {
      startUrl: `http://127.0.0.1:${mutePort}/`,
      egress: { allow: ['127.0.0.1/32'], dnsServers: [] },
    });
    const started = performance.now();
    try {
      await expect(crawlWebsite(crawl)).rejects.toThrow(`start URL ${crawl.startUrl} is unreachable (timeout)`);
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      mute.closeAllConnections();
      await new Promise((resolve) => mute.close(resolve));
    }
  }, 60_000);
});

describe('a crawl run by the service', () => {
  it('is held to CRAWL_ALLOW from its environment, its start URL included', async () => {
    const before = siteHosts.length;
    const { CRAWL_ALLOW: _allowed, ...env } = process.env;
    const worker = fork(path.join(import.meta.dirname, '../crawl-runs/worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...env, CRAWL_DNS_SERVERS: '127.0.0.1:1' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const failed = new Promise<FromWorker>((resolve) =>
      worker.on('message', (message: FromWorker) => {
        if (message.type !== 'progress' && message.type !== 'heartbeat') resolve(message);
      }),
    );
    const startUrl = `http://127.0.0.1:${port}/`;
    const job: ToWorker = {
      type: 'job',
      job: {
        runId: 1,
        websiteId: 'egress-run',
        dataDir: path.join(work, 'run', 'data'),
        exportDir: path.join(work, 'run', 'export'),
        scratchDir: path.join(work, 'run', 'scratch'),
        settings: { ...defaultCrawlSettings('127.0.0.1'), startUrl },
        heartbeatMs: 2000,
      },
    };
    worker.send(job);
    expect(await failed).toEqual({
      type: 'failed',
      reason: `start URL ${startUrl} is unreachable (${refused('127.0.0.1 is a loopback address')})`,
      isInterrupted: false,
    });
    expect(siteHosts.length).toBe(before);
  });
});
