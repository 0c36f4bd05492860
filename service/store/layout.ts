/**
 * The crawl store under DATA_DIR: the hand-over between the loader (any process) and the service.
 *
 *   store/<websiteId>/website.json                 the website, registered by its first crawl
 *   store/<websiteId>/.load.lock                   held by the one load running for that website (pid inside)
 *   store/<websiteId>/<crawlId>/CURRENT            the live load id, replaced atomically (write + rename)
 *   store/<websiteId>/<crawlId>/<loadId>/          one complete load: crawl.duckdb + crawl.json
 *   store/<websiteId>/<crawlId>/<loadId>.partial/  a load in progress; never read, removed by the next load
 *   store/<websiteId>/sources/<source>/            imported marketing data (service/source-data/source-store.ts)
 *
 * A crawl is visible only when CURRENT names a complete load directory, so a crash at any point leaves
 * either the previous state or the new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MAX_CRAWL_ID, isCrawlId, websiteIdSchema } from '../../catalog/export-contract.ts';
import { firstLine } from '../error-text.ts';
import { STORE_LAYOUT, crawlMetaSchema, type CrawlMeta } from './crawl-meta.ts';

export const CRAWL_DB_FILE = 'crawl.duckdb';
export const CRAWL_META_FILE = 'crawl.json';
export const CURRENT_FILE = 'CURRENT';

/** The id CURRENT names in `dir`, or undefined when there is none yet. */
export function readCurrent(dir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dir, CURRENT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}
export const WEBSITE_FILE = 'website.json';
export const LOCK_FILE = '.load.lock';
export const PARTIAL_SUFFIX = '.partial';
export const SOURCES_DIR = 'sources';

export const storeDir = (dataDir: string): string => path.join(dataDir, 'store');
export const websiteDir = (dataDir: string, websiteId: string): string => path.join(storeDir(dataDir), websiteId);
export const crawlDir = (dataDir: string, websiteId: string, crawlId: number): string =>
  path.join(websiteDir(dataDir, websiteId), String(crawlId));

const storedWebsiteSchema = z.object({ id: z.string(), name: z.string(), domain: z.string() });
export type StoredWebsite = z.infer<typeof storedWebsiteSchema>;

export interface LiveCrawl {
  websiteId: string;
  crawlId: number;
  loadId: string;
  dir: string;
  dbFile: string;
  meta: CrawlMeta;
}

/** Writes a file so readers see the old content or the new, never a torn one. */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

export function readCurrentLoad(dataDir: string, websiteId: string, crawlId: number): LiveCrawl | undefined {
  const found = readCrawlFolder(websiteDir(dataDir, websiteId), websiteId, String(crawlId));
  return found && 'dbFile' in found ? found : undefined;
}

/** A folder in the store this build cannot read, and why; the service and the loader skip it. */
export interface UnreadableFolder {
  dir: string;
  reason: string;
}

/**
 * crawl.json by load directory, kept between scans of one reader: a published load directory never changes, so
 * each crawl.json is read and checked once. A scan drops the loads that are gone.
 */
export type MetaCache = Map<string, CrawlMeta>;

export interface StoreScan {
  websites: StoredWebsite[];
  /** Every readable live crawl, newest first within each website. */
  crawls: LiveCrawl[];
  unreadable: UnreadableFolder[];
}

/**
 * Reads the store, skipping (and naming) every website or crawl folder this build cannot read: a bad website or
 * crawl id, an unreadable website.json or crawl.json, one that disagrees with its folder, or a newer layout.
 * A crawl folder without CURRENT is a first load in progress, not a problem; so is a website folder without
 * website.json while none of its crawls is published (its first load writes website.json just before publishing).
 */
export function scanStore(dataDir: string, metas: MetaCache = new Map()): StoreScan {
  const scan: StoreScan = { websites: [], crawls: [], unreadable: [] };
  const root = storeDir(dataDir);
  if (!fs.existsSync(root)) return scan;
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(root, entry.name);
    const website = readWebsiteFolder(dir, entry.name);
    if (website === undefined) continue;
    if ('reason' in website) {
      scan.unreadable.push(website);
      continue;
    }
    scan.websites.push(website);
    for (const crawlEntry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!crawlEntry.isDirectory() || crawlEntry.name === SOURCES_DIR) continue;
      const found = readCrawlFolder(dir, website.id, crawlEntry.name, metas);
      if (found && 'reason' in found) scan.unreadable.push(found);
      else if (found) scan.crawls.push(found);
    }
  }
  const live = new Set(scan.crawls.map((c) => c.dir));
  for (const loadDir of metas.keys()) if (!live.has(loadDir)) metas.delete(loadDir);
  scan.websites.sort((a, b) => a.id.localeCompare(b.id));
  scan.crawls.sort((a, b) => a.websiteId.localeCompare(b.websiteId) || b.crawlId - a.crawlId);
  scan.unreadable.sort((a, b) => a.dir.localeCompare(b.dir));
  return scan;
}

