/**
 * The rendered crawl against pages hostile to a browser, served on 127.0.0.1: one that never settles, one that opens
 * dialogs, one that navigates away, two that reload themselves under a new URL for ever (by `location` and by a meta
 * refresh their script adds), one that allocates memory without end, one that spawns busy workers, one that loops for ever after load, and one whose request kills Chromium. Each page ends within
 * its limit with its reason, Chromium is restarted after it dies, and the pages crawled before are all in the export.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, type Manifest } from '../../catalog/export-contract.ts';
import { crawlWebsite } from '../crawl/crawl.ts';
import { RENDER_NAVIGATIONS_MAX } from '../crawl/render-settings.ts';
import { STEP_MS } from '../crawl/render/render-tab.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';
import { testCrawlOptions } from './helpers/crawl-site.ts';
import { readExportRows } from './helpers/read-export.ts';

const CAP_MS = 8000;
/**
 * Far above the hostile pages' own timers (10 to 50 ms), so that a loaded machine, which can hold a page's timer back
 * for a few hundred ms, still sees each page do its harm before the page counts as rendered.
 */
const QUIET_MS = 1000;
/** A page's longest render time: the cap, then the snapshot step (and a spare one for a slow machine). */
const PAGE_LIMIT_S = (CAP_MS + 2 * STEP_MS) / 1000;
/** About twenty pages, three of them to the cap, on 3 tabs: a minute on a quiet machine, three on a loaded one. */
const CRAWL_LIMIT_MS = 180_000;

