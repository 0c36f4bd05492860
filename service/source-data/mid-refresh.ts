/**
 * A website whose crawls are part way through the refresh that follows an import (issue 26 §1): some of its live
 * loads joined a source's live version and others not yet. Serving those loads together would answer from a mix of
 * the old state and the new (Added/Removed diffing a refreshed crawl against one not yet refreshed), so the registry
 * keeps serving the loads it served before until every crawl of the website has caught up, while the refresh runs.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { dataSourceIds, type DataSourceId } from '../../catalog/data-sources.ts';
import { FROM_EXPORT } from './join-sources.ts';
import { isConnectedVersion, readSourceVersion, sourcesDir, type SourceVersion } from './source-store.ts';
import type { LiveCrawl } from '../store/layout.ts';
import { CrawlRegistry, type RegistryOptions } from '../store/registry.ts';

/** How fresh a refresh's marker must be to count as a refresh still running (it is touched every REFRESH_BEAT_MS). */
const REFRESH_BEAT_MS = 10_000;
const REFRESH_STALE_MS = 6 * REFRESH_BEAT_MS;
/** A killed refresh's marker no longer holds anything after REFRESH_STALE_MS; it is removed once this old. */
const MARKER_LEFTOVER_MS = 3_600_000;
const MARKER_PREFIX = '.refreshing-';

/** Each refresh's own marker file in the website's sources folder, with how long ago each was touched. */
function markerAges(dataDir: string, websiteId: string, now: number): { file: string; ageMs: number }[] {
  const dir = sourcesDir(dataDir, websiteId);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.startsWith(MARKER_PREFIX));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    try {
      return [{ file, ageMs: now - fs.statSync(file).mtimeMs }];
    } catch {
      return []; // its refresh ended while the folder was read
    }
  });
}

/**
 * Marks the website's crawls as being refreshed until `stop`, touching the marker so that a refresh killed part way
 * stops holding the website within a minute (on any host that shares the store), rather than for ever. Each refresh
 * has a marker of its own: one that ends (or fails at once on another's load lock) never ends another's hold.
 */
export function markRefreshing(dataDir: string, websiteId: string): { stop: () => void } {
  const dir = sourcesDir(dataDir, websiteId);
  fs.mkdirSync(dir, { recursive: true });
  for (const { file, ageMs } of markerAges(dataDir, websiteId, Date.now()))
    if (ageMs > MARKER_LEFTOVER_MS) fs.rmSync(file, { force: true });
  const marker = path.join(dir, `${MARKER_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const touch = (): void => fs.writeFileSync(marker, `${process.pid}\n`);
  touch();
  const beat = setInterval(() => {
    try {
      touch();
    } catch {
      // The website was removed under the refresh: nothing is left to hold.
    }
  }, REFRESH_BEAT_MS);
  beat.unref();
  return {
    stop: () => {
      clearInterval(beat);
      fs.rmSync(marker, { force: true });
    },
  };
}

const isRefreshing = (dataDir: string, websiteId: string, now = Date.now()): boolean =>
  markerAges(dataDir, websiteId, now).some(({ ageMs }) => ageMs < REFRESH_STALE_MS);

/**
 * Whether a crawl that joined `joined` has yet to join the source's version: it joined another, or none while the
 * version is connected. A source whose imports were all removed is news only to a crawl that had joined it from the
 * store (not from its own export).
 */
export function hasNewsFor(
  joined: Readonly<Record<string, string>>,
  id: DataSourceId,
  version: SourceVersion,
): boolean {
  if (joined[id] === version.meta.versionId) return false;
  return isConnectedVersion(version) || (id in joined && joined[id] !== FROM_EXPORT);
}

/**
 * True while a refresh of the website runs and its crawls stand at different points of it for some source: one
 * joined the live version and another has yet to, or two joined different older versions (an import published
 * again while the refresh of the one before was part way). Crawls at different points with no refresh running are
 * a refresh that failed: they are served as they are, and `load-crawl -- --refresh` finishes it.
 */
export function isMidRefresh(dataDir: string, websiteId: string, crawls: readonly LiveCrawl[]): boolean {
  if (crawls.length < 2 || !isRefreshing(dataDir, websiteId)) return false;
  return dataSourceIds.some((id) => {
    const version = readSourceVersion(dataDir, websiteId, id);
    if (!version) return false;
    const pointOf = (crawl: LiveCrawl): string =>
      hasNewsFor(crawl.meta.sources ?? {}, id, version) ? `joined ${crawl.meta.sources?.[id] ?? 'nothing'}` : 'live';
    return new Set(crawls.map(pointOf)).size > 1;
  });
}

/** The crawl store as the service serves it: a website part way through a refresh is held at its loads before it. */
export const openCrawlRegistry = (
  dataDir: string,
  db: DuckDBInstance,
  options: Omit<RegistryOptions, 'isMidRefresh'> = {},
): Promise<CrawlRegistry> => CrawlRegistry.open(dataDir, db, { ...options, isMidRefresh });
