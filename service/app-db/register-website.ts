/**
 * The loader registers the website of the crawl it published in the app database, so that `admin website list` and
 * `admin user add … --website ID` know it before the service has ever started. A PostgreSQL server (DATABASE_URL)
 * takes the write at any time. The embedded database is held by a running service, which registers new websites
 * itself when it sees the crawl, within seconds: the loader then leaves the work to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN_FILE, AppDb, appDbLocation, isLockedError, isServerLocation } from './db.ts';
import { ensureWebsite, type WebsiteIdentity } from './websites.ts';

/** `registered`: new in the app database; `known`: it was there; `left to the service`: the service holds it. */
export type WebsiteRegistration = 'registered' | 'known' | 'left to the service';

export async function registerWebsite(
  dataDir: string,
  website: WebsiteIdentity,
  databaseUrl?: string,
  now: Date = new Date(),
): Promise<WebsiteRegistration> {
  const location = databaseUrl ?? appDbLocation(dataDir);
  if (
    !isServerLocation(location) &&
    (fs.existsSync(path.join(dataDir, ADMIN_TOKEN_FILE)) || AppDb.isOpenHere(location))
  )
    return 'left to the service';
  let appDb: AppDb;
  try {
    appDb = await AppDb.openWaiting(location, () => now);
  } catch (error) {
    // Held for longer than an admin command takes: by a service still starting, which registers it itself.
    if (isLockedError(error)) return 'left to the service';
    throw error;
  }
  try {
    return (await appDb.transaction((tx) => ensureWebsite(tx, website, now))) ? 'registered' : 'known';
  } finally {
    await appDb.close();
  }
}
