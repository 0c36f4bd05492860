/**
 * One page rendered in a fresh tab: navigation, the wait for "rendered" (render-settings.ts), the DOM snapshot, and
 * what went wrong on the way (console errors, uncaught exceptions, failed subrequests, resources robots.txt blocks).
 * Nothing here throws: a page that crashes, navigates away or never settles is a result with its reason, and every
 * step has a deadline, so a page busy in an endless loop costs its cap and no more.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { HASH_ROUTES_MAX, type RenderSettings } from './render-settings.ts';

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
  /** The tab would not close in time: its renderer is stuck, and the browser with it. */
  onStuckTab?: () => void;
}

/** Steps after the cap (snapshot, hash routes, closing) get this long each. */
export const STEP_MS = 2000;
/** Opening a context and a tab: a busy browser on a busy machine takes seconds, none of them the page's. */
const OPEN_MS = 30_000;
/** Closing a tab whose renderer is busy (its process is then killed): longer means the browser is stuck. */
const CLOSE_MS = 5000;
const MAX_MESSAGES = 20;
const MAX_MESSAGE_CHARS = 300;
const ASSET_TYPES = new Set(['image', 'media', 'font']);
const FAILED_RESOURCE = 'Failed to load resource:';
/** After the page's idle period, how long a request it started has to be reported. */
const IDLE_SETTLE_MS = 50;

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

/** What the tab watches while the page loads. */
class Watch {
  inFlight = 0;
  lastActivity = Date.now();
  isLoaded = false;
  crash: string | null = null;
  navigatedTo: string | null = null;
  private isFirstNavigation = true;
  private readonly blocked = new WeakSet<Request>();
  readonly result: Pick<RenderedPage, 'consoleErrors' | 'pageErrors' | 'failedRequests' | 'robotsBlocked'> = {
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    robotsBlocked: [],
  };

  constructor(
    private readonly page: Page,
    private readonly limits: TabLimits,
  ) {}

  async attach(): Promise<void> {
    const { page, result } = this;
    page.on('console', (message) => {
      // Chromium logs each failed resource as a console error: those are failed requests, not the scripts' errors.
      if (message.type() === 'error' && !message.text().startsWith(FAILED_RESOURCE)) {
        note(result.consoleErrors, message.text());
      }
    });
    page.on('pageerror', (error) => note(result.pageErrors, error.message));
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
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
    page.on('requestfinished', (request) => {
      done();
      void request
        .response()
        .then((response) => {
          const isDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
          if (response && response.status() >= 400 && !isDocument) {
            note(result.failedRequests, `${request.url()} ${response.status()}`);
          }
        })
        .catch(() => undefined);
    });
    page.on('requestfailed', (request) => {
      done();
      if (!this.blocked.has(request)) note(result.failedRequests, `${request.url()} ${request.failure()?.errorText}`);
    });
    await page.route('**/*', async (route) => {
      const request = route.request();
      const url = request.url();
      if (!this.limits.loadAssets && ASSET_TYPES.has(request.resourceType())) {
        this.blocked.add(request);
        return route.abort('blockedbyclient');
      }
      const isDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
      if (!isDocument && url.startsWith('http') && !(await this.limits.isAllowed(url))) {
        note(result.robotsBlocked, url);
        if (this.limits.blocksDisallowed) {
          this.blocked.add(request);
          return route.abort('blockedbyclient');
        }
      }
      return route.continue();
    });
  }
}

const pageSnapshot = (): { html: string; hashRoutes: string[] } => {
  const here = location.origin + location.pathname + location.search;
  const routes = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const target = new URL((a as HTMLAnchorElement).href, location.href);
    if (target.origin + target.pathname + target.search === here && /^#!?\//.test(target.hash)) routes.add(target.hash);
  }
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return { html: doctype + document.documentElement.outerHTML, hashRoutes: [...routes] };
};

/** Resolves once the page's main thread has an idle period: the tasks it had queued (a framework's effects) ran. */
const idlePeriod = (): Promise<void> => new Promise((resolve) => requestIdleCallback(() => resolve()));

