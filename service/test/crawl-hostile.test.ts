/**
 * The crawler against a hostile website served on 127.0.0.1: an endless body, a body declaring 2 GB, a gzip bomb
 * sent although identity was asked for, a redirect loop and a 50-hop chain, 100,000-deep nesting, a page of a
 * million links and one whose parse would take many minutes (a million nested SVG elements). The real CLI crawls it
 * under GNU time, so the peak RSS measured is the crawl's own (parse workers are threads of it); the run must end
 * within its limits, under 1 GB, with an export the real loader takes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECT_MAX } from '../../catalog/constants.ts';
import { parquetFileOf } from '../../catalog/export-contract.ts';
import { openDatabase, quoteLiteral } from '../db/duckdb.ts';
import { PARSE_TIME_LIMIT_MS } from '../crawl/parse-pool.ts';
import { loadCrawl } from '../load/load-crawl.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_PEAK_RSS_KB = 1024 * 1024;
const CHAIN_HOPS = 50;
const NESTING = 100_000;
const MILLION = 1_000_000;
const SVG_NESTING = 1_000_000;

const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

/** A million distinct links, written as the client reads, so the server never holds the page. */
function writeMillionLinks(res: http.ServerResponse): void {
  let next = 0;
  res.write('<!doctype html><html><head><title>Links</title></head><body>');
  const pump = (): void => {
    while (next < MILLION) {
      let chunk = '';
      for (const end = Math.min(next + 5000, MILLION); next < end; next++) chunk += `<a href="/l/${next}">${next}</a>`;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('</body></html>');
  };
  pump();
}

/** Zeros forever; the crawler must cut it at its body limit. */
function writeEndless(res: http.ServerResponse, isHtml: boolean): void {
  const chunk = Buffer.alloc(64 * 1024, isHtml ? ' ' : 0);
  if (isHtml) res.write('<!doctype html><html><head><title>Endless</title></head><body>');
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => res.destroy());
  pump();
}

function hostileSite(): http.Server {
  const bomb = zlib.gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (body: string): void => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const redirect = (location: string): void => void res.writeHead(301, { location }).end();
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (chain) {
      const hop = Number(chain[1]);
      return hop <= CHAIN_HOPS ? redirect(`/chain/${hop + 1}`) : send(html('end of the chain'));
    }
    if (url.pathname.startsWith('/l/')) return send(html('a link target'));
    switch (url.pathname) {
      case '/':
        return send(
          html(
            '<a href="/endless.html">endless</a> <a href="/endless.bin">binary</a> <a href="/two-gb.html">2 GB</a> ' +
              '<a href="/bomb.html">bomb</a> <a href="/loop-a">loop</a> <a href="/chain/1">chain</a> ' +
              '<a href="/deep.html">deep</a> <a href="/links.html">links</a> <a href="/svg.html">svg</a>',
          ),
        );
      case '/endless.html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return writeEndless(res, true);
      case '/endless.bin':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return writeEndless(res, false);
      case '/two-gb.html':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(2 * 1024 ** 3) });
        return writeEndless(res, true);
      case '/bomb.html':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.end(bomb);
      case '/loop-a':
        return redirect('/loop-b');
      case '/loop-b':
        return redirect('/loop-a');
      case '/deep.html':
        return send(html(`${'<div>'.repeat(NESTING)}<a href="/deepest.html">deepest</a>${'</div>'.repeat(NESTING)}`));
      case '/svg.html':
        return send(html(`<a href="/after-svg.html">after</a>${'<svg>'.repeat(SVG_NESTING)}`));
      case '/deepest.html':
        return send(html('found under 100,000 elements'));
      case '/links.html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return writeMillionLinks(res);
      default:
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end(html('not found'));
    }
  });
}

interface TimedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssKb: number;
  elapsedMs: number;
}

/** The real CLI under GNU time, which prints the peak RSS (kB) of the crawl process to a file of its own. */
function timedCrawl(args: string[], work: string): Promise<TimedRun> {
  const rssFile = path.join(work, 'peak-rss');
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M', '-o', rssFile, process.execPath, '--import', 'tsx', 'scripts/crawl.ts', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATA_DIR: path.join(work, 'no-data') } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const peakRssKb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      resolve({ code, stdout, stderr, peakRssKb, elapsedMs: Date.now() - started });
    });
  });
}

describe('the crawler on a hostile website', () => {
  let work: string;
  let site: http.Server;
  let siteUrl: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-hostile-'));
    site = hostileSite();
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });

  afterAll(() => {
    site.closeAllConnections();
    site.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('ends within its limits under 1 GB with a loadable export recording every trap', async () => {
    const out = path.join(work, 'export');
    const run = await timedCrawl([siteUrl, '--out', out, '--max-urls', '3000', '--skip-external'], work);
    expect(run.stderr, run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.peakRssKb).toBeGreaterThan(0);
    expect(run.peakRssKb).toBeLessThanOrEqual(MAX_PEAK_RSS_KB);
    expect(run.elapsedMs).toBeLessThan(120_000);

    const db = await openDatabase();
    const conn = await db.connect();
    const urls = new Map<string, Record<string, unknown>>();
    try {
      const reader = await conn.runAndReadAll(
        `SELECT url, http_status_code AS status, is_redirect_loop AS loop, redirect_count AS hops, page_title AS title,
                fetch_error AS error
         FROM read_parquet(${quoteLiteral(path.join(out, parquetFileOf('urls')))})`,
      );
      for (const row of reader.getRowObjectsJS()) urls.set(row.url as string, row);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
    const at = (pathname: string): Record<string, unknown> | undefined => urls.get(new URL(pathname, siteUrl).href);

    for (const trap of ['/endless.html', '/endless.bin', '/two-gb.html', '/bomb.html', '/links.html']) {
      expect(at(trap)?.status, trap).toBe(200);
    }
    expect(at('/endless.html')?.title).toBe('Endless');
    // A page its parser cannot hold (the million links, cut at the body limit) kills the parse worker twice and is
    // then recorded with the reason, while every other page is parsed.
    expect(at('/links.html')).toMatchObject({ status: 200, title: null });
    expect(at('/links.html')?.error).toMatch(/not parsed|truncated/);
    expect(at('/endless.html')?.error).toMatch(/truncated/);
    // A parse past the time limit is ended: the page is recorded with the reason, its links unknown.
    expect(at('/svg.html')).toMatchObject({
      status: 200,
      title: null,
      error: `HTML not parsed (parsing took longer than ${PARSE_TIME_LIMIT_MS / 1000} s)`,
    });
    expect(at('/after-svg.html')).toBeUndefined();
    expect(at('/loop-a')).toMatchObject({ status: 301, loop: true });
    expect(at('/loop-b')).toMatchObject({ status: 301, loop: true });
    // Every hop is fetched and recorded; the chain's length is counted up to the spec's redirect maximum.
    for (let hop = 1; hop <= CHAIN_HOPS; hop++) expect(at(`/chain/${hop}`)?.status, `hop ${hop}`).toBe(301);
    expect(at('/chain/1')).toMatchObject({ hops: REDIRECT_MAX });
    expect(at(`/chain/${CHAIN_HOPS + 1}`)?.status).toBe(200);
    expect(at('/deepest.html')?.status).toBe(200);

    const loaded = await loadCrawl({ dataDir: path.join(work, 'data'), exportDir: out });
    expect(loaded.crawlId).toBe(1);
  }, 240_000);
});
