import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Egress } from './egress.ts';
import { renderPages, timeToInteractive } from './render.ts';
import { debianPackages, ensureDebianPackages } from '../../scripts/support/debian-packages.ts';

const TTFB_DELAY_MS = 200;
const HERO_DELAY_MS = 400;
const SHIFT_PX = 100;
const CONTENT_PX = 300;
const VIEWPORT = { width: 1280, height: 720 };
const LONG_TASK_MS = 300;
const HANGING_MS = 12_000;

const HERO = { width: 900, height: 500 };

// After first paint a banner pushes the 300 px block and the 900 px wide image below it down by 100 px: the impact
// region is the block's 1280 × 400 px plus the image's 900 px × the rest of the viewport, and the distance
// fraction 100 / 1280, so CLS = (512,000 + 288,000) / 921,600 × 0.078125 = 0.0678. The image itself arrives late.
const shiftingPage = `<!doctype html><html><head><title>Shift</title>
<style>body{margin:0}#content{height:${CONTENT_PX}px;background:#ccd;font-size:20px}#banner{height:${SHIFT_PX}px;background:#dcc}</style>
</head><body><div id="content">Text that moves down when the banner arrives.</div>
<img src="/hero.svg" width="${HERO.width}" height="${HERO.height}" alt="hero">
<script>new PerformanceObserver((list, observer) => { observer.disconnect(); setTimeout(() => document.body.prepend(Object.assign(document.createElement('div'), { id: 'banner' })), 50); }).observe({ type: 'paint', buffered: true });</script>
</body></html>`;

const busyPage = `<!doctype html><html><head><title>Busy</title></head><body><h1>Busy page</h1>
<script>setTimeout(() => { const end = performance.now() + ${LONG_TASK_MS}; while (performance.now() < end); }, 30);</script>
</body></html>`;

// Chromium leaves images under 0.05 bits per pixel out of LCP: the stripes give the image enough bytes to count.
const hero = `<svg xmlns="http://www.w3.org/2000/svg" width="${HERO.width}" height="${HERO.height}">${Array.from(
  { length: 100 },
  (_, i) =>
    `<rect x="${i * 9}" width="9" height="${HERO.height}" fill="#${(i * 163_000 + 4_000).toString(16).padStart(6, '0').slice(-6)}"/>`,
).join('')}</svg>`;

const simplePage = (n: number): string =>
  `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><p>${'Words here. '.repeat(50)}</p></body></html>`;

let server: http.Server;
let origin = '';
const egress = new Egress({ allow: ['127.0.0.1/32'], dnsServers: [] });
const userAgents: string[] = [];
let onHanging = (): void => undefined;
/** The stand-in internal host the leaky page reaches for (127.0.0.2; all of 127/8 is loopback on Linux). */
let inside = '';

const leakyPage = (): string => `<!doctype html><html><head><title>Leaky</title></head><body><h1>Leaky</h1>
<img src="${inside}/pixel.png" alt=""><iframe src="${inside}/admin"></iframe><img src="/hero.svg" alt="hero">
<script>fetch('${inside}/latest/meta-data/iam').catch(() => undefined); navigator.sendBeacon('${inside}/beacon', 'x');</script>
</body></html>`;

