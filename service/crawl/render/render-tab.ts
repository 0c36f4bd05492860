/**
 * A tab of the rendered crawl: a browser context with one page, kept from page to page (a fresh context per page
 * cost twice Chromium's CPU per page: a new renderer process, and the site's scripts fetched and compiled again), and
 * one page rendered in it: navigation, the wait for "rendered" (render-settings.ts), the DOM snapshot, and what went
 * wrong on the way (console errors, uncaught exceptions, failed subrequests, resources robots.txt blocks). Nothing
 * here throws: a page that crashes, navigates away or never settles is a result with its reason, and every step has a
 * deadline, so a page busy in an endless loop costs its cap and no more. Only a tab whose page rendered is kept for
 * the next page, its cookies and storage cleared first; any other is closed, and the page after gets a new one.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { HASH_ROUTES_MAX, IDLE_SETTLE_MS, type RenderSettings } from '../render-settings.ts';

export type RenderStatus = 'rendered' | 'timeout' | 'crashed' | 'navigated' | 'failed';

export interface RenderedPage {
  status: RenderStatus;
  /** Why the render ended: network quiet, the cap (with requests still in flight), the crash, the navigation. */
  reason: string;
  elapsedMs: number;
  /** The rendered DOM serialised; null when there was none to take. */
  html: string | null;
  /** Where the page navigated to (status `navigated`). */
  navigatedTo: string | null;
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: string[];
  robotsBlocked: string[];
  /** Distinct `#/…` and `#!/…` routes the page links to, its own views' links included. */
  hashRoutes: string[];
}

export interface TabLimits extends Pick<RenderSettings, 'quietMs' | 'capMs' | 'loadAssets'> {
  userAgent: string;
  /** Whether robots.txt lets the crawler's user agent fetch a subresource (`blocks` decides if it is then fetched). */
  isAllowed: (url: string) => Promise<boolean>;
  blocksDisallowed: boolean;
}

/** Steps after the cap (snapshot, hash routes, closing) get this long each. */
export const STEP_MS = 2000;
/** Opening a context and a tab: a busy browser on a busy machine takes seconds, none of them the page's. */
const OPEN_MS = 30_000;
/** Closing a tab whose renderer is busy (its process is then killed): longer means the browser is stuck. */
const CLOSE_MS = 5000;
const MAX_MESSAGES = 20;
const MAX_MESSAGE_CHARS = 300;
/** CDP's resource types of images, media and fonts: not downloaded unless the settings ask. */
const ASSET_TYPES = new Set(['Image', 'Media', 'Font']);
/** How Chromium fails a request the tab refused (an asset, a resource robots.txt disallows): not the page's failure. */
const REFUSED_ERROR = 'net::ERR_BLOCKED_BY_CLIENT.Inspector';
const FAILED_RESOURCE = 'Failed to load resource:';

export class Deadline extends Error {}

/** Playwright's words for a browser (or its page's renderer) that went away mid-call. */
const BROWSER_GONE = /browser closed|browser has been closed|target crashed|browser has disconnected/i;

/** The promise, or a Deadline error after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Deadline(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const note = (list: string[], text: string): void => {
  if (list.length < MAX_MESSAGES) list.push(text.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE_CHARS));
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** CDP's Fetch.requestPaused, the fields read here. */
interface PausedRequest {
  requestId: string;
  request: { url: string; headers: Record<string, string> };
  resourceType: string;
  frameId: string;
}

/** What the tab watches while a page loads; `reset` starts the next page's watch. */
class Watch {
  inFlight = 0;
  lastActivity = Date.now();
  isLoaded = false;
  crash: string | null = null;
  navigatedTo: string | null = null;
  isFirstNavigation = true;
  result = Watch.lists();

  private static lists(): Pick<RenderedPage, 'consoleErrors' | 'pageErrors' | 'failedRequests' | 'robotsBlocked'> {
    return { consoleErrors: [], pageErrors: [], failedRequests: [], robotsBlocked: [] };
  }

  reset(): void {
    Object.assign(this, { inFlight: 0, lastActivity: Date.now(), isLoaded: false, navigatedTo: null });
    this.isFirstNavigation = true;
    this.result = Watch.lists();
  }

