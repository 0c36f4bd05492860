import type { WebsiteRegistration } from '../app-db/register-website.ts';
import type { LoadProgress } from './load-progress.ts';

export interface LoadOptions {
  dataDir: string;
  exportDir: string;
  /** Replace the crawl's live load instead of refusing when the crawl is already loaded. */
  replace?: boolean;
  onProgress?: (progress: LoadProgress) => void;
  /** Aborting interrupts the running query, removes the partial load and rejects with a LoadError. */
  signal?: AbortSignal;
  /** DuckDB memory_limit while validating and loading. */
  memoryLimit?: string;
  /** The app database's PostgreSQL server, whose advisory lock keeps loads on other hosts out (DATABASE_URL). */
  databaseUrl?: string;
}

export interface RefreshOptions extends Omit<LoadOptions, 'exportDir' | 'replace'> {
  websiteId: string;
  crawlId: number;
}

export interface LoadResult {
  websiteId: string;
  crawlId: number;
  loadId: string;
  /** The live load directory. */
  dir: string;
  dbFile: string;
  /** Row count per table, as in crawl.json. */
  tables: Record<string, number>;
  /** URLs added to `urls` because only search console or analytics knew them. */
  addedUrls: number;
  previousCrawlId: number | null;
  /** The load that --replace superseded (its directory is gone). */
  replacedLoadId: string | null;
  /** The next newer crawl, precomputed again because its previous crawl is now this one. */
  refreshedCrawlId: number | null;
  /** What became of the website in the app database (absent for a refresh, which adds no website). */
  websiteRegistration?: WebsiteRegistration;
  seconds: number;
}
