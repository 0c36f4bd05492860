/**
 * A tab of the rendered crawl: a browser context with one page, kept from page to page (a fresh context per page
 * cost twice Chromium's CPU per page: a new renderer process, and the site's scripts fetched and compiled again), and
 * one page rendered in it: navigation, the wait for "rendered" (render-settings.ts), the DOM snapshot, and what went
 * wrong on the way (console errors, uncaught exceptions, failed subrequests, resources robots.txt blocks). Nothing
 * here throws: a page that crashes, navigates away or never settles is a result with its reason, and every step has a
 * deadline, so a page busy in an endless loop costs its cap and no more. Only a tab whose page rendered is kept for
 * the next page, its cookies and storage cleared first; any other is closed, and the page after gets a new one.
 */
import { HASH_ROUTES_MAX, IDLE_SETTLE_MS, IDLE_WAIT_MS } from '../render-settings.ts';
import type { CdpBrowser } from './cdp-browser.ts';
import type { RenderedPage, TabLimits } from './render-result.ts';
import { exceptionMessage, MAX_ORIGINS, Watch, type ExceptionDetails } from './render-watch.ts';

/** Steps after the cap (snapshot, hash routes, closing) get this long each. */
export const STEP_MS = 2000;
/** Opening a context and a tab: a busy browser on a busy machine takes seconds, none of them the page's. */
const OPEN_MS = 30_000;
/** Closing a tab whose renderer is busy (its process is then killed): longer means the browser is stuck. */
const CLOSE_MS = 5000;

export class Deadline extends Error {}

/** The words for a browser (or its page's renderer) that went away mid-call (cdp-browser.ts). */
const BROWSER_GONE = /browser has disconnected|target crashed/i;

/** The promise, or a Deadline error after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Deadline(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Snapshot {
  html: string;
  hashRoutes: string[];
}

/**
 * The rendered DOM and the hash routes it links to; with `idleWithinMs` above 0, taken once the page's main thread has
 * an idle period (the tasks it had queued, a framework's effects, ran), or after that long without one: the wait and
 * the snapshot in one round trip.
 */
const pageSnapshot = async (idleWithinMs: number): Promise<Snapshot> => {
  if (idleWithinMs > 0) await new Promise((resolve) => requestIdleCallback(resolve, { timeout: idleWithinMs }));
  const here = location.origin + location.pathname + location.search;
  const routes = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const target = new URL((a as HTMLAnchorElement).href, location.href);
    if (target.origin + target.pathname + target.search === here && /^#!?\//.test(target.hash)) routes.add(target.hash);
  }
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return { html: doctype + document.documentElement.outerHTML, hashRoutes: [...routes] };
};

/** A function's call as an expression for the page (tsx's keepNames wraps functions in a helper the page lacks). */
const call = (fn: (arg: never) => unknown, arg: unknown): string =>
  `(() => { const __name = (target) => target; return (${fn.toString()})(${JSON.stringify(arg)}); })()`;

/** The last page's session storage and local storage, as its renderer holds them. */
const FORGET_STORAGE = '(() => { try { sessionStorage.clear(); localStorage.clear(); } catch {} })()';
const SNAPSHOT_WHEN_IDLE = call(pageSnapshot, IDLE_WAIT_MS);
const SNAPSHOT_NOW = call(pageSnapshot, 0);

/** Evaluates an expression in the page's main world, within `ms`: its value, or an error. */
type Evaluate = (expression: string, ms: number, what: string) => Promise<unknown>;

/**
 * Waits for "rendered" or the cap; gives the reason and the DOM snapshot, or null at the cap. Network quiet counts
 * only once the page's main thread has gone idle with no request started meanwhile: on a starved machine a
 * framework's effects (which start the page's fetches) can run later than the quiet time after load.
 */
async function settle(
  evaluate: Evaluate,
  watch: Watch,
  limits: TabLimits,
  startedAt: number,
): Promise<{ reason: string; snapshot: Snapshot } | null> {
  for (;;) {
    if (watch.crash !== null || watch.navigatedTo !== null) return null;
    const now = Date.now();
    const left = limits.capMs - (now - startedAt);
    if (left <= 0) return null;
    const quietFor = now - watch.lastActivity;
    if (watch.isLoaded && watch.inFlight === 0 && quietFor >= limits.quietMs) {
      const mark = watch.lastActivity;
      const snapshot = (await evaluate(SNAPSHOT_WHEN_IDLE, left, 'an idle period').catch(
        () => null,
      )) as Snapshot | null;
      // A request the idle tasks started may reach us just after the evaluation's answer.
      await sleep(IDLE_SETTLE_MS);
      if (snapshot !== null && watch.inFlight === 0 && watch.lastActivity === mark) {
        return { reason: `network quiet for ${limits.quietMs} ms and the page idle`, snapshot };
      }
      continue;
    }
    await sleep(Math.min(50, Math.max(10, limits.quietMs - quietFor)));
  }
}

