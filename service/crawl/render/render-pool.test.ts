/**
 * The rendered crawl's tabs in Debian's Chromium, against pages served on 127.0.0.1: the rule for "rendered" (a fetch
 * a page starts after load is waited for; a page that never goes quiet ends at the cap), tabs kept from page to page
 * with nothing of the last page's state left, and the requests a tab refuses (the browser's own icon fetches too),
 * a cross-site iframe's (another process's) and a worker's among them.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianPackages, ensureDebianPackages } from '../../../scripts/support/debian-packages.ts';
import { Egress } from '../egress.ts';
import { RenderPool } from './render-pool.ts';

/**
 * A fetch started this long after load, answered this much later: inside no fixed wait after load. It starts well
 * inside the quiet time, so that a loaded machine's late timer does not start it after the page counted as rendered.
 */
const LATE_FETCH_MS = 100;
const LATE_ANSWER_MS = 600;
const QUIET_MS = 500;
const CAP_MS = 4000;

const page = (title: string, script: string, body = ''): string =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}<script>${script}</script></body></html>`;

/** What the page finds of earlier pages' state, written into its DOM. */
const READ_STATE =
  "document.body.append(Object.assign(document.createElement('p'), { id: 'state', textContent: " +
  'JSON.stringify({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length }) }));';

const ROUTES: Record<string, string> = {
  '/late': page(
    'Late',
    `addEventListener('load', () => setTimeout(() => fetch('/slow-data').then((r) => r.text()).then((text) => ` +
      `document.body.append(Object.assign(document.createElement('p'), { id: 'late', textContent: text }))), ${LATE_FETCH_MS}));`,
  ),
  '/never-quiet': page('Never quiet', "(function poll() { fetch('/slow-data').finally(poll); })();"),
  '/writes-state': page(
    'Writes state',
    "document.cookie = 'seen=1; path=/'; localStorage.setItem('seen', '1'); sessionStorage.setItem('seen', '1');",
  ),
  '/reads-state': page('Reads state', READ_STATE),
  // Its Content-Security-Policy refuses every request its scripts make, the tab's own at the document's start too.
  '/reads-state-csp': page('Reads state', READ_STATE),
  // Writes state, logs, and fetches only as it goes, after its render, in a cross-site frame too; and keeps logging,
  // and writing state whenever its worker posts to it (through a port: no timer of the page's own).
  '/leaves-state': page(
    'Leaves state',
    "setInterval(() => console.error('still running'), 50);" +
      'const channel = new MessageChannel(); channel.port1.onmessage = () => {' +
      "document.cookie = 'posted=1; path=/'; localStorage.setItem('posted', '1'); sessionStorage.setItem('posted', '1'); };" +
      "new Worker('/posts.js').postMessage(0, [channel.port2]);" +
      "for (const event of ['beforeunload', 'pagehide', 'unload']) addEventListener(event, () => {" +
      "document.cookie = 'left=1; path=/'; localStorage.setItem(event, '1'); sessionStorage.setItem(event, '1');" +
      "console.error('leaving on ' + event); fetch('/slow-data?' + event); });",
    '<iframe src="FRAME_ORIGIN/frame-writes"></iframe>',
  ),
  '/frame-writes': page('Frame writes', "localStorage.setItem('frame', '1'); sessionStorage.setItem('frame', '1');"),
  '/assets': page('Assets', "fetch('/private/data.json');", '<img src="/photo.png" alt=""><p>Assets</p>'),
  // Its iframe is on localhost, another site than 127.0.0.1: Chromium runs it in a process of its own.
  '/frames': page('Frames', "new Worker('/worker.js');", '<iframe src="FRAME_ORIGIN/frame"></iframe>'),
  '/frame': page('Frame', "fetch('/private/frame.json');", '<img src="/frame-photo.png" alt="">'),
  '/worker.js': "fetch('/private/worker.json');",
  '/shared-worker': page('Shared worker', "new SharedWorker('/shared.js');"),
  '/shared.js': "fetch('/private/shared.json'); fetch('/shared-photo.png');",
  '/posts.js': 'onmessage = (event) => setInterval(() => event.ports[0].postMessage(1), 20);',
};

let server: http.Server;
let origin = '';
const requested: string[] = [];
const egress = new Egress({ allow: ['127.0.0.1/32'], dnsServers: [] });

beforeAll(async () => {
  ensureDebianPackages([debianPackages.chromium]);
  server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    requested.push(url);
    if (url.startsWith('/slow-data')) {
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('late data'), LATE_ANSWER_MS);
      return;
    }
    const body = ROUTES[url]?.replace('FRAME_ORIGIN', origin.replace('127.0.0.1', 'localhost'));
    const type = url.endsWith('.js') ? 'text/javascript' : 'text/html';
    const headers: http.OutgoingHttpHeaders = { 'content-type': body ? type : 'text/plain' };
    if (url === '/writes-state') headers['set-cookie'] = 'server=1; Path=/';
    if (url === '/reads-state-csp') headers['content-security-policy'] = "connect-src 'none'";
    response.writeHead(body ? 200 : 404, headers).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const poolOf = (tabs: number, blocksDisallowed = true): RenderPool =>
  new RenderPool({
    quietMs: QUIET_MS,
    capMs: CAP_MS,
    tabs,
    loadAssets: false,
    userAgent: 'thc-test',
    egress,
    isAllowed: (url) => Promise.resolve(!new URL(url).pathname.startsWith('/private/')),
    blocksDisallowed,
  });

describe('the render pool', () => {
  it('waits for a fetch the page starts after load, and ends a page that never goes quiet at the cap', async () => {
    const pool = poolOf(2);
    try {
      const [late, never] = await Promise.all([pool.render(`${origin}/late`), pool.render(`${origin}/never-quiet`)]);
      expect(late).toMatchObject({ status: 'rendered', reason: `network quiet for ${QUIET_MS} ms and the page idle` });
      expect(late.html).toContain('<p id="late">late data</p>');
      expect(late.elapsedMs).toBeGreaterThanOrEqual(LATE_FETCH_MS + LATE_ANSWER_MS + QUIET_MS);
      expect(never.status).toBe('timeout');
      expect(never.reason).toMatch(
        new RegExp(`^the cap of ${CAP_MS} ms was reached \\(loaded, 1 requests in flight\\)$`),
      );
      expect(never.html).toContain('<title>Never quiet</title>');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('keeps a tab for the next page with none of the last page’s cookies or storage, and replaces one that timed out', async () => {
    const pool = poolOf(1);
    requested.length = 0;
    try {
      for (const reads of ['/reads-state', '/reads-state-csp']) {
        expect((await pool.render(`${origin}/writes-state`)).status).toBe('rendered');
        const next = await pool.render(`${origin}${reads}`);
        expect(next.status).toBe('rendered');
        expect(next.html).toContain(`<p id="state">${JSON.stringify({ cookie: '', local: 0, session: 0 })}</p>`);
      }
      expect(pool.tabsOpened).toBe(1);
      expect((await pool.render(`${origin}/never-quiet`)).status).toBe('timeout');
      expect((await pool.render(`${origin}/reads-state`)).status).toBe('rendered');
      expect(pool.tabsOpened).toBe(2);
      // The browser's own fetch of each page's icon, which a tab kept open gets round to, is not the page's.
      expect(requested).not.toContain('/favicon.ico');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('gives the next page none of what the last page did as it went: storage (a cross-site frame’s and a worker’s prompting too), requests, messages', async () => {
    const pool = poolOf(1);
    try {
      const last = await pool.render(`${origin}/leaves-state`);
      expect(last.status).toBe('rendered');
      const logged = last.consoleErrors.length;
      expect(last.consoleErrors).toEqual(Array.from({ length: logged }, () => 'still running'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The result is the page's as it was rendered: the page logging on is not added to it.
      expect(last.consoleErrors).toHaveLength(logged);
      const frameOrigin = origin.replace('127.0.0.1', 'localhost');
      for (const next of [`${origin}/reads-state`, `${frameOrigin}/reads-state`]) {
        const result = await pool.render(next);
        expect(result).toMatchObject({ status: 'rendered', consoleErrors: [], pageErrors: [], failedRequests: [] });
        expect(result.html).toContain(`<p id="state">${JSON.stringify({ cookie: '', local: 0, session: 0 })}</p>`);
      }
      expect(pool.tabsOpened).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('renders the page after a tab that could be neither cleared nor closed in a new browser, not as crashed', async () => {
    const pool = poolOf(1);
    let stopped: number[] = [];
    try {
      expect((await pool.render(`${origin}/reads-state`)).status).toBe('rendered');
      // The pool's browser (this process's child) stopped: its tab answers nothing, and will not close.
      stopped = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((pid) => pid !== '')
        .map(Number);
      for (const pid of stopped) process.kill(pid, 'SIGSTOP');
      const next = await pool.render(`${origin}/reads-state`);
      expect(next).toMatchObject({ status: 'rendered' });
      expect(pool.launches).toBe(2);
    } finally {
      await pool.close();
      for (const pid of stopped) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Killed with its browser.
        }
      }
    }
  }, 60_000);

  it('downloads no images, and notes a subresource robots.txt disallows, fetched only when robots.txt is ignored', async () => {
    for (const blocksDisallowed of [true, false]) {
      requested.length = 0;
      const pool = poolOf(1, blocksDisallowed);
      try {
        const result = await pool.render(`${origin}/assets`);
        expect(result.status).toBe('rendered');
        expect(result.robotsBlocked).toEqual([`${origin}/private/data.json`]);
        expect(result.failedRequests).toEqual(blocksDisallowed ? [] : [`${origin}/private/data.json 404`]);
        expect(requested).not.toContain('/photo.png');
        expect(requested.includes('/private/data.json')).toBe(!blocksDisallowed);
      } finally {
        await pool.close();
      }
    }
  }, 60_000);

  it('holds the requests of a cross-site iframe and of a worker to the same rules as the page’s', async () => {
    requested.length = 0;
    const pool = poolOf(1);
    try {
      const result = await pool.render(`${origin}/frames`);
      expect(result.status).toBe('rendered');
      const frameOrigin = origin.replace('127.0.0.1', 'localhost');
      expect([...result.robotsBlocked].sort()).toEqual([
        `${origin}/private/worker.json`,
        `${frameOrigin}/private/frame.json`,
      ]);
      expect(requested).toEqual(expect.arrayContaining(['/frames', '/frame', '/worker.js']));
      for (const refused of ['/frame-photo.png', '/private/frame.json', '/private/worker.json']) {
        expect(requested).not.toContain(refused);
      }
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('starts no shared worker, whose requests could not be held to those rules: the page renders, saying why', async () => {
    requested.length = 0;
    const pool = poolOf(1);
    try {
      const result = await pool.render(`${origin}/shared-worker`);
      expect(result.status).toBe('rendered');
      expect(result.pageErrors).toEqual(['SharedWorker is not defined']);
      expect(requested).toEqual(['/shared-worker']);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
