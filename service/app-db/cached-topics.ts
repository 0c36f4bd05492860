/**
 * What the app database keeps in memory, named by meaning. A read names its topic (`Sql.cached`); code that writes
 * what a topic's reads answer says so (`Sql.changed`), which drops that topic's answers here at once (in a
 * transaction, at its commit) and, over a PostgreSQL server, on every other replica through a notification. The
 * tables listed per topic are what its reads depend on: `cached-topics.test.ts` fails when a file writes one of them
 * without naming the topic as changed.
 */
export const CACHED_TOPICS = {
  /** findSession by token hash: the session, its user's role, disabled state and websites, archived websites. */
  sessions: ['sessions', 'users', 'user_websites', 'websites'],
  /** websiteExists and getSegment, by website and segment id. */
  websites: ['websites', 'website_segments'],
  /** The keys checked on a report at a crawl. */
  checklist: ['checklist_items'],
  /** The crawl runner's polls: queued, scheduled and active runs, and the saved schedules. */
  'crawl-runs': ['crawl_runs', 'crawl_settings'],
  /** Not cached: each replica's module states (app-state.ts) reload when another replica changes them. */
  'crawl-registry': ['crawl_registry'],
} as const satisfies Record<string, readonly string[]>;

export type CachedTopic = keyof typeof CACHED_TOPICS;

export const ALL_TOPICS = Object.keys(CACHED_TOPICS) as CachedTopic[];

export const isCachedTopic = (name: string): name is CachedTopic => Object.hasOwn(CACHED_TOPICS, name);
