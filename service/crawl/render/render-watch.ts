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
/** Origins whose storage a kept tab clears: a tab whose pages had this many is closed instead (render-tab.ts). */
export const MAX_ORIGINS = 50;
/**
 * A kept tab's gate (render-tab.ts): every new document of the tab's frames first asks for this path of its own origin,
 * synchronously, before any script of the page runs; the watch answers it (it is never sent), for the page's main
 * document only once the last page's cookies and storage are cleared (its document is gone by then), and tells each
 * origin's first document in a page to empty its session storage and local storage (Chromium's renderer keeps its own
 * copy of them, which the last document may have written to as it went).
 */
export const GATE_PATH = '/.thc-gate';
export const GATE_SCRIPT =
  "if (location.protocol.startsWith('http')) { try { const gate = new XMLHttpRequest(); gate.open('GET', " +
  `location.origin + '${GATE_PATH}', false); gate.send(); ` +
  "if (gate.responseText === 'clear') { sessionStorage.clear(); localStorage.clear(); } } catch {} }";
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
   * Origins of the documents the tab loaded (its frames' too) since it opened: each may have written storage the next
   * page of that origin would see, and all are cleared before each page (a tab with MAX_ORIGINS is closed instead).
   */
  readonly origins = new Set<string>();
  /**
   * Clears the cookies and storage of the origins given (the last page's), set by the tab between two pages: the next
   * page's main document calls it at its gate, and it is then null again.
   */
  clearLast: ((origins: string[]) => Promise<void>) | null = null;
  /** Whether the last clearing failed: the tab is not to be kept. */
  clearFailed = false;
  private clearing: Promise<void> | null = null;
  /** Origins whose documents passed the gate in this page: their storage is the page's own from then on. */
  private readonly gated = new Set<string>();
  /** The request of the page's own document, the one request of the last page's time that is the page's. */
  private documentRequest = '';
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
    });
    this.isFirstNavigation = true;
    this.result = Watch.lists();
    this.urls.clear();
    this.gated.clear();
  }

  /**
   * A document's answer at its gate: the page's main document (the last page's is gone by then) first clears the last
   * page's state, and drops what the last document logged and requested meanwhile; a frame the last document starts
   * while it goes clears nothing (its origin is cleared with the next page's).
   */
  private async passGate(origin: string, isMain: boolean): Promise<'clear' | 'keep'> {
    const clearLast = this.clearLast;
    if (clearLast !== null && !isMain) return 'keep';
    if (clearLast !== null) {
      this.clearLast = null;
      this.result = Watch.lists();
      for (const id of this.urls.keys()) if (id !== this.documentRequest) this.urls.delete(id);
      this.inFlight = this.urls.size;
      // Every origin the tab's documents had stays in the set, cleared again before each page: a document left for
      // another site's page runs its unload handlers in its own process, after that page's clearing at times.
      this.origins.add(origin);
      this.clearing = clearLast([...this.origins]).catch(() => {
        this.clearFailed = true;
      });
    }
    await this.clearing;
    if (this.gated.has(origin)) return 'keep';
    this.gated.add(origin);
    return 'clear';
  }

  /** Listens to the page's session, and enables what is listened to. */
  async start(): Promise<void> {
    const { browser, sessionId } = this;
    browser.on(sessionId, (method, params) => this.onPage(method, params));
    const send = (method: string, params: object = {}): Promise<unknown> => browser.send(method, params, sessionId);
    await Promise.all([
      send('Page.enable'),
      send('Page.addScriptToEvaluateOnNewDocument', { source: GATE_SCRIPT }),
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
        if (params.request.url.endsWith(GATE_PATH)) return;
        if (params.type === 'Document' && params.frameId === this.mainFrame && sessionId === this.sessionId) {
          this.documentRequest = params.requestId;
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
    if (url.startsWith('http') && new URL(url).pathname === GATE_PATH) {
      const isMain = frameId === this.mainFrame && sessionId === this.sessionId;
      const body = Buffer.from(await this.passGate(new URL(url).origin, isMain)).toString('base64');
      const headers = [{ name: 'content-type', value: 'text/plain' }];
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
        params.targetInfo.type === 'iframe'
          ? this.send('Page.addScriptToEvaluateOnNewDocument', { source: GATE_SCRIPT, runImmediately: true }, sessionId)
          : null,
        this.send('Network.enable', {}, sessionId),
        this.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, sessionId),
        this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId),
      ]);
    }
    await this.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
  }
}
