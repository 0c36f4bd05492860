/** What one page's render gives the crawl, and the limits a tab renders it under (render-tab.ts, render-watch.ts). */
import type { RenderSettings } from '../render-settings.ts';

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