  listen(page: Page): void {
    page.on('console', (message) => {
      // Chromium logs each failed resource as a console error: those are failed requests, not the scripts' errors.
      if (message.type() === 'error' && !message.text().startsWith(FAILED_RESOURCE)) {
        note(this.result.consoleErrors, message.text());
      }
    });
    page.on('pageerror', (error) => note(this.result.pageErrors, error.message));
    // A page's "leave this page?" is answered yes: the next page this tab goes to is not held up by the last one.
    page.on('dialog', (dialog) => {
      void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
    });
    page.on('crash', () => (this.crash = 'the page crashed (renderer out of memory or killed)'));
    page.on('load', () => (this.isLoaded = true));
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        if (!this.isFirstNavigation && this.navigatedTo === null) this.navigatedTo = request.url();
        this.isFirstNavigation = false;
      }
      this.inFlight++;
      this.lastActivity = Date.now();
    });
    const done = (): void => {
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.lastActivity = Date.now();
    };
    page.on('requestfinished', done);
    page.on('response', (response) => {
      const request = response.request();
      const isDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
      if (response.status() >= 400 && !isDocument)
        note(this.result.failedRequests, `${request.url()} ${response.status()}`);
    });
    page.on('requestfailed', (request) => {
      done();
      const error = request.failure()?.errorText;
      if (error !== REFUSED_ERROR) note(this.result.failedRequests, `${request.url()} ${error}`);
    });
  }
}

/** The browser's own fetch of a page's icon (not the page's request): never made, whatever the settings. */
const isBrowserIcon = (resourceType: string, headers: Record<string, string>): boolean =>
  resourceType === 'Other' && /^image\//.test(headers.Accept ?? headers.accept ?? '');

/**
 * Which requests the page may make, decided in the browser's network stack through CDP's Fetch domain (Playwright's
 * own routing turns the HTTP cache off, so every page fetched and compiled the site's scripts again): images, media
 * and fonts are refused unless the settings ask, and a subresource robots.txt disallows is noted (and refused when
 * robots.txt is respected). The page's own document is never held.
 */
async function interceptRequests(session: CDPSession, watch: Watch, limits: TabLimits): Promise<void> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const mainFrame = frameTree.frame.id;
  const decide = async ({ requestId, request, resourceType, frameId }: PausedRequest): Promise<void> => {
    const refuse = (): Promise<unknown> =>
      session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
    if (!limits.loadAssets && ASSET_TYPES.has(resourceType)) return void (await refuse());
    if (isBrowserIcon(resourceType, request.headers)) return void (await refuse());
    const isDocument = resourceType === 'Document' && frameId === mainFrame;
    const { url } = request;
    if (!isDocument && url.startsWith('http') && !(await limits.isAllowed(url))) {
      note(watch.result.robotsBlocked, url);
      if (limits.blocksDisallowed) return void (await refuse());
    }
    await session.send('Fetch.continueRequest', { requestId });
  };
  // A request the page no longer waits for (its tab closed, its document gone) cannot be continued: nothing to do.
  session.on('Fetch.requestPaused', (paused) => void decide(paused as PausedRequest).catch(() => undefined));
  await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
}

interface Snapshot {
  html: string;
  hashRoutes: string[];
}

/**
 * The rendered DOM and the hash routes it links to; with `whenIdle`, taken once the page's main thread has an idle
 * period (the tasks it had queued, a framework's effects, ran): the wait and the snapshot in one round trip.
 */
const pageSnapshot = async (whenIdle: boolean): Promise<Snapshot> => {
  if (whenIdle) await new Promise((resolve) => requestIdleCallback(resolve));
  const here = location.origin + location.pathname + location.search;
  const routes = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const target = new URL((a as HTMLAnchorElement).href, location.href);
    if (target.origin + target.pathname + target.search === here && /^#!?\//.test(target.hash)) routes.add(target.hash);
  }
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return { html: doctype + document.documentElement.outerHTML, hashRoutes: [...routes] };
};

/** Empties the page's session storage, which the tab keeps across documents. */
const forgetSession = (): void => {
  try {
    sessionStorage.clear();
  } catch {
    // An opaque origin has no storage.
  }
};

/**
 * Waits for "rendered" or the cap; gives the reason and the DOM snapshot, or null at the cap. Network quiet counts
 * only once the page's main thread has gone idle with no request started meanwhile: on a starved machine a
 * framework's effects (which start the page's fetches) can run later than the quiet time after load.
 */