/** A website, an unreadable folder, or undefined for a website whose first load is still in progress. */
function readWebsiteFolder(dir: string, name: string): StoredWebsite | UnreadableFolder | undefined {
  if (!websiteIdSchema.safeParse(name).success)
    return { dir, reason: 'not a website id (lowercase letters, digits and dashes)' };
  let website: StoredWebsite;
  try {
    website = storedWebsiteSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, WEBSITE_FILE), 'utf8')));
  } catch (error) {
    if (isMissingFile(error) && !hasPublishedCrawl(dir)) return undefined;
    return { dir, reason: `${WEBSITE_FILE} is unreadable (${firstLine(error)})` };
  }
  if (website.id !== name) return { dir, reason: `${WEBSITE_FILE} names website "${website.id}"` };
  return website;
}

const isMissingFile = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';

function hasPublishedCrawl(websitePath: string): boolean {
  return fs
    .readdirSync(websitePath, { withFileTypes: true })
    .some((entry) => entry.isDirectory() && readCurrent(path.join(websitePath, entry.name)) !== undefined);
}

/** A live crawl, an unreadable folder, or undefined for a crawl folder with nothing published yet. */
function readCrawlFolder(
  websitePath: string,
  websiteId: string,
  name: string,
  metas: MetaCache = new Map(),
): LiveCrawl | UnreadableFolder | undefined {
  const dir = path.join(websitePath, name);
  const crawlId = Number(name);
  if (!/^[1-9][0-9]*$/.test(name) || !isCrawlId(crawlId))
    return { dir, reason: `not a crawl id (an integer from 1 to ${MAX_CRAWL_ID})` };
  const loadId = readCurrent(dir);
  if (loadId === undefined) return undefined;
  const loadDir = path.join(dir, loadId);
  const dbFile = path.join(loadDir, CRAWL_DB_FILE);
  if (!loadId || !fs.existsSync(dbFile)) return { dir, reason: `${CURRENT_FILE} names no complete load ("${loadId}")` };
  let meta = metas.get(loadDir);
  try {
    meta ??= readCrawlMeta(loadDir);
  } catch (error) {
    return { dir, reason: `${path.join(loadId, CRAWL_META_FILE)}: ${firstLine(error)}` };
  }
  if (meta.manifest.websiteId !== websiteId || meta.manifest.crawlId !== crawlId || meta.loadId !== loadId)
    return {
      dir,
      reason: `${path.join(loadId, CRAWL_META_FILE)} is crawl ${meta.manifest.crawlId} of "${meta.manifest.websiteId}", load ${meta.loadId}`,
    };
  metas.set(loadDir, meta);
  return { websiteId, crawlId, loadId, dir: loadDir, dbFile, meta };
}

export function listWebsites(dataDir: string): StoredWebsite[] {
  return scanStore(dataDir).websites;
}

/** Every readable live crawl in the store, newest first within each website. */
export function listLiveCrawls(dataDir: string): LiveCrawl[] {
  return scanStore(dataDir).crawls;
}

/** The crawl.json of a load directory; refuses a layout newer than this build reads. */
export function readCrawlMeta(loadDir: string): CrawlMeta {
  const json: unknown = JSON.parse(fs.readFileSync(path.join(loadDir, CRAWL_META_FILE), 'utf8'));
  const layout = layoutOf(json);
  if (layout > STORE_LAYOUT)
    throw new Error(`written by a newer build (layout ${layout}; this build reads layout ${STORE_LAYOUT})`);
  const parsed = crawlMetaSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`field "${issue?.path.map(String).join('.') ?? ''}": ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

const layoutOf = (json: unknown): number => {
  const layout = typeof json === 'object' && json !== null && 'layout' in json ? json.layout : undefined;
  return typeof layout === 'number' ? layout : 1;
};