beforeAll(async () => {
  ensureDebianPackages([debianPackages.chromium]);
  server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    userAgents.push(request.headers['user-agent'] ?? '');
    const send = (type: string, body: string, status = 200): void => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    if (url === '/shift') setTimeout(() => send('text/html; charset=utf-8', shiftingPage), TTFB_DELAY_MS);
    else if (url === '/hero.svg') setTimeout(() => send('image/svg+xml', hero), HERO_DELAY_MS);
    else if (url === '/hanging') {
      onHanging();
      setTimeout(() => send('text/html; charset=utf-8', simplePage(0)), HANGING_MS);
    } else if (url === '/busy') send('text/html; charset=utf-8', busyPage);
    else if (url === '/leaky') send('text/html; charset=utf-8', leakyPage());
    else if (url.startsWith('/page-')) send('text/html; charset=utf-8', simplePage(Number(url.slice(6))));
    else send('text/html; charset=utf-8', '<!doctype html><title>Not found</title><h1>Not found</h1>', 404);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('renderPages in Chromium', () => {
  it('measures a known layout shift, a late hero image, a slow first byte and a long task', async () => {
    const [shift, busy] = await renderPages([`${origin}/shift`, `${origin}/busy`], {
      userAgent: 'thc-render-test',
      egress,
    });
    expect(shift?.url).toBe(`${origin}/shift`);
    const impactArea =
      VIEWPORT.width * (CONTENT_PX + SHIFT_PX) + HERO.width * (VIEWPORT.height - CONTENT_PX - SHIFT_PX);
    const expectedCls = (impactArea / (VIEWPORT.width * VIEWPORT.height)) * (SHIFT_PX / VIEWPORT.width);
    expect(shift?.cls).toBeCloseTo(expectedCls, 3);
    expect(shift?.ttfb).toBeGreaterThanOrEqual(TTFB_DELAY_MS);
    expect(shift?.ttfb).toBeLessThan(TTFB_DELAY_MS + 1000);
    // Seconds: the text paints at once, the image only after its delay.
    expect(shift?.fcp).toBeGreaterThan(0);
    expect(shift?.lcp).toBeGreaterThanOrEqual((TTFB_DELAY_MS + HERO_DELAY_MS) / 1000);
    expect(shift?.lcp).toBeGreaterThan(shift?.fcp ?? Infinity);
    expect(shift?.lcp).toBeLessThan(5);
    expect(shift?.dcl).toBeGreaterThanOrEqual(TTFB_DELAY_MS / 1000);
    expect(shift?.tti).toBeGreaterThanOrEqual(shift?.fcp ?? Infinity);

    expect(busy?.cls).toBe(0);
    expect(busy?.fcp).toBeGreaterThan(0);
    expect(busy?.lcp).toBeGreaterThanOrEqual(busy?.fcp ?? Infinity);
    // TTI waits for the end of the long task that started 30 ms after the script ran.
    expect(busy?.tti).toBeGreaterThanOrEqual(LONG_TASK_MS / 1000);
    expect(userAgents).toContain('thc-render-test');
  });

  it('gives NULL vitals to pages that fail, and keeps the order of the URLs', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const urls = [`${origin}/missing`, `${deadOrigin}/`, `${origin}/page-1`];
    const vitals = await renderPages(urls, { userAgent: 'thc-render-test', egress });
    expect(vitals.map((v) => v.url)).toEqual(urls);
    for (const failed of vitals.slice(0, 2)) {
      expect([failed.cls, failed.dcl, failed.fcp, failed.lcp, failed.ttfb, failed.tti]).toEqual(Array(6).fill(null));
    }
    expect(vitals[2]?.fcp).toBeGreaterThan(0);
    expect(vitals[2]?.lcp).toBeGreaterThan(0);
  });

  it('renders nothing once aborted, and stops at once when aborted while a page loads', async () => {
    const controller = new AbortController();
    controller.abort();
    const none = await renderPages([`${origin}/page-1`], { userAgent: 'x', egress, signal: controller.signal });
    expect(none).toEqual([
      { url: `${origin}/page-1`, cls: null, dcl: null, fcp: null, lcp: null, ttfb: null, tti: null },
    ]);

    const midway = new AbortController();
    const started = performance.now();
    const rendering = renderPages([`${origin}/page-2`, `${origin}/hanging`], {
      userAgent: 'x',
      egress,
      concurrency: 1,
      signal: midway.signal,
    });
    onHanging = () => midway.abort();
    const [done, hanging] = await rendering;
    expect(performance.now() - started).toBeLessThan(HANGING_MS);
    expect(done?.fcp).toBeGreaterThan(0);
    expect(hanging?.fcp).toBeNull();
  });

  it('sends every request of the page through the egress policy, loopback included', async () => {
    const seen: string[] = [];
    const internal = http.createServer((request, response) => {
      seen.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
    inside = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
    let connections = 0;
    internal.on('connection', () => connections++);
    try {
      const [refused] = await renderPages([`${origin}/leaky`], { userAgent: 'thc-render-test', egress });
      expect(refused?.fcp).toBeGreaterThan(0);
      expect(connections).toBe(0);
      // The same page with 127/8 allowed: its requests do reach the internal host, through the proxy.
      const open = new Egress({ allow: ['127.0.0.0/8'], dnsServers: [] });
      await renderPages([`${origin}/leaky`], { userAgent: 'thc-render-test', egress: open });
      expect(seen).toEqual(expect.arrayContaining(['/pixel.png', '/admin', '/latest/meta-data/iam']));
    } finally {
      internal.closeAllConnections();
      await new Promise<void>((resolve) => internal.close(() => resolve()));
    }
  });

  it('renders loopback pages several at a time', async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `${origin}/page-${i}`);
    const started = performance.now();
    const vitals = await renderPages(urls, { userAgent: 'thc-render-test', egress, concurrency: 4 });
    const pagesPerSecond = urls.length / ((performance.now() - started) / 1000);
    console.log(`render: ${urls.length} pages at ${pagesPerSecond.toFixed(1)} pages/s`);
    expect(vitals.every((v) => v.fcp !== null && v.lcp !== null && v.ttfb !== null)).toBe(true);
    // The target is 10 pages/s on a quiet machine; two cores shared with other test runs get less.
    expect(pagesPerSecond).toBeGreaterThan(1);
  });
});

describe('timeToInteractive', () => {
  it('is FCP when nothing is busy after it', () => {
    expect(timeToInteractive(500, null, [], [[0, 100]])).toBe(500);
  });
  it('is the end of the last long task before a quiet window', () => {
    expect(
      timeToInteractive(
        500,
        null,
        [
          [600, 700],
          [1000, 1300],
        ],
        [],
      ),
    ).toBe(1300);
  });
  it('skips a long task followed within 5 s by another, and windows busy with three requests', () => {
    expect(
      timeToInteractive(
        500,
        null,
        [
          [600, 700],
          [5000, 5100],
        ],
        [],
      ),
    ).toBe(5100);
    const tasks: [number, number][] = [
      [600, 700],
      [7000, 7100],
    ];
    expect(timeToInteractive(500, null, tasks, [])).toBe(700);
    const threeRequests: [number, number][] = [
      [400, 3000],
      [400, 3000],
      [400, 3000],
    ];
    // With three requests in flight until 3000 the first quiet window can only open then, and it holds the task at 7000.
    expect(timeToInteractive(500, null, tasks, threeRequests)).toBe(7100);
    expect(timeToInteractive(500, null, tasks, threeRequests.slice(1))).toBe(700);
  });
  it('is never before DOMContentLoaded ends', () => {
    expect(timeToInteractive(500, 800, [], [])).toBe(800);
  });
});