async function settle(
  page: Page,
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
      const snapshot = await within(page.evaluate(pageSnapshot, true), left, 'an idle period').catch(() => null);
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
async function exploreHashRoutes(page: Page, first: string[], watch: Watch, limits: TabLimits): Promise<string[]> {
  const seen = new Set(first);
  const queue = [...first];
  const endAt = Date.now() + limits.capMs;
  while (queue.length > 0 && seen.size < HASH_ROUTES_MAX && Date.now() < endAt) {
    const route = queue.shift() as string;
    const left = endAt - Date.now();
    await within(
      page.evaluate((hash) => void (location.hash = hash), route),
      Math.min(STEP_MS, left),
      'a hash route',
    );
    watch.lastActivity = Date.now();
    const quiet = await settle(page, watch, { ...limits, capMs: Math.min(left, limits.capMs) }, Date.now());
    if (watch.crash !== null || watch.navigatedTo !== null) break;
    const { hashRoutes } = quiet?.snapshot ?? (await within(page.evaluate(pageSnapshot, false), STEP_MS, 'a snapshot'));
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
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly session: CDPSession,
    private readonly watch: Watch,
    private readonly limits: TabLimits,
  ) {}

  /**
   * A tab in a context of its own: contexts share no renderer process, so a page that loops or hoards memory stalls
   * no other tab.
   */
  static async open(browser: Browser, limits: TabLimits): Promise<RenderTab> {
    const context = await within(
      browser.newContext({ userAgent: limits.userAgent, serviceWorkers: 'block' }),
      OPEN_MS,
      'opening a context',
    );
    try {
      const page = await within(context.newPage(), OPEN_MS, 'opening a tab');
      const session = await within(context.newCDPSession(page), OPEN_MS, 'opening a tab');
      const watch = new Watch();
      watch.listen(page);
      await within(interceptRequests(session, watch, limits), OPEN_MS, 'opening a tab');
      return new RenderTab(context, page, session, watch, limits);
    } catch (error) {
      await within(context.close(), CLOSE_MS, 'closing a context').catch(() => undefined);
      throw error;
    }
  }

  /** Closes the tab's context; false when it would not close in time (its renderer, and the browser, are stuck). */
  async close(): Promise<boolean> {
    this.isReusable = false;
    return within(this.context.close(), CLOSE_MS, 'closing the tab').then(
      () => true,
      () => false,
    );
  }

  /** Renders `url`; afterwards `isReusable` says whether the tab can take the next page. */
  async render(url: string): Promise<RenderedPage> {
    const { page, watch, limits } = this;
    // The cap and the render time count from navigation start: clearing the last page's state is not this page's.
    let startedAt = Date.now();
    const result = failedRender('');
    this.isReusable = false;
    try {
      watch.reset();
      Object.assign(result, watch.result);
      startedAt = Date.now();
      const navigation = page.goto(url, { waitUntil: 'commit', timeout: limits.capMs }).catch((error: Error) => error);
      const committed = await within(navigation, limits.capMs + STEP_MS, 'navigation');
      if (committed instanceof Error && watch.navigatedTo === null && watch.crash === null) {
        if (committed.name !== 'TimeoutError') throw committed;
        const reason = `the cap of ${limits.capMs} ms was reached before the page's response arrived`;
        return Object.assign(result, { status: 'timeout', reason });
      }
      const quiet = await settle(page, watch, limits, startedAt);
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
      const snapshot =
        quiet?.snapshot ?? (await within(page.evaluate(pageSnapshot, false), STEP_MS, 'the DOM snapshot'));
      result.html = snapshot.html;
      result.hashRoutes = snapshot.hashRoutes.sort();
      if (snapshot.hashRoutes.length > 0) {
        result.hashRoutes = await exploreHashRoutes(page, snapshot.hashRoutes, watch, limits).catch(
          () => result.hashRoutes,
        );
      }
      this.isReusable = result.status === 'rendered' && watch.crash === null && watch.navigatedTo === null;
    } catch (error) {
      this.isReusable = false;
      describeFailure(result, error, watch);
    } finally {
      result.elapsedMs = Date.now() - startedAt;
    }
    return result;
  }

  /**
   * Clears the last page's cookies and storage, so the next page renders as a first visit, as a search engine's does;
   * false when that failed (the tab is then not to be used again).
   */
  async clear(): Promise<boolean> {
    try {
      const { origin } = new URL(this.page.url());
      const cleared = Promise.all([
        this.page.evaluate(forgetSession),
        this.context.clearCookies(),
        origin.startsWith('http')
          ? this.session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })
          : null,
      ]);
      await within(cleared, STEP_MS, 'clearing the last page');
      return true;
    } catch {
      this.isReusable = false;
      return false;
    }
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
