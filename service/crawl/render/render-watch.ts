/**
 * What a tab watches while its page loads, read from CDP's events (render-tab.ts): requests in flight and the last
 * network activity, the load event, a crash, a navigation of the page away, console errors, uncaught exceptions and
 * failed subrequests; and which requests the page may make, decided in the browser's network stack through CDP's
 * Fetch domain (the HTTP cache stays on): images, media and fonts are refused unless the settings ask, and a
 * subresource robots.txt disallows is noted (and refused when robots.txt is respected). The frames Chromium runs in
 * other processes (cross-site iframes) and workers are attached as they start, paused until their requests are held
 * too, so the same rules hold for them.
 */
import type { CdpBrowser } from './cdp-browser.ts';
import type { RenderedPage, TabLimits } from './render-result.ts';

const MAX_MESSAGES = 20;
/**
 * The page a kept tab loads, as its page and in a frame of each other origin it saw, answered here and never sent, to
 * empty that origin's session storage (the tab keeps it across documents; CDP clears it only through a document of the
 * origin).
 */
export const FORGET_PATH = '/.thc-forget-session-storage';
const FORGET_PAGE = '<!doctype html><script>sessionStorage.clear()</script>';
/** Origins whose storage a kept tab clears: a tab whose pages had this many is closed instead (render-tab.ts). */
export const MAX_ORIGINS = 50;
const MAX_MESSAGE_CHARS = 300;
/** CDP's resource types of images, media and fonts: not downloaded unless the settings ask. */
const ASSET_TYPES = new Set(['Image', 'Media', 'Font']);
/** How Chromium fails a request the tab refused (an asset, a resource robots.txt disallows): not the page's failure. */
const REFUSED_ERROR = 'net::ERR_BLOCKED_BY_CLIENT';
const FAILED_RESOURCE = 'Failed to load resource:';
/** Targets started inside a page whose requests are held like the page's. */
const CHILD_TYPES = new Set(['iframe', 'worker']);

/** The fields read of CDP's events. */
interface RemoteObject {
  value?: string | number | boolean | null;
  description?: string;
  unserializableValue?: string;
}
export interface ExceptionDetails {
  text: string;
  exception?: RemoteObject;
}
interface Request {
  url: string;
  headers: Record<string, string>;
}
interface RequestEvent {
  requestId: string;
  type?: string;
  frameId?: string;
  request: Request;
  redirectResponse?: unknown;
}
interface ResponseEvent {
  requestId: string;
  type?: string;
  frameId?: string;
  response: { url: string; status: number };
}
interface FailedEvent {
  requestId: string;
  errorText: string;
  blockedReason?: string;
}
interface PausedEvent {
  requestId: string;
  request: Request;
  resourceType: string;
  frameId: string;
}
interface AttachedEvent {
  sessionId: string;
  targetInfo: { type: string };
}

const note = (list: string[], text: string): void => {
  if (list.length < MAX_MESSAGES) list.push(text.replace(/\s+/g, ' ').trim().slice(0, MAX_MESSAGE_CHARS));
};

/** The browser's own fetch of a page's icon (not the page's request): never made, whatever the settings. */
const isBrowserIcon = (resourceType: string, headers: Record<string, string>): boolean =>
  resourceType === 'Other' && /^image\//.test(headers.Accept ?? headers.accept ?? '');

/** A console call's text, its arguments as the console prints them. */
const consoleText = (args: RemoteObject[]): string =>
  args
    .map((arg) => (arg.value !== undefined ? String(arg.value) : (arg.description ?? arg.unserializableValue ?? '')))
    .join(' ');

/** An uncaught exception's message, without its name and stack ("TypeError: x is undefined\n at …" → "x is …"). */
export function exceptionMessage(details: ExceptionDetails): string {
  const text = details.exception?.description ?? String(details.exception?.value ?? details.text);
  const lines = text.split('\n');
  const stackAt = lines.findIndex((line) => line.startsWith('    at'));
  const head = (stackAt === -1 ? lines : lines.slice(0, stackAt)).join('\n');
  const colon = head.indexOf(':');
  return colon === -1 ? head : head.slice(colon + 2);
}

