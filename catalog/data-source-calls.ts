/**
 * The Data sources page's calls, as both sides see them. Internal users only (ADMIN, and STAFF bound to the
 * website); anyone else gets the 404 of a website they may not see.
 *
 * POST /api/data-sources/list          {websiteId}                        → DataSourcesAnswer
 * POST /api/data-sources/upload?websiteId=ID&source=SOURCE[&start=YYYY-MM-DD&end=YYYY-MM-DD][&replace=true]
 *                                      multipart/form-data, one part per file → 202 {job: ImportJob}
 *                                      (400 bad input naming file, line and column; 409 another import running or
 *                                      rows that differ; 413 a file over MAX_UPLOAD_BYTES; nothing imported)
 * POST /api/data-sources/remove-import {websiteId, source, importId}      → 202 {job: ImportJob}
 *
 * An upload answers once its files are read, checked and the new version is written, so bad input is refused by
 * the call itself; refreshing the crawls it touches goes on in the background, and the page polls `list` for it.
 */
import type { DataSourceId } from './data-sources.ts';

/** One file of an upload at most this large. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Files in one upload at most. */
export const MAX_UPLOAD_FILES = 20;

/** What an import (or a removal) is doing: reading and checking files, writing the version, refreshing crawls. */
export type ImportStep =
  { phase: 'reading' | 'writing' } | { phase: 'refreshing'; crawlId: number; done: number; total: number };

export type ImportJobStatus = 'running' | 'done' | 'failed';

export interface ImportJob {
  id: string;
  websiteId: string;
  source: DataSourceId;
  kind: 'import' | 'remove';
  status: ImportJobStatus;
  step: ImportStep | null;
  /** The uploaded files' names (an import) or the removed import's files (a removal). */
  files: string[];
  by: string;
  /** ISO date-times. */
  startedAt: string;
  endedAt: string | null;
  /** One line: what was imported (status done) or why not (failed). */
  summary: string | null;
}

export interface SourceImport {
  /** Null for an import made before imports had ids: it cannot be removed on its own. */
  id: string | null;
  at: string;
  /** A user's email, "cli", or null when not recorded. */
  by: string | null;
  files: string[];
  format: string;
  rows: number;
  coverage: { start: string; end: string; granularity: 'day' | 'week' | 'month' | 'period' };
  isReplace: boolean;
}

/** How the source's URLs meet the newest crawl's crawled pages. */
export interface SourceMatch {
  crawlId: number;
  crawledPages: number;
  /** Crawled pages the source has rows for. */
  matchedPages: number;
  sourceUrls: number;
  /** The source's URLs no crawled page has, with a few examples. */
  unmatchedUrls: number;
  unmatchedExamples: string[];
}

export interface DataSourceStatus {
  id: DataSourceId;
  title: string;
  isConnected: boolean;
  /** Not imported, but the newest crawl's own export brought the source's tables (an import takes their place). */
  isInExport: boolean;
  /** Rows over all of the source's tables. */
  rows: number;
  tables: Record<string, number>;
  /** Rows per day of the imports with daily rows (the source's first table and its ownRowsTables), oldest first. */
  days: { date: string; rows: number }[];
  /** Imports of one total over a period: shown as the period, never as days. */
  periods: { start: string; end: string; rows: number }[];
  /** Newest first. */
  imports: SourceImport[];
  /** Null for a source without URLs (keyword planner, trends) or not connected. */
  match: SourceMatch | null;
}

export interface DataSourcesAnswer {
  websiteId: string;
  /** Days before its crawl date a crawl made by the product's crawler joins (crawl settings). */
  dataWindowDays: number;
  sources: DataSourceStatus[];
  /** The website's latest jobs, newest first. */
  jobs: ImportJob[];
}