/**
 * Waits for "rendered" or the cap; says which. Network quiet counts only once the page's main thread has gone idle
 * with no request started meanwhile: on a starved machine a framework's effects (which start the page's fetches)
 * can run later than the quiet time after load.
 */
async function settle(page: Page, watch: Watch, limits: TabLimits, startedAt: number): Promise<string | null> {
  for (;;) {
    if (watch.crash !== null || watch.navigatedTo !== null) return null;
    const now = Date.now();
    const left = limits.capMs - (now - startedAt);
    if (left <= 0) return null;
    if (watch.isLoaded && watch.inFlight === 0 && now - watch.lastActivity >= limits.quietMs) {
      const mark = watch.lastActivity;
      const idle = await within(page.evaluate(idlePeriod), left, 'an idle period').then(
        () => true,
        () => false,
      );
      // A request the idle tasks started may reach us just after the evaluation's answer.
      await sleep(IDLE_SETTLE_MS);
      if (idle && watch.inFlight === 0 && watch.lastActivity === mark) {
        return `network quiet for ${limits.quietMs} ms and the page idle`;
      }
      continue;
    }
    await sleep(Math.min(50, limits.quietMs));
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
    await settle(page, watch, { ...limits, capMs: Math.min(left, limits.capMs) }, Date.now());
    if (watch.crash !== null || watch.navigatedTo !== null) break;
    const { hashRoutes } = await within(page.evaluate(pageSnapshot), STEP_MS, 'a snapshot');
    for (const found of hashRoutes) {
      if (seen.has(found) || seen.size >= HASH_ROUTES_MAX) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return [...seen].sort();
}

/**
 * Renders `url` in a tab of a context of its own, closed again whatever happens: contexts share no renderer process,
 * so a page that loops or hoards memory stalls no other page.
 */
export async function renderInTab(browser: Browser, url: string, limits: TabLimits): Promise<RenderedPage> {
  // The cap and the render time count from navigation start: opening a tab in a busy browser is not the page's.
  let startedAt = Date.now();
  const result = failedRender('');
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  let watch: Watch | null = null;
  try {
    context = await within(
      browser.newContext({ userAgent: limits.userAgent, serviceWorkers: 'block' }),
      OPEN_MS,
      'opening a context',
    );
    page = await within(context.newPage(), OPEN_MS, 'opening a tab');
    watch = new Watch(page, limits);
    Object.assign(result, watch.result);
    await watch.attach();
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
      quiet ??
      `the cap of ${limits.capMs} ms was reached (${watch.isLoaded ? 'loaded' : 'load event not fired'}, ` +
        `${watch.inFlight} requests in flight)`;
    const snapshot = await within(page.evaluate(pageSnapshot), STEP_MS, 'the DOM snapshot');
    result.html = snapshot.html;
    result.hashRoutes = snapshot.hashRoutes.sort();
    if (snapshot.hashRoutes.length > 0) {
      result.hashRoutes = await exploreHashRoutes(page, snapshot.hashRoutes, watch, limits).catch(
        () => result.hashRoutes,
      );
    }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (watch?.crash) Object.assign(result, { status: 'crashed', reason: watch.crash });
    else if (BROWSER_GONE.test(message ?? '')) {
      Object.assign(result, { status: 'crashed', reason: `Chromium exited during the render (${message})` });
    } else if (watch?.navigatedTo) {
      const reason = `navigated away to ${watch.navigatedTo}`;
      Object.assign(result, { status: 'navigated', reason, navigatedTo: watch.navigatedTo, html: null });
    } else if (result.status === 'failed' || result.html === null) {
      result.status = result.status === 'timeout' ? 'timeout' : 'failed';
      result.reason = result.reason ? `${result.reason}; ${message}` : (message ?? 'render failed');
    }
  } finally {
    result.elapsedMs = Date.now() - startedAt;
    if (context) {
      await within(context.close(), CLOSE_MS, 'closing the tab').catch(() => limits.onStuckTab?.());
    }
  }
  return result;
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