/** Visits the hash routes found (breadth first, within `budgetMs`) for the routes their views link to. */
async function exploreHashRoutes(evaluate: Evaluate, first: string[], watch: Watch, limits: TabLimits) {
  const seen = new Set(first);
  const queue = [...first];
  const endAt = Date.now() + limits.capMs;
  while (queue.length > 0 && seen.size < HASH_ROUTES_MAX && Date.now() < endAt) {
    const route = queue.shift() as string;
    const left = endAt - Date.now();
    await evaluate(`void (location.hash = ${JSON.stringify(route)})`, Math.min(STEP_MS, left), 'a hash route');
    watch.lastActivity = Date.now();
    const quiet = await settle(evaluate, watch, { ...limits, capMs: Math.min(left, limits.capMs) }, Date.now());
    if (watch.crash !== null || watch.navigatedTo !== null) break;
    const { hashRoutes } = quiet?.snapshot ?? ((await evaluate(SNAPSHOT_NOW, STEP_MS, 'a snapshot')) as Snapshot);
    for (const found of hashRoutes) {
      if (seen.has(found) || seen.size >= HASH_ROUTES_MAX) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return [...seen].sort();
}

export class RenderTab {
  /** Whether the tab can render another page: its last page rendered, and nothing went wrong since. */
  isReusable = true;

  private constructor(
    private readonly browser: CdpBrowser,
    private readonly contextId: string,
    private readonly sessionId: string,
    private readonly watch: Watch,
    private readonly limits: TabLimits,
  ) {}

  /**
   * A tab in a context of its own: contexts share no renderer process, so a page that loops or hoards memory stalls
   * no other tab.
   */
  static async open(browser: CdpBrowser, limits: TabLimits): Promise<RenderTab> {
    const context = browser.send<{ browserContextId: string }>('Target.createBrowserContext');
    const contextId = (await within(context, OPEN_MS, 'opening a context')).browserContextId;
    try {
      const target = browser.send<{ targetId: string }>('Target.createTarget', {
        url: 'about:blank',
        browserContextId: contextId,
      });
      const { targetId } = await within(target, OPEN_MS, 'opening a tab');
      const attached = browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      const { sessionId } = await within(attached, OPEN_MS, 'opening a tab');
      // A page's main frame has its target's id.
      const watch = new Watch(browser, sessionId, targetId, limits);
      await within(watch.start(), OPEN_MS, 'opening a tab');
      return new RenderTab(browser, contextId, sessionId, watch, limits);
    } catch (error) {
      await within(
        browser.send('Target.disposeBrowserContext', { browserContextId: contextId }),
        CLOSE_MS,
        'closing',
      ).catch(() => undefined);
      throw error;
    }
  }

  private readonly evaluate: Evaluate = async (expression, ms, what) => {
    const params = { expression, awaitPromise: true, returnByValue: true };
    const evaluation = this.browser.send<{ result: { value?: unknown }; exceptionDetails?: ExceptionDetails }>(
      'Runtime.evaluate',
      params,
      this.sessionId,
    );
    const answer = await within(evaluation, ms, what);
    if (answer.exceptionDetails) throw new Error(exceptionMessage(answer.exceptionDetails));
    return answer.result.value;
  };

  /** Closes the tab's context; false when it would not close in time (its renderer, and the browser, are stuck). */
  async close(): Promise<boolean> {
    this.isReusable = false;
    this.watch.stop();
    const disposed = this.browser.send('Target.disposeBrowserContext', { browserContextId: this.contextId });
    return within(disposed, CLOSE_MS, 'closing the tab').then(
      () => true,
      () => false,
    );
  }

  /** Renders `url`; afterwards `isReusable` says whether the tab can take the next page. */
  async render(url: string): Promise<RenderedPage> {
    const { watch, limits, evaluate } = this;
    // The cap and the render time count from navigation start: clearing the last page's state is not this page's.
    let startedAt = Date.now();
    const result = failedRender('');
    this.isReusable = false;
    try {
      watch.reset();
      startedAt = Date.now();
      const navigation = this.browser
        .send<{ errorText?: string }>('Page.navigate', { url }, this.sessionId)
        .then((answer) => (answer.errorText ? new Error(`${answer.errorText} at ${url}`) : null));
      const committed = await within(navigation, limits.capMs, 'navigation').catch((error: Error) => error);
      if (committed instanceof Error && watch.navigatedTo === null && watch.crash === null) {
        if (!(committed instanceof Deadline)) throw committed;
        const reason = `the cap of ${limits.capMs} ms was reached before the page's response arrived`;
        return Object.assign(result, { status: 'timeout', reason });
      }
      const quiet = await settle(evaluate, watch, limits, startedAt);
      if (watch.crash !== null) return Object.assign(result, { status: 'crashed', reason: watch.crash });
      if (watch.navigatedTo !== null) {
        const reason = `navigated away to ${watch.navigatedTo}`;
        return Object.assign(result, { status: 'navigated', reason, navigatedTo: watch.navigatedTo });
      }
      result.status = quiet === null ? 'timeout' : 'rendered';
      result.reason =
        quiet?.reason ??
        `the cap of ${limits.capMs} ms was reached (${watch.isLoaded ? 'loaded' : 'load event not fired'}, ` +
          `${watch.inFlight} requests in flight)`;
      const snapshot = quiet?.snapshot ?? ((await evaluate(SNAPSHOT_NOW, STEP_MS, 'the DOM snapshot')) as Snapshot);
      result.html = snapshot.html;
      result.hashRoutes = snapshot.hashRoutes.sort();
      if (snapshot.hashRoutes.length > 0) {
        result.hashRoutes = await exploreHashRoutes(evaluate, snapshot.hashRoutes, watch, limits).catch(
          () => result.hashRoutes,
        );
      }
      this.isReusable = result.status === 'rendered' && watch.crash === null && watch.navigatedTo === null;
    } catch (error) {
      this.isReusable = false;
      describeFailure(result, error, watch);
    } finally {
      result.elapsedMs = Date.now() - startedAt;
      Object.assign(result, watch.lists());
    }
    return result;
  }

  /**
   * Readies the tab for the next page, which is to render as a first visit, as a search engine's does; false when the
   * tab cannot be kept (its renderer answers nothing in time, or its pages had too many origins). The last page's
   * document lives until the next page's replaces it (its pagehide and unload handlers, timers, workers and requests
   * run till then), so the cookies and storage of every origin its documents had (cross-site frames' too) are cleared
   * at the next page's gate (render-watch.ts), once that document is gone and before any script of the next page
   * runs; what the last document logged or requested is dropped there too. A blank page between the two pages did the
   * same with a whole navigation more per page, a third of Chromium's CPU per page.
   */
  async clear(): Promise<boolean> {
    const { watch } = this;
    // Now too, so a page whose gate never runs (its Content-Security-Policy refuses the request) gets no more of the
    // last page's state than the last document wrote as it went.
    const isCleared = await this.evaluate(FORGET_STORAGE, STEP_MS, 'clearing the last page')
      .then(() => this.clearOrigins([...watch.origins]))
      .then(
        () => true,
        () => false,
      );
    if (!isCleared || watch.origins.size >= MAX_ORIGINS || watch.clearFailed) {
      this.isReusable = false;
      return false;
    }
    watch.clearLast = (origins) => this.clearOrigins(origins);
    return true;
  }

  private async clearOrigins(origins: string[]): Promise<void> {
    const { browser, sessionId } = this;
    const cleared = Promise.all([
      browser.send('Storage.clearCookies', { browserContextId: this.contextId }),
      ...origins.map((origin) =>
        browser.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }, sessionId),
      ),
    ]);
    await within(cleared, STEP_MS, 'clearing the last page');
  }
}

/** The result of a render a step of which threw: the crash, the navigation, or the error. */
function describeFailure(result: RenderedPage, error: unknown, watch: Watch): void {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (watch.crash) Object.assign(result, { status: 'crashed', reason: watch.crash });
  else if (BROWSER_GONE.test(message ?? '')) {
    Object.assign(result, { status: 'crashed', reason: `Chromium exited during the render (${message})` });
  } else if (watch.navigatedTo) {
    const reason = `navigated away to ${watch.navigatedTo}`;
    Object.assign(result, { status: 'navigated', reason, navigatedTo: watch.navigatedTo, html: null });
  } else if (result.status === 'failed' || result.html === null) {
    result.status = result.status === 'timeout' ? 'timeout' : 'failed';
    result.reason = result.reason ? `${result.reason}; ${message}` : (message ?? 'render failed');
  }
}

/** A page that did not render, with the reason and nothing read from it. */
export const failedRender = (reason: string, status: RenderedPage['status'] = 'failed'): RenderedPage => ({
  status,
  reason,
  elapsedMs: 0,
  html: null,
  navigatedTo: null,
  consoleErrors: [],
  pageErrors: [],
  failedRequests: [],
  robotsBlocked: [],
  hashRoutes: [],
});
