/**
 * Test helpers for crawls of small websites served on 127.0.0.1: a server from a table of routes, the crawl
 * options the tests share, and the real `npm run crawl` CLI spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CrawlOptions } from '../../crawl/crawl-options.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A server answering each path from `routesOf(origin)`, and `fallback` (with status 404) for any other. */
export async function serveRoutes(
  routesOf: (origin: string) => Record<string, Route>,
  fallback: Route,
): Promise<{ server: http.Server; origin: string }> {
  let origin = '';
  const server = http.createServer((req, res) => {
    const route = routesOf(origin)[req.url ?? ''];
    const served = route ?? fallback;
    res.writeHead(served.status ?? (route ? 200 : 404), served.headers ?? { 'content-type': 'text/html' });
    res.end(req.method === 'HEAD' ? undefined : served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

/** A crawl of `startUrl` into `outDir`, robots.txt respected, no delay, no rendering. */
export const testCrawlOptions = (
  startUrl: string,
  outDir: string,
  overrides: Partial<CrawlOptions> = {},
): CrawlOptions => ({
  startUrl,
  outDir,
  websiteId: 'unit',
  crawlId: 1,
  maxUrls: 1000,
  maxDepth: 100,
  concurrency: 4,
  delayMs: 0,
  userAgent: 'TestBot/1',
  respectRobots: true,
  includeSubdomains: false,
  include: [],
  exclude: [],
  sitemaps: [],
  render: 0,
  ...overrides,
});

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run crawl -- ARGS`, run with `prefix` before node (e.g. /usr/bin/time), with no DATA_DIR of its own. */
export function runCrawlCli(
  args: string[],
  onStart?: (child: ChildProcess) => void,
  prefix: string[] = [],
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const command = [...prefix, process.execPath, '--import', 'tsx', 'scripts/crawl.ts', ...args];
    const child = spawn(command[0]!, command.slice(1), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATA_DIR: path.join(os.tmpdir(), 'thc-crawl-cli-no-data') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    onStart?.(child);
  });
}
