/**
 * The rendered crawl's command-line options (`--render-mode`, `--render-assets`, `--render-quiet`, `--render-cap`,
 * `--render-tabs`).
 */
import { maxRenderQuietMs } from '../../../catalog/crawl-runs.ts';
import type { CrawlOptions } from '../crawl-options.ts';
import {
  isRenderMode,
  QUIET_MS,
  RENDER_CAP_MS,
  RENDER_MODES,
  RENDER_TABS,
  RENDER_TABS_MAX,
} from '../render-settings.ts';

export const RENDER_USAGE =
  '[--render-mode none|sample|all] [--render-assets] [--render-quiet MS] [--render-cap MS] [--render-tabs N]';

export const RENDER_HELP = `Rendering:
  --render N            render the first N indexable pages in Chromium to time them (performance columns)
  --render-mode MODE    none, sample (the --render N timing sample) or all: every in-scope HTML page is rendered
                        and its rendered DOM is what the crawl reads (links found only then are followed), the
                        raw HTML's values kept beside it; a page whose raw HTML says noindex is not rendered
  --render-assets       let rendered pages download images, media and fonts (blocked by default)
  --render-quiet MS     a page is rendered once loaded with no request in flight for MS and its main thread then
                        idle (default ${QUIET_MS}; below half the cap)
  --render-cap MS       ... or at the latest MS after navigation start, recorded as a timeout (default ${RENDER_CAP_MS})
  --render-tabs N       pages rendered at once, each in a tab of its own (default ${RENDER_TABS}, at most ${RENDER_TABS_MAX})`;

export const RENDER_ARGS = {
  'render-mode': { type: 'string' },
  'render-assets': { type: 'boolean' },
  'render-quiet': { type: 'string' },
  'render-cap': { type: 'string' },
  'render-tabs': { type: 'string' },
} as const;

export interface RenderArgs {
  'render-mode'?: string | undefined;
  'render-assets'?: boolean | undefined;
  'render-quiet'?: string | undefined;
  'render-cap'?: string | undefined;
  'render-tabs'?: string | undefined;
}

const MAX_CAP_MS = 60_000;

/** The options the arguments ask for; `fail` throws the usage error naming the problem. */
export function renderOptionsOf(
  args: RenderArgs,
  render: number,
  fail: (problem: string) => never,
): Pick<CrawlOptions, 'renderMode' | 'renderSettings'> {
  const mode = args['render-mode'] ?? (render > 0 ? 'sample' : 'none');
  if (!isRenderMode(mode)) fail(`--render-mode must be one of ${RENDER_MODES.join(', ')}, not "${mode}"`);
  if (mode === 'sample' && render === 0) fail('--render-mode sample needs --render N (pages to time)');
  if (mode === 'none' && render > 0) fail('--render N renders pages: it cannot go with --render-mode none');
  const ms = (name: 'render-quiet' | 'render-cap', min: number): number | undefined => {
    const text = args[name];
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > MAX_CAP_MS) {
      fail(`--${name} must be a whole number of milliseconds from ${min} to ${MAX_CAP_MS}, not "${text}"`);
    }
    return value;
  };
  const quietMs = ms('render-quiet', 0);
  const capMs = ms('render-cap', 100);
  const quiet = quietMs ?? QUIET_MS;
  const cap = capMs ?? RENDER_CAP_MS;
  if ((quietMs !== undefined || capMs !== undefined) && quiet > maxRenderQuietMs(cap)) {
    const of = (name: string, value: number, given: number | undefined): string =>
      `--${name} ${value}${given === undefined ? ' (the default)' : ''}`;
    fail(
      `${of('render-quiet', quiet, quietMs)} must be below half of ${of('render-cap', cap, capMs)}: ` +
        `at most ${maxRenderQuietMs(cap)} ms`,
    );
  }
  const tabsText = args['render-tabs'];
  const tabs = tabsText === undefined ? undefined : Number(tabsText);
  if (tabsText !== undefined && (!/^\d+$/.test(tabsText) || tabs! < 1 || tabs! > RENDER_TABS_MAX)) {
    fail(`--render-tabs must be a whole number from 1 to ${RENDER_TABS_MAX}, not "${tabsText}"`);
  }
  return {
    renderMode: mode,
    renderSettings: {
      ...(args['render-assets'] === true && { loadAssets: true }),
      ...(quietMs !== undefined && { quietMs }),
      ...(capMs !== undefined && { capMs }),
      ...(tabs !== undefined && { tabs }),
    },
  };
}
