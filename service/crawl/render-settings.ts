/**
 * The rendered crawl's settings: which pages Chromium loads (`none`; `sample`, the `--render N` timing sample; `all`,
 * every in-scope HTML page, whose rendered DOM is then what the crawl reads) and when a page counts as rendered.
 */
import { CRAWL_LIMITS, DEFAULT_RENDER_QUIET_MS, DEFAULT_RENDER_TABS, RENDER_CAP_MS } from '../../catalog/crawl-runs.ts';
import { RENDER_MODES, type RenderMode } from '../../catalog/render-contract.ts';

export { RENDER_MODES, type RenderMode };

export const isRenderMode = (value: string): value is RenderMode => (RENDER_MODES as readonly string[]).includes(value);

/**
 * A page counts as rendered once its load event has fired, no request has been in flight for QUIET_MS (the
 * "network idle" of Puppeteer and Lighthouse), and then its main thread has had an idle period
 * (`requestIdleCallback`) with no request started meanwhile and none in the IDLE_SETTLE_MS after it (a framework's
 * delayed effects have run); the DOM is taken at that idle period. A page that gets there within RENDER_CAP_MS of
 * navigation start is `rendered`, one that does not is snapshot at the cap as `timeout`. Requests are counted from
 * the browser's own network events (every request of the page's frames, subresources refused by the tab included).
 */
export const QUIET_MS = DEFAULT_RENDER_QUIET_MS;
export { RENDER_CAP_MS };
/**
 * How long the wait for the idle period lasts; then the DOM is taken all the same. A page's main thread in a tab whose
 * renderer had just been started (a new tab's first page, or a page after about:blank) at times had no idle period
 * for seconds, though idle: the JS shop's / on a new tab hit its 8 s cap with 0 requests in flight (1 run in 4).
 */
export const IDLE_WAIT_MS = 2000;
/** After the page's idle period, how long a request it started has to be reported. */
export const IDLE_SETTLE_MS = 50;
/**
 * Pages rendered at once: tabs of the one browser. A page spends most of its render waiting (the quiet window), so
 * tabs overlap that; past the CPU's capacity more tabs only queue in Chromium.
 */
export const RENDER_TABS = DEFAULT_RENDER_TABS;
export const RENDER_TABS_MAX = CRAWL_LIMITS.renderTabs.max;
/**
 * Pages in a row that navigate themselves while rendering (`location.href`, a refresh set by script), each target
 * followed as a JavaScript redirect: past this many, the next target is not followed, so a page that reloads itself
 * under a new URL each time is a short chain with its reason rather than a crawl of its own.
 */
export const RENDER_NAVIGATIONS_MAX = 5;
/** Hash routes (`#/…`) a page's rendering visits to find further hash routes. */
export const HASH_ROUTES_MAX = 50;

export interface RenderSettings {
  mode: RenderMode;
  quietMs: number;
  capMs: number;
  tabs: number;
  /** Download images, media and fonts (blocked by default: the DOM does not need them and they cost the most). */
  loadAssets: boolean;
}

export const defaultRenderSettings = (mode: RenderMode): RenderSettings => ({
  mode,
  quietMs: QUIET_MS,
  capMs: RENDER_CAP_MS,
  tabs: RENDER_TABS,
  loadAssets: false,
});
