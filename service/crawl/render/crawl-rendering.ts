/** The rendered crawl's browser for one crawl (`--render-mode all`), with robots.txt as the crawl reads it. */
import type { CrawlOptions } from '../crawl-options.ts';
import type { Egress } from '../egress.ts';
import type { Hosts } from '../hosts.ts';
import type { Scope } from '../scope.ts';
import { RenderPool } from './render-pool.ts';
import { defaultRenderSettings } from '../render-settings.ts';

/** The pool, closed when `signal` aborts (pages being rendered then end as failed rows); null unless mode all. */
export function renderPoolFor(
  options: CrawlOptions,
  egress: Egress,
  hosts: Hosts,
  scope: Scope,
  signal: AbortSignal,
): RenderPool | null {
  if (options.renderMode !== 'all') return null;
  const { mode: _mode, ...settings } = { ...defaultRenderSettings('all'), ...options.renderSettings };
  const pool = new RenderPool({
    ...settings,
    userAgent: options.userAgent,
    egress,
    // Only the site's own hosts have their robots.txt read (as for pages); others' resources count as allowed.
    isAllowed: async (url) => scope.place(url) !== 'internal' || (await hosts.host(url)).rules.isAllowed(url),
    blocksDisallowed: options.respectRobots,
  });
  signal.addEventListener('abort', () => void pool.close(), { once: true });
  return pool;
}
