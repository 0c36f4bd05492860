/** File-level helpers for writing the crawl store (service/store/layout.ts) safely. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  CURRENT_FILE,
  PARTIAL_SUFFIX,
  readCurrent,
  readCurrentLoad,
  type LiveCrawl,
  type StoredWebsite,
} from '../store/layout.ts';

const LOAD_ID_PATTERN = /^[a-z0-9-]+$/;

/** Time-sortable and unique across processes: base36 milliseconds, base36 pid, random hex. */
export function newLoadId(now = Date.now()): string {
  return `${now.toString(36).padStart(9, '0')}-${process.pid.toString(36)}-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Removes what interrupted loads left behind in every crawl directory of a website: `*.partial` directories,
 * load directories CURRENT does not name, temporary files of atomic writes, and crawl directories left empty.
 * `keep` names load directories to leave (a replaced load a failing load may still bring back). Only call it
 * while holding the website's load lock.
 */
export function cleanupLeftovers(websiteDirPath: string, keep: readonly string[] = []): string[] {
  const removed: string[] = [];
  const remove = (target: string): void => {
    if (keep.includes(target)) return;
    fs.rmSync(target, { recursive: true, force: true });
    removed.push(target);
  };
  if (!fs.existsSync(websiteDirPath)) return removed;
  for (const entry of fs.readdirSync(websiteDirPath, { withFileTypes: true })) {
    const entryPath = path.join(websiteDirPath, entry.name);
    if (entry.isFile() && entry.name.endsWith('.tmp')) remove(entryPath);
    if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
    const current = readCurrent(entryPath);
    for (const child of fs.readdirSync(entryPath, { withFileTypes: true })) {
      const childPath = path.join(entryPath, child.name);
      if (child.isDirectory() && child.name.endsWith(PARTIAL_SUFFIX)) remove(childPath);
      else if (child.isDirectory() && LOAD_ID_PATTERN.test(child.name) && child.name !== current) remove(childPath);
      else if (child.isFile() && child.name.startsWith(`${CURRENT_FILE}.`) && child.name.endsWith('.tmp'))
        remove(childPath);
    }
    if (fs.readdirSync(entryPath).length === 0) {
      fs.rmdirSync(entryPath);
      removed.push(entryPath);
    }
  }
  return removed;
}

/** The next older live crawl of the website: the highest crawl id below `crawlId` whose CURRENT is complete. */
export function findPreviousCrawl(
  dataDir: string,
  websiteDirPath: string,
  websiteId: string,
  crawlId: number,
): LiveCrawl | undefined {
  let previous: LiveCrawl | undefined;
  if (!fs.existsSync(websiteDirPath)) return previous;
  for (const entry of fs.readdirSync(websiteDirPath, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
    const id = Number(entry.name);
    if (id >= crawlId || (previous && id <= previous.crawlId)) continue;
    previous = readCurrentLoad(dataDir, websiteId, id) ?? previous;
  }
  return previous;
}

/**
 * website.json for a website first seen in this export: named after its domain (the start URL's host without www.),
 * or the whole address for an IP address, whose first part ("127") names nothing.
 */
export function websiteFromStartUrl(websiteId: string, startUrl: string): StoredWebsite {
  const domain = new URL(startUrl).hostname.replace(/^www\./, '');
  if (/^[\d.]+$|^\[/.test(domain)) return { id: websiteId, name: domain, domain };
  const label = domain.split('.')[0] ?? domain;
  const name = label
    .split('-')
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  return { id: websiteId, name: name || domain, domain };
}

export function removeIfEmpty(dir: string): void {
  try {
    if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  } catch {
    /* gone or in use: the next load tidies up */
  }
}
