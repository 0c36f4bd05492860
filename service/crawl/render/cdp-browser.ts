/**
 * Chromium driven over its DevTools pipe (`--remote-debugging-pipe`: commands in on fd 3, answers and events out on
 * fd 4, each message ended by a NUL), with CDP's flat sessions. The rendered crawl used Playwright's client and
 * server for this, and their layers cost most of the crawler's CPU per page; a page here costs a JSON.parse per event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** An event's parameters: each reader says which fields it reads (render-watch.ts). */
export type CdpHandler = (method: string, params: unknown) => void;

interface Message {
  id?: number;
  method: string;
  params: unknown;
  sessionId?: string;
  result: unknown;
  error?: { message: string };
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  method: string;
}

/** Features Playwright turns off for automation: among them, requests to Google's services at start-up. */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

/** The switches Playwright starts Chromium with (chromiumSwitches.ts), less those for other platforms. */
const AUTOMATION_SWITCHES = [
  '--disable-field-trial-config',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-component-extensions-with-background-pages',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--disable-extensions',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--allow-pre-commit-input',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-service-autorun',
  '--disable-search-engine-choice-screen',
  '--hide-scrollbars',
  '--mute-audio',
  '--no-startup-window',
];

/** What a caller sees when the browser is gone: the words render-tab.ts knows a dead browser by. */
const GONE = 'the browser has disconnected';

export class CdpBrowser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly sessions = new Map<string, CdpHandler>();
  private readonly exitHandlers: (() => void)[] = [];
  private stderrTail = '';
  isConnected = true;

  private constructor(
    private readonly child: ChildProcess,
    private readonly userDataDir: string,
  ) {}

  /** Starts `executable` with `args` and waits for its first answer (within `ms`). */
  static async launch(executable: string, args: string[], ms: number): Promise<CdpBrowser> {
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-chromium-'));
    const child = spawn(
      executable,
      [...AUTOMATION_SWITCHES, ...args, `--user-data-dir=${userDataDir}`, '--remote-debugging-pipe'],
      // Its own process group, so that killing it takes its renderers with it.
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
    );
    const browser = new CdpBrowser(child, userDataDir);
    browser.listen();
    let timer: NodeJS.Timeout | undefined;
    const started = await Promise.race([
      browser.send('Browser.getVersion').then(() => null),
      new Promise<Error>((resolve) =>
        browser.onExit(() => resolve(new Error(`Chromium exited at start ${browser.stderrTail}`))),
      ),
      new Promise<Error>((resolve) => {
        timer = setTimeout(() => resolve(new Error(`Chromium did not answer in ${ms} ms`)), ms);
      }),
    ]);
    // Left running, it would keep a finished crawl's process alive for the rest of `ms`.
    clearTimeout(timer);
    if (started !== null) {
      browser.kill();
      throw started;
    }
    return browser;
  }

  private listen(): void {
    const { child } = this;
    let buffered = '';
    (child.stdio[4] as Readable).setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (buffered + chunk).split('\0');
      buffered = parts.pop() as string;
      for (const part of parts) this.dispatch(JSON.parse(part) as Message);
    });
    (child.stdio[2] as Readable).setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-500);
    });
    (child.stdio[3] as Writable).on('error', () => undefined);
    child.on('error', () => this.exited());
    child.on('exit', () => this.exited());
  }

  private dispatch(message: Message): void {
    if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!pending) return;
      if (message.error) pending.reject(new Error(`${pending.method}: ${message.error.message}`));
      else pending.resolve(message.result);
      return;
    }
    this.sessions.get(message.sessionId ?? '')?.(message.method, message.params);
  }

  private exited(): void {
    if (!this.isConnected) return;
    this.isConnected = false;
    for (const pending of this.pending.values()) pending.reject(new Error(`${pending.method}: ${GONE}`));
    this.pending.clear();
    // What the browser started (its zygote, renderers) goes with it.
    this.kill();
    for (const handler of this.exitHandlers) handler();
    // At once: a crawl that ends just after closing its browser would leave the profile behind.
    fs.rmSync(this.userDataDir, { recursive: true, force: true, maxRetries: 2 });
  }

  /** Sends a command to the browser, or to the target of `sessionId`. */
  send<T = unknown>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (!this.isConnected) return Promise.reject(new Error(`${method}: ${GONE}`));
    const id = this.nextId++;
    const message = JSON.stringify(
      sessionId === undefined ? { id, method, params } : { id, method, params, sessionId },
    );
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
      (this.child.stdio[3] as Writable).write(`${message}\0`);
    });
  }

  /** Events of a session go to `handler` (null stops them); '' is the browser's own. */
  on(sessionId: string, handler: CdpHandler | null): void {
    if (handler) this.sessions.set(sessionId, handler);
    else this.sessions.delete(sessionId);
  }

  onExit(handler: () => void): void {
    this.exitHandlers.push(handler);
  }

  /** Kills the browser's process group at once. */
  kill(): void {
    try {
      process.kill(-(this.child.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Asks the browser to close, and kills it after `ms`. */
  async close(ms: number): Promise<void> {
    if (!this.isConnected) return;
    const gone = new Promise<void>((resolve) => this.onExit(resolve));
    void this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.kill(), ms);
    await gone;
    clearTimeout(timer);
  }
}