const page = (title: string, script: string, links: string[] = []): string =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join('')}<script>${script}</script></body></html>`;

const HOSTILE = {
  '/never-settles': page('Never settles', "(function poll() { fetch('/hang').finally(poll); })();"),
  '/dialogs': page(
    'Dialogs',
    "alert('a'); confirm('b'); prompt('c'); addEventListener('beforeunload', (e) => e.preventDefault());",
  ),
  '/navigates-away': page('Navigates away', "setTimeout(() => { location.href = '/elsewhere'; }, 50);"),
  '/reload-loop': page(
    'Reload loop',
    'setTimeout(() => location.replace(location.pathname + "?n=" + Date.now()), 10);',
  ),
  '/refresh-loop': page(
    'Refresh loop',
    "document.head.append(Object.assign(document.createElement('meta'), { httpEquiv: 'refresh', content: '0; url=' + location.pathname + '?n=' + Date.now() }));",
  ),
  '/hash-loop': page('Hash loop', 'setInterval(() => { location.hash = String(Math.random()); }, 5);'),
  '/memory': page(
    'Memory',
    'const hoard = []; setInterval(() => { for (let i = 0; i < 20; i++) hoard.push(new Array(1e6).fill(Math.random())); }, 10);',
  ),
  '/workers': page(
    'Workers',
    "const src = URL.createObjectURL(new Blob(['for (;;) {}'])); for (let i = 0; i < 4; i++) new Worker(src);",
  ),
  '/busy-loop': page('Busy loop', "addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));"),
} as const;

const ROUTES: Record<string, string> = {
  ...HOSTILE,
  '/': page('Start', '', Object.keys(HOSTILE)),
  // A site of its own (crawled alone, so the browser's death touches no other page): start, victim, the page after.
  '/dies/': page('Start', '', ['/dies/kills-chromium']),
  '/dies/kills-chromium': page('Kills Chromium', '', ['/dies/after-restart']),
  '/dies/after-restart': page(
    'After restart',
    "document.body.append(Object.assign(document.createElement('p'), { textContent: 'rendered' }));",
  ),
  '/elsewhere': page('Elsewhere', ''),
};

/** Chromium's processes started by this process (the crawl runs in it). */
function killChromium(): number {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const pids = out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm?.startsWith('chrom'))
    .map(([pid]) => Number(pid));
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  return pids.length;
}

let server: http.Server;
let origin = '';
let tmp = '';
let killed = 0;
const hangs: http.ServerResponse[] = [];

beforeAll(async () => {
  ensureDebianPackages([debianPackages.chromium]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-render-hostile-'));
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x').pathname;
    if (url === '/hang') return void hangs.push(res);
    // The browser's request (not the crawler's raw fetch) of this page kills the browser.
    if (url === '/dies/kills-chromium' && req.headers['sec-fetch-dest'] === 'document') killed += killChromium();
    const body = ROUTES[url];
    res.writeHead(body ? 200 : 404, { 'content-type': body ? 'text/html' : 'text/plain' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  for (const res of hangs) res.destroy();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A rendered crawl from `start`: its urls rows by path, and how long it took. */
async function crawlRendered(start: string, name: string) {
  const rows = new Map<string, Record<string, unknown>>();
  const outDir = path.join(tmp, name);
  const started = Date.now();
  await crawlWebsite(
    testCrawlOptions(`${origin}${start}`, outDir, {
      checkExternal: false,
      // Only a backstop: a crawl stopped by its own clock fails the test (stoppedEarly), as does one over the limit.
      maxDurationMs: 2 * CRAWL_LIMIT_MS,
      renderMode: 'all',
      renderSettings: { quietMs: QUIET_MS, capMs: CAP_MS, tabs: 3 },
    }),
  );
  const elapsedMs = Date.now() - started;
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as Manifest;
  expect(manifest.stoppedEarly, 'the crawl stopped early').toBeUndefined();
  const sql = 'SELECT url, page_title, render_status, render_reason, render_time, word_count FROM $table';
  for (const row of await readExportRows(outDir, 'urls', sql)) rows.set(String(row.url).slice(origin.length), row);
  if (process.env.I29_DEBUG) console.log(JSON.stringify([...rows.values()], null, 1));
  return { rows, elapsedMs };
}

/**
 * A page that navigates itself to a new URL each time it is rendered: followed as a chain of JavaScript redirects
 * up to the hop limit (at the depth limit of 100 it was 101 pages and 5 minutes), the last page with the reason.
 */
function expectNavigationsCut(rows: Map<string, Record<string, unknown>>, loop: string): void {
  const chain = [...rows].filter(([url]) => url.startsWith(loop)).map(([, row]) => row);
  const said = `${loop}: ${JSON.stringify(chain)}`;
  expect(chain.length, said).toBe(RENDER_NAVIGATIONS_MAX + 1);
  for (const row of chain) expect(row.render_status, said).toBe('navigated');
  const cut = chain.filter((row) => /over the limit/.test(String(row.render_reason)));
  expect(cut, said).toHaveLength(1);
  expect(String(cut[0]?.render_reason)).toMatch(
    new RegExp(
      `^navigated away to ${origin}${loop}\\?n=\\d+ as page ${RENDER_NAVIGATIONS_MAX + 1} in a row to navigate itself ` +
        `while rendering: over the limit of ${RENDER_NAVIGATIONS_MAX}, not followed$`,
    ),
  );
}

describe('a rendered crawl of pages hostile to the browser', () => {
  let rows = new Map<string, Record<string, unknown>>();
  let elapsedMs = 0;

  beforeAll(
    async () => {
      ({ rows, elapsedMs } = await crawlRendered('/', 'hostile'));
    },
    2 * CRAWL_LIMIT_MS + 60_000,
  );

  it('ends every page within its limit, with a reason', () => {
    expect(elapsedMs).toBeLessThan(CRAWL_LIMIT_MS);
    for (const url of Object.keys(HOSTILE)) {
      const row = rows.get(url);
      expect(row, url).toBeDefined();
      expect(row?.render_status, url).not.toBeNull();
      expect(String(row?.render_reason), url).not.toBe('');
      if (row?.render_time !== null) expect(Number(row?.render_time), url).toBeLessThanOrEqual(PAGE_LIMIT_S);
    }
  });

  it('records each hostile page as it ended', () => {
    // Each check names the page's whole row, so that a failure says how the page ended.
    const row = rows.get.bind(rows);
    const said = (url: string): string => `${url}: ${JSON.stringify(rows.get(url))}`;
    expect(row('/never-settles'), said('/never-settles')).toMatchObject({
      render_status: 'timeout',
      page_title: 'Never settles',
    });
    expect(row('/dialogs')?.page_title, said('/dialogs')).toBe('Dialogs');
    expect(row('/navigates-away'), said('/navigates-away')).toMatchObject({
      render_status: 'navigated',
      render_reason: `navigated away to ${origin}/elsewhere`,
    });
    expect(row('/elsewhere')?.page_title, said('/elsewhere')).toBe('Elsewhere');
    for (const loop of ['/reload-loop', '/refresh-loop']) expectNavigationsCut(rows, loop);
    // A page that changes its hash every 5 ms may keep a loaded machine's renderer from answering a step in time.
    const hashLoop = row('/hash-loop');
    if (hashLoop?.render_status === 'failed')
      expect(hashLoop.render_reason, said('/hash-loop')).toMatch(/took over \d+ ms/);
    else expect(['rendered', 'timeout'], said('/hash-loop')).toContain(hashLoop?.render_status);
    expect(['crashed', 'timeout'], said('/memory')).toContain(row('/memory')?.render_status);
    expect(['rendered', 'timeout'], said('/workers')).toContain(row('/workers')?.render_status);
    expect(['failed', 'timeout', 'crashed'], said('/busy-loop')).toContain(row('/busy-loop')?.render_status);
  });
});

describe('a rendered crawl whose Chromium dies', () => {
  it(
    'restarts Chromium for the pages after and keeps the pages before',
    async () => {
      const { rows } = await crawlRendered('/dies/', 'dies');
      expect(killed).toBeGreaterThan(0);
      expect(rows.get('/dies/kills-chromium')?.render_status).toBe('crashed');
      expect(rows.get('/dies/after-restart')).toMatchObject({ render_status: 'rendered', page_title: 'After restart' });
      expect(rows.get('/dies/')).toMatchObject({ render_status: 'rendered', page_title: 'Start' });
    },
    CRAWL_LIMIT_MS,
  );
});
