/**
 * The loader registers the website of the crawl it published in the app database, so that `admin website list` and
 * `admin user add … --website ID` know it before the service has ever started. A running service holds app.duckdb
 * (DuckDB allows one writing process) and registers new websites itself when it sees the crawl, within seconds:
 * the loader then leaves the work to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeAppDbPrivate } from '../data-dir.ts';
import { ADMIN_TOKEN_FILE, AppDb, appDbFile, isLockedError } from './db.ts';
import { ensureWebsite, type WebsiteIdentity } from './websites.ts';

/** `registered`: new in the app database; `known`: it was there; `left to the service`: the service holds the file. */
export type WebsiteRegistration = 'registered' | 'known' | 'left to the service';

export async function registerWebsite(
  dataDir: string,
  website: WebsiteIdentity,
  now: Date = new Date(),
): Promise<WebsiteRegistration> {
  if (fs.existsSync(path.join(dataDir, ADMIN_TOKEN_FILE)) || AppDb.isOpenHere(appDbFile(dataDir)))
    return 'left to the service';
  let appDb: AppDb;
  try {
    appDb = await AppDb.openWaiting(appDbFile(dataDir), () => now);
  } catch (error) {
    // Held for longer than an admin command takes: by a service still starting, which registers it itself.
    if (isLockedError(error)) return 'left to the service';
    throw error;
  }
  try {
    return (await appDb.transaction((tx) => ensureWebsite(tx, website, now))) ? 'registered' : 'known';
  } finally {
    appDb.close();
    makeAppDbPrivate(dataDir);
  }
}