export class Watch {
  inFlight = 0;
  lastActivity = Date.now();
  isLoaded = false;
  crash: string | null = null;
  navigatedTo: string | null = null;
  isFirstNavigation = true;
  result = Watch.lists();
  /**
   * Origins of the documents the tab loaded (its frames' too) since its storage was last cleared: each may have
   * written storage the next page of that origin would see.
   */
  readonly origins = new Set<string>();
  /** While the tab clears the last page's storage: its FORGET_PATH frames are answered. */
  isClearing = false;
  /** URLs of requests in flight, by request id (a failed one is noted with its URL). */
  private readonly urls = new Map<string, string>();
  /** Sessions of the frames and workers attached. */
  private readonly children = new Set<string>();

  constructor(
    private readonly browser: CdpBrowser,
    /** The page's session; its main frame's id is its target's. */
    private readonly sessionId: string,
    private readonly mainFrame: string,
    private readonly limits: TabLimits,
  ) {}

  private static lists(): Pick<RenderedPage, 'consoleErrors' | 'pageErrors' | 'failedRequests' | 'robotsBlocked'> {
    return { consoleErrors: [], pageErrors: [], failedRequests: [], robotsBlocked: [] };
  }

  /** The lists as they are now: the watch goes on adding to its own. */
  lists(): ReturnType<typeof Watch.lists> {
    const { consoleErrors, pageErrors, failedRequests, robotsBlocked } = this.result;
    return {
      consoleErrors: [...consoleErrors],
      pageErrors: [...pageErrors],
      failedRequests: [...failedRequests],
      robotsBlocked: [...robotsBlocked],
    };
  }

  reset(): void {
    Object.assign(this, {
      inFlight: 0,
      lastActivity: Date.now(),
      isLoaded: false,
      navigatedTo: null,
      isClearing: false,
    });
    this.isFirstNavigation = true;
    this.result = Watch.lists();
    this.urls.clear();
  }

