/**
 * The crawl store under DATA_DIR: the hand-over between the loader (any process) and the service.
 *
 *   store/<websiteId>/website.json                 the website, registered by its first crawl
 *   store/<websiteId>/.load.lock                   held by the one load running for that website (pid inside)
 *   store/<websiteId>/<crawlId>/CURRENT            the live load id, replaced atomically (write + rename)
 *   store/<websiteId>/<crawlId>/<loadId>/          one complete load: crawl.duckdb + crawl.json
 *   store/<websiteId>/<crawlId>/<loadId>.partial/  a load in progress; never read, removed by the next load
 *
 * A crawl is visible only when CURRENT names a complete load directory, so a crash at any point leaves
 * either the previous state or the new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { crawlMetaSchema, type CrawlMeta } from './crawl-meta.ts';

export const CRAWL_DB_FILE = 'crawl.duckdb';
export const CRAWL_META_FILE = 'crawl.json';
export const CURRENT_FILE = 'CURRENT';
export const WEBSITE_FILE = 'website.json';
export const LOCK_FILE = '.load.lock';
export const PARTIAL_SUFFIX = '.partial';

export const storeDir = (dataDir: string): string => path.join(dataDir, 'store');
export const websiteDir = (dataDir: string, websiteId: string): string => path.join(storeDir(dataDir), websiteId);
export const crawlDir = (dataDir: string, websiteId: string, crawlId: number): string =>
  path.join(websiteDir(dataDir, websiteId), String(crawlId));

export interface StoredWebsite {
  id: string;
  name: string;
  domain: string;
}

export interface LiveCrawl {
  websiteId: string;
  crawlId: number;
  loadId: string;
  dir: string;
  dbFile: string;
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
  const dir = crawlDir(dataDir, websiteId, crawlId);
  let loadId: string;
  try {
    loadId = fs.readFileSync(path.join(dir, CURRENT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  const loadDir = path.join(dir, loadId);
  const dbFile = path.join(loadDir, CRAWL_DB_FILE);
  if (!loadId || !fs.existsSync(dbFile) || !fs.existsSync(path.join(loadDir, CRAWL_META_FILE))) return undefined;
  return { websiteId, crawlId, loadId, dir: loadDir, dbFile };
}

export function listWebsites(dataDir: string): StoredWebsite[] {
  const root = storeDir(dataDir);
  if (!fs.existsSync(root)) return [];
  const websites: StoredWebsite[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    try {
      websites.push(JSON.parse(fs.readFileSync(path.join(root, entry.name, WEBSITE_FILE), 'utf8')) as StoredWebsite);
    } catch {
      continue;
    }
  }
  return websites.sort((a, b) => a.id.localeCompare(b.id));
}

/** Every live crawl in the store, newest first within each website. */
export function listLiveCrawls(dataDir: string): LiveCrawl[] {
  const crawls: LiveCrawl[] = [];
  for (const website of listWebsites(dataDir)) {
    for (const entry of fs.readdirSync(websiteDir(dataDir, website.id), { withFileTypes: true })) {
      if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
      const live = readCurrentLoad(dataDir, website.id, Number(entry.name));
      if (live) crawls.push(live);
    }
  }
  return crawls.sort((a, b) => a.websiteId.localeCompare(b.websiteId) || b.crawlId - a.crawlId);
}

/** The crawl.json of a load directory. */
export function readCrawlMeta(loadDir: string): CrawlMeta {
  return crawlMetaSchema.parse(JSON.parse(fs.readFileSync(path.join(loadDir, CRAWL_META_FILE), 'utf8')));
}
