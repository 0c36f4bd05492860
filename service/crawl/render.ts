/**
 * `--render N`: loads pages in Debian's Chromium (playwright-core, one browser, a few tabs at once) and measures
 * CLS, DCL, FCP, LCP, TTFB and TTI the way the web-vitals library does: observers registered before any page
 * script (buffered, so nothing painted earlier is missed), LCP final at the first input, CLS as the largest
 * session window. A page that fails to load gets NULL everywhere; a metric the page never produced is NULL.
 *
 * TTI is the classic definition approximated: the first window of QUIET_WINDOW_MS after FCP with no long task and
 * at most two requests in flight, found in what the page did up to load plus SETTLE_MS; whatever comes after is
 * assumed quiet (waiting a real 5 s per page would cap rendering far below 10 pages/s). TTI is the end of the
 * last long task before that window (FCP if none), never before DOMContentLoaded ends, as Lighthouse has it.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { PageVitals } from './crawl-options.ts';
import type { Egress } from './egress.ts';
import { startEgressProxy } from './egress-proxy.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './render-browser.ts';

const NAVIGATION_TIMEOUT_MS = 15_000;
/** Longest wait after the load event for a first contentful paint. */
const PAINT_TIMEOUT_MS = 2000;
/** Time after load and first paint for late paints, shifts and long tasks to be observed. */
const SETTLE_MS = 150;

export interface RenderOptions {
  /** Pages rendered at once (tabs); 4 by default. */
  concurrency?: number;
  userAgent: string;
  /** Every request of the browser goes through a proxy that connects only where this allows. */
  egress: Egress;
  signal?: AbortSignal;
}

/** What the init script reports, in milliseconds since navigation start (activationStart taken off). */
interface RawVitals {
  cls: number | null;
  dcl: number | null;
  dclEnd: number | null;
  fcp: number | null;
  lcp: number | null;
  ttfb: number | null;
  longTasks: [number, number][];
  requests: [number, number][];
}

declare global {
  interface Window {
    /**
     * Waits for the first contentful paint (at most `paintTimeoutMs`, for a page that paints nothing) and `settleMs`
     * more, then makes the first input and reports.
     */
    __thcMeasure?: (paintTimeoutMs: number, settleMs: number) => Promise<RawVitals>;
  }
}

/** Runs in the page before any of its scripts (page.addInitScript): everything here must be self-contained. */
function observeVitals(): void {
  const SESSION_GAP_MS = 1000;
  const SESSION_MAX_MS = 5000;
  let cls = 0;
  let sessionValue = 0;
  let sessionFirst = 0;
  let sessionLast = 0;
  let lcp: number | null = null;
  let lcpFinal = false;
  let fcp: number | null = null;
  const longTasks: [number, number][] = [];
  const paintWaiters: (() => void)[] = [];

  const activationStart = (): number => {
    const nav = performance.getEntriesByType('navigation')[0] as
      (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
    return nav?.activationStart ?? 0;
  };
  const observe = (type: string, onEntry: (entry: PerformanceEntry) => void): PerformanceObserver | null => {
    try {
      const observer = new PerformanceObserver((list) => list.getEntries().forEach(onEntry));
      observer.observe({ type, buffered: true });
      return observer;
    } catch {
      return null;
    }
  };

  observe('paint', (entry) => {
    if (entry.name !== 'first-contentful-paint') return;
    fcp = Math.max(entry.startTime - activationStart(), 0);
    paintWaiters.splice(0).forEach((resolve) => resolve());
  });
  const lcpObserver = observe('largest-contentful-paint', (entry) => {
    if (!lcpFinal) lcp = Math.max(entry.startTime - activationStart(), 0);
  });
  observe('layout-shift', (entry) => {
    const shift = entry as PerformanceEntry & { value: number; hadRecentInput: boolean };
    if (shift.hadRecentInput) return;
    if (
      sessionValue > 0 &&
      shift.startTime - sessionLast < SESSION_GAP_MS &&
      shift.startTime - sessionFirst < SESSION_MAX_MS
    ) {
      sessionValue += shift.value;
    } else {
      sessionValue = shift.value;
      sessionFirst = shift.startTime;
    }
    sessionLast = shift.startTime;
    cls = Math.max(cls, sessionValue);
  });
  observe('longtask', (entry) => longTasks.push([entry.startTime, entry.startTime + entry.duration]));

  const finaliseLcp = (): void => {
    if (lcpFinal) return;
    lcpObserver?.takeRecords().forEach((entry) => (lcp = Math.max(entry.startTime - activationStart(), 0)));
    lcpFinal = true;
    lcpObserver?.disconnect();
  };
  for (const type of ['keydown', 'click']) addEventListener(type, finaliseLcp, { once: true, capture: true });
  addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'hidden') finaliseLcp();
    },
    { capture: true },
  );

  const painted = (timeoutMs: number): Promise<void> =>
    new Promise((resolve) => {
      if (fcp !== null) return resolve();
      paintWaiters.push(resolve);
      setTimeout(resolve, timeoutMs);
    });
  const report = (): RawVitals => {
    const start = activationStart();
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const since = (time: number | undefined): number | null =>
      time === undefined || time <= 0 ? null : Math.max(time - start, 0);
    const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      (entry): [number, number] => [entry.startTime, entry.responseEnd || entry.startTime + entry.duration],
    );
    if (nav) requests.push([0, nav.responseEnd]);
    return {
      cls,
      dcl: since(nav?.domContentLoadedEventStart),
      dclEnd: since(nav?.domContentLoadedEventEnd),
      fcp,
      lcp,
      ttfb: nav ? Math.max(nav.responseStart - start, 0) : null,
      longTasks,
      requests,
    };
  };
  window.__thcMeasure = async (paintTimeoutMs, settleMs) => {
    await painted(paintTimeoutMs);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    // The first input, which makes web-vitals report LCP as final: a key press through the same listener.
    dispatchEvent(new KeyboardEvent('keydown'));
    return report();
  };
}