  /** Listens to the page's session, and enables what is listened to. */
  async start(): Promise<void> {
    const { browser, sessionId } = this;
    browser.on(sessionId, (method, params) => this.onPage(method, params));
    const send = (method: string, params: object = {}): Promise<unknown> => browser.send(method, params, sessionId);
    await Promise.all([
      send('Page.enable'),
      send('Network.enable'),
      send('Runtime.enable'),
      send('Log.enable'),
      send('Inspector.enable'),
      send('Network.setBypassServiceWorker', { bypass: true }),
      send('Emulation.setUserAgentOverride', { userAgent: this.limits.userAgent }),
      send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }),
      send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
    ]);
  }

  stop(): void {
    for (const child of [this.sessionId, ...this.children]) this.browser.on(child, null);
    this.children.clear();
  }

  private onPage(method: string, params: unknown): void {
    switch (method) {
      case 'Runtime.consoleAPICalled': {
        const call = params as { type: string; args?: RemoteObject[] };
        if (call.type === 'error') note(this.result.consoleErrors, consoleText(call.args ?? []));
        return;
      }
      case 'Log.entryAdded': {
        // Chromium logs each failed resource as an error: those are failed requests, not the scripts' errors.
        const { level, text, source } = (params as { entry: { level: string; text: string; source: string } }).entry;
        if (level === 'error' && source !== 'worker' && !text.startsWith(FAILED_RESOURCE)) {
          note(this.result.consoleErrors, text);
        }
        return;
      }
      case 'Runtime.exceptionThrown':
        return note(
          this.result.pageErrors,
          exceptionMessage((params as { exceptionDetails: ExceptionDetails }).exceptionDetails),
        );
      case 'Page.javascriptDialogOpening': {
        // A page's "leave this page?" is answered yes: the next page this tab goes to is not held up by the last one.
        const accept = (params as { type: string }).type === 'beforeunload';
        void this.send('Page.handleJavaScriptDialog', { accept }, this.sessionId);
        return;
      }
      case 'Inspector.targetCrashed':
        this.crash = 'the page crashed (renderer out of memory or killed)';
        return;
      case 'Page.loadEventFired':
        this.isLoaded = true;
        return;
      case 'Target.attachedToTarget':
        return void this.attach(params as AttachedEvent);
      default:
        this.onNetwork(method, params, this.sessionId);
    }
  }

  /** Network and Fetch events, the page's and its attached frames' and workers'. */
  private onNetwork(method: string, event: unknown, sessionId: string): void {
    switch (method) {
      case 'Fetch.requestPaused':
        return void this.decide(event as PausedEvent, sessionId);
      case 'Network.requestWillBeSent': {
        const params = event as RequestEvent;
        if (params.type === 'Document' && params.frameId === this.mainFrame && sessionId === this.sessionId) {
          if (!this.isFirstNavigation && this.navigatedTo === null) this.navigatedTo = params.request.url;
          this.isFirstNavigation = false;
        }
        if (params.type === 'Document' && params.request.url.startsWith('http') && this.origins.size < MAX_ORIGINS) {
          this.origins.add(new URL(params.request.url).origin);
        }
        // A redirect is the same request going on.
        if (!params.redirectResponse) this.inFlight++;
        this.urls.set(params.requestId, params.request.url);
        this.lastActivity = Date.now();
        return;
      }
      case 'Network.responseReceived': {
        const params = event as ResponseEvent;
        const isDocument = params.type === 'Document' && params.frameId === this.mainFrame;
        if (params.response.status >= 400 && !isDocument) {
          note(this.result.failedRequests, `${params.response.url} ${params.response.status}`);
        }
        return;
      }
      case 'Network.loadingFinished':
        return this.done((event as { requestId: string }).requestId);
      case 'Target.detachedFromTarget': {
        const { sessionId: child } = event as { sessionId: string };
        this.children.delete(child);
        return this.browser.on(child, null);
      }
      case 'Network.loadingFailed': {
        const params = event as FailedEvent;
        const url = this.urls.get(params.requestId);
        this.done(params.requestId);
        const error = params.errorText;
        if (url !== undefined && !(error.startsWith(REFUSED_ERROR) && params.blockedReason === 'inspector')) {
          note(this.result.failedRequests, `${url} ${error}`);
        }
        return;
      }
    }
  }

  private done(requestId: string): void {
    if (!this.urls.delete(requestId)) return;
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastActivity = Date.now();
  }

  private send(method: string, params: object, sessionId: string): Promise<unknown> {
    // A request the page no longer waits for (its tab closed, its document gone) cannot be answered: nothing to do.
    return this.browser.send(method, params, sessionId).catch(() => undefined);
  }

  /** Lets a paused request go on, or refuses it. The page's own document is never held. */
  private async decide(paused: PausedEvent, sessionId: string): Promise<void> {
    const { requestId, request, resourceType, frameId } = paused;
    // The page's lists when it asked: a request the last page made as it went is not the next page's.
    const { limits, result } = this;
    const refuse = (): Promise<unknown> =>
      this.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }, sessionId);
    if (!limits.loadAssets && ASSET_TYPES.has(resourceType)) return void (await refuse());
    if (isBrowserIcon(resourceType, request.headers)) return void (await refuse());
    const isDocument = resourceType === 'Document' && frameId === this.mainFrame;
    const { url } = request;
    if (this.isClearing && resourceType === 'Document' && new URL(url).pathname === FORGET_PATH) {
      const body = Buffer.from(FORGET_PAGE).toString('base64');
      const headers = [{ name: 'content-type', value: 'text/html' }];
      return void (await this.send(
        'Fetch.fulfillRequest',
        { requestId, responseCode: 200, responseHeaders: headers, body },
        sessionId,
      ));
    }
    if (!isDocument && url.startsWith('http') && !(await limits.isAllowed(url).catch(() => true))) {
      note(result.robotsBlocked, url);
      if (limits.blocksDisallowed) return void (await refuse());
    }
    await this.send('Fetch.continueRequest', { requestId }, sessionId);
  }

  /** A frame or worker the page started in a target of its own: its requests are held like the page's, then it runs. */
  private async attach(params: AttachedEvent): Promise<void> {
    const { sessionId } = params;
    if (CHILD_TYPES.has(params.targetInfo.type)) {
      this.children.add(sessionId);
      this.browser.on(sessionId, (method, event) =>
        method === 'Target.attachedToTarget'
          ? void this.attach(event as AttachedEvent)
          : this.onNetwork(method, event, sessionId),
      );
      await Promise.all([
        this.send('Network.enable', {}, sessionId),
        this.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, sessionId),
        this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId),
      ]);
    }
    await this.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
  }
}
