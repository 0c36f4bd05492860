/**
 * The rendered crawl's browser: one Debian Chromium, its headless shell when installed (launched on the first page,
 * driven over CDP's pipe, cdp-browser.ts; every request through the egress proxy) serving a pool of tabs, each kept
 * for page after page while its pages render (render-tab.ts). A browser that dies or gets stuck is replaced for the next page; the pages it held come back as `crashed` rows, and what was
 * crawled before is untouched (rows are on disk, not in the browser).
 */
import fs from 'node:fs';
import type { Egress } from '../egress.ts';
import { startEgressProxy, type EgressProxy } from '../egress-proxy.ts';
import { chromiumArgs } from '../render.ts';
import { CHROMIUM_PATH } from '../render-browser.ts';
import type { RenderSettings } from '../render-settings.ts';
import { CdpBrowser } from './cdp-browser.ts';
import type { RenderedPage, TabLimits } from './render-result.ts';
import { Deadline, failedRender, RenderTab, STEP_MS } from './render-tab.ts';

/**
 * Debian's headless shell (package chromium-headless-shell: Chromium's old headless mode, without the browser UI
 * the new one carries), which used 38% less CPU per rendered page than Debian's chromium; that one when it is absent.
 */
/**
 * A shared worker belongs to the browser, not to the tab that starts it: its requests would escape the tab's hold
 * (robots.txt, no assets) and keep the page from going quiet. Pages get none, and a page that starts one records
 * "SharedWorker is not defined" among its JavaScript errors.
 */
const NO_SHARED_WORKERS = '--disable-blink-features=SharedWorker';
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
export const rendererPath = (): string => (fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

/** Chromium's start, on a busy machine. */
const LAUNCH_MS = 30_000;
/** A page's script heap: a page allocating without end crashes its own renderer here, not the machine. */
const PAGE_HEAP_MB = 512;

export interface RenderPoolOptions extends Omit<RenderSettings, 'mode'> {
  userAgent: string;
  egress: Egress;
  /** Whether robots.txt allows the crawler to fetch `url`. */
  isAllowed: (url: string) => Promise<boolean>;
  /** Resources robots.txt disallows are not fetched (Googlebot's view), only recorded. */
  blocksDisallowed: boolean;
}

interface Session {
  browser: CdpBrowser;
  /** The launch's promise, which the pool holds while this is its browser. */
  launched: Promise<Session> | null;
  isDead: boolean;
  /** Tabs that rendered their last page, waiting for the next. */
  idle: RenderTab[];
}

export class RenderPool {
  private proxy: Promise<EgressProxy> | null = null;
  private session: Promise<Session> | null = null;
  private readonly queue: (() => void)[] = [];
  private active = 0;
  private isClosed = false;
  /** Browsers started, the first included. */
  launches = 0;
  /** Tabs opened: one per tab slot while pages render, another after each page that did not. */
  tabsOpened = 0;

  constructor(private readonly options: RenderPoolOptions) {}

  /** Renders one page; never throws (a page that could not be rendered is a result with its reason). */
  async render(url: string): Promise<RenderedPage> {
    await this.slot();
    try {
      if (this.isClosed) return failedRender('the crawl stopped');
      let session: Session;
      let tab: RenderTab | undefined;
      try {
        session = await this.open();
        tab = await this.idleTab(session);
        // A tab that could be neither cleared nor closed took its browser with it: the page gets a new one.
        if (session.isDead) {
          session = await this.open();
          tab = undefined;
        }
      } catch (error) {
        return failedRender(`Chromium could not start (${error instanceof Error ? error.message : String(error)})`);
      }
      const result = await this.renderIn(session, tab, url);
      const isGone = session.isDead || !session.browser.isConnected;
      if (isGone && result.status !== 'rendered' && result.status !== 'navigated') {
        return { ...result, status: 'crashed', reason: `Chromium exited during the render (${result.reason})` };
      }
      return result;
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }

  /** A tab of `session` that rendered its last page, cleared for the next; none when there is none, or it failed. */
  private async idleTab(session: Session): Promise<RenderTab | undefined> {
    const tab = session.idle.pop();
    if (!tab || (await tab.clear())) return tab;
    if (!(await tab.close())) void this.discard(session);
    return undefined;
  }

  private async renderIn(session: Session, idle: RenderTab | undefined, url: string): Promise<RenderedPage> {
    let tab = idle;
    if (!tab) {
      try {
        tab = await RenderTab.open(session.browser, this.limits());
        this.tabsOpened++;
      } catch (error) {
        // A browser that cannot open a tab in OPEN_MS is stuck.
        if (error instanceof Deadline) void this.discard(session);
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        return failedRender(`the tab could not open (${message})`);
      }
    }
    const result = await tab.render(url);
    if (tab.isReusable && !session.isDead) session.idle.push(tab);
    // A tab that will not close has a stuck renderer, and the browser with it.
    else if (!(await tab.close())) void this.discard(session);
    return result;
  }

  private limits(): TabLimits {
    const { options } = this;
    return {
      userAgent: options.userAgent,
      quietMs: options.quietMs,
      capMs: options.capMs,
      loadAssets: options.loadAssets,
      isAllowed: options.isAllowed,
      blocksDisallowed: options.blocksDisallowed,
    };
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const session = await this.session?.catch(() => null);
    this.session = null;
    if (session) await this.discard(session);
    const proxy = await this.proxy?.catch(() => null);
    this.proxy = null;
    await proxy?.close();
  }

  private async slot(): Promise<void> {
    if (this.active >= Math.max(1, this.options.tabs)) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
  }

  private open(): Promise<Session> {
    this.session ??= this.launch();
    const session = this.session;
    // A failed launch is not kept: the next page tries again.
    session.catch(() => {
      if (this.session === session) this.session = null;
    });
    return session;
  }

  private async launch(): Promise<Session> {
    this.proxy ??= startEgressProxy(this.options.egress);
    const proxy = await this.proxy;
    const args = chromiumArgs(proxy.url, [`--js-flags=--max-old-space-size=${PAGE_HEAP_MB}`, NO_SHARED_WORKERS]);
    const browser = await CdpBrowser.launch(rendererPath(), args, LAUNCH_MS);
    this.launches++;
    const session: Session = { browser, launched: this.session, isDead: false, idle: [] };
    browser.onExit(() => {
      session.isDead = true;
      if (this.session === session.launched) this.session = null;
    });
    return session;
  }

  /** Closes a browser, killing it when it will not close; the next page starts another. */
  private async discard(session: Session): Promise<void> {
    session.isDead = true;
    // At once: a page after this one asking for a browser gets a new one, not this one while it closes.
    if (this.session === session.launched) this.session = null;
    await session.browser.close(STEP_MS * 2);
  }
}