const QUIET_WINDOW_MS = 5000;
const MAX_QUIET_REQUESTS = 2;

function inFlightAt(requests: [number, number][], time: number): number {
  return requests.filter(([start, end]) => start <= time && end > time).length;
}

/** Classic TTI over what was observed, in milliseconds (see the file comment). */
export function timeToInteractive(
  fcp: number,
  dclEnd: number | null,
  longTasks: [number, number][],
  requests: [number, number][],
): number {
  const tasks = longTasks.filter(([, end]) => end > fcp);
  const candidates = [fcp, ...tasks.map(([, end]) => end), ...requests.map(([, end]) => end)]
    .filter((time) => time >= fcp)
    .sort((a, b) => a - b);
  const isQuiet = (start: number): boolean => {
    const end = start + QUIET_WINDOW_MS;
    if (tasks.some(([taskStart, taskEnd]) => taskStart < end && taskEnd > start)) return false;
    const changes = [start, ...requests.map(([requestStart]) => requestStart).filter((t) => t > start && t < end)];
    return changes.every((time) => inFlightAt(requests, time) <= MAX_QUIET_REQUESTS);
  };
  const windowStart = candidates.find(isQuiet) ?? candidates[candidates.length - 1] ?? fcp;
  const lastTaskEnd = Math.max(fcp, ...tasks.map(([, end]) => end).filter((end) => end <= windowStart));
  return Math.max(lastTaskEnd, dclEnd ?? 0);
}

const seconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);

export function toPageVitals(url: string, raw: RawVitals): PageVitals {
  return {
    url,
    cls: raw.cls,
    dcl: seconds(raw.dcl),
    fcp: seconds(raw.fcp),
    lcp: seconds(raw.lcp),
    ttfb: raw.ttfb,
    tti: raw.fcp === null ? null : seconds(timeToInteractive(raw.fcp, raw.dclEnd, raw.longTasks, raw.requests)),
  };
}

export const unrendered = (url: string): PageVitals => ({
  url,
  cls: null,
  dcl: null,
  fcp: null,
  lcp: null,
  ttfb: null,
  tti: null,
});

async function renderPage(page: Page, url: string): Promise<PageVitals> {
  const response = await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
  if (!response?.ok()) return unrendered(url);
  // One round trip: a page's time in the renderer is mostly waiting, which the tabs overlap.
  const raw = await page.evaluate(([paint, settle]) => window.__thcMeasure?.(paint, settle) ?? null, [
    PAINT_TIMEOUT_MS,
    SETTLE_MS,
  ] as const);
  return raw ? toPageVitals(url, raw) : unrendered(url);
}

/**
 * Chromium's flags with every request through `proxyUrl`: loopback included (Chromium bypasses proxies for it by
 * default), and no WebRTC UDP outside the proxy.
 */
export function chromiumArgs(proxyUrl: string, extraArgs: string[] = []): string[] {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(
      `rendering needs Debian's Chromium at ${CHROMIUM_PATH}: install it with apt-get install -y chromium`,
    );
  return [
    ...CHROMIUM_ARGS,
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ...extraArgs,
  ];
}

export async function launchChromium(proxyUrl: string): Promise<Browser> {
  // Loaded when a crawl renders its sample: Playwright's bundle took over a second of CPU at every crawl's start.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs(proxyUrl), headless: true });
}

/** Vitals of each URL, in the order given; URLs not rendered (failure, abort) get NULLs. */
export async function renderPages(urls: string[], options: RenderOptions): Promise<PageVitals[]> {
  const results = urls.map(unrendered);
  const { signal } = options;
  if (urls.length === 0 || signal?.aborted) return results;
  const proxy = await startEgressProxy(options.egress);
  const browser = await launchChromium(proxy.url).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  // Aborting closes the browser: pages still loading fail at once and keep their NULLs.
  const stop = (): void => void browser.close().catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const context = await browser.newContext({ userAgent: options.userAgent });
    // tsx compiles with keepNames, which wraps functions in a __name helper the page does not have.
    await context.addInitScript({ content: `var __name = (target) => target; (${observeVitals.toString()})();` });
    let next = 0;
    // A tab serves one URL after another (each navigation runs the init script afresh); one that failed is replaced.
    const worker = async (): Promise<void> => {
      let page: Page | null = null;
      while (next < urls.length && !signal?.aborted) {
        const index = next++;
        const url = urls[index] as string;
        page ??= await context.newPage();
        try {
          results[index] = await renderPage(page, url);
        } catch {
          await page.close().catch(() => undefined);
          page = null;
        }
      }
      await page?.close().catch(() => undefined);
    };
    const tabs = Math.max(1, Math.min(options.concurrency ?? 4, urls.length));
    await Promise.all(Array.from({ length: tabs }, worker));
  } catch (error) {
    if (!signal?.aborted) throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    await browser.close().catch(() => undefined);
    await proxy.close();
  }
  return results;
}
