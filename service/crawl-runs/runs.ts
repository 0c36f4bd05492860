/**
 * Crawl runs and crawl settings in the app database: what the routes, the runner and the schedule read and write.
 * A website has at most one run queued, running or loading (the partial unique index crawl_runs_one_active), and a
 * scheduled time at most one run (crawl_runs_scheduled): both hold across replicas, whoever inserts first.
 */
import {
  DEFAULT_TIME_LIMIT_HOURS,
  defaultCrawlSettings,
  type CrawlRun,
  type CrawlRunPhase,
  type CrawlRunProgress,
  type CrawlRunStatus,
  type CrawlRunTrigger,
  type CrawlSettings,
} from '../../catalog/crawl-runs.ts';
import type { Sql } from '../app-db/sql.ts';
import { queueRunNotices } from '../notifications/run-notices.ts';
import { DATA_WINDOW_DAYS } from '../../catalog/data-sources.ts';

/** The history a list answers, newest first. */
export const RUN_HISTORY_LIMIT = 200;
export const ALREADY_ACTIVE = 'A crawl of this website is already queued or running';
export const ALREADY_DROPPING = 'The crawl run is already being cancelled without keeping what was crawled';
export const ALREADY_KEEPING =
  'The crawl run is already stopping and keeping what was crawled; cancel without keeping to drop it';

export interface StoredSettings {
  settings: CrawlSettings;
  isDefault: boolean;
  /** When the current schedule was set; null for defaults, whose schedule waits until they are saved. */
  scheduleFrom: Date | null;
}

interface SettingsRow {
  website_id: string;
  settings: string;
  schedule_from: Date;
}

export interface RunRow {
  id: number;
  website_id: string;
  trigger: CrawlRunTrigger;
  started_by: string | null;
  scheduled_for: Date | null;
  queued_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  status: CrawlRunStatus;
  crawl_id: number | null;
  reason: string | null;
  keep_crawled: boolean;
  cancel_requested_at: Date | null;
  pages_done: number;
  queued_urls: number;
  errors: number;
  parse_failures: number;
  pages_per_second: number;
  elapsed_ms: number | string;
  phase: CrawlRunPhase | null;
  last_activity_at: Date | null;
  progress_at: Date | null;
  owner: string | null;
  heartbeat_at: Date | null;
  settings: string;
}

export const toCrawlRun = (r: RunRow): CrawlRun => ({
  id: r.id,
  websiteId: r.website_id,
  trigger: r.trigger,
  startedBy: r.started_by,
  queuedAt: r.queued_at.toISOString(),
  startedAt: r.started_at?.toISOString() ?? null,
  endedAt: r.ended_at?.toISOString() ?? null,
  status: r.status,
  progress: {
    pagesDone: r.pages_done,
    queued: r.queued_urls,
    errors: r.errors,
    parseFailures: r.parse_failures,
    pagesPerSecond: r.pages_per_second,
    elapsedMs: Number(r.elapsed_ms),
    ...(r.phase !== null && { phase: r.phase }),
    ...(r.last_activity_at !== null && { lastActivityAt: r.last_activity_at.getTime() }),
    ...(r.progress_at !== null && { progressAt: r.progress_at.getTime() }),
  },
  crawlId: r.crawl_id,
  partial: null,
  reason: r.reason,
  isCancelRequested: r.cancel_requested_at !== null,
  isKeepRequested: r.cancel_requested_at !== null && r.keep_crawled,
});

/** Settings as stored: those saved before a setting existed take its default. */
const parseSettings = (json: string): CrawlSettings =>
  ({
    checkExternal: true,
    timeLimitHours: DEFAULT_TIME_LIMIT_HOURS,
    dataWindowDays: DATA_WINDOW_DAYS,
    ...(JSON.parse(json) as Partial<CrawlSettings>),
  }) as CrawlSettings;

export const runSettings = (r: RunRow): CrawlSettings => parseSettings(r.settings);

async function websiteDomain(sql: Sql, websiteId: string): Promise<string | undefined> {
  const [row] = await sql.all<{ domain: string }>('SELECT domain FROM websites WHERE id = ?', [websiteId]);
  return row?.domain;
}

/** The website's saved settings, else the defaults from its domain; undefined for an unknown website. */
export async function readSettings(sql: Sql, websiteId: string): Promise<StoredSettings | undefined> {
  const [row] = await sql.all<SettingsRow>('SELECT * FROM crawl_settings WHERE website_id = ?', [websiteId]);
  if (row) return { settings: parseSettings(row.settings), isDefault: false, scheduleFrom: row.schedule_from };
  const domain = await websiteDomain(sql, websiteId);
  return domain === undefined
    ? undefined
    : { settings: defaultCrawlSettings(domain), isDefault: true, scheduleFrom: null };
}

const sameSchedule = (a: CrawlSettings['schedule'], b: CrawlSettings['schedule']): boolean =>
  a?.day === b?.day && a?.time === b?.time;

/** Saves checked settings; a changed schedule counts from `now`, so saving one never fires a time already past. */
export async function saveSettings(
  tx: Sql,
  websiteId: string,
  settings: CrawlSettings,
  by: string,
  now: Date,
): Promise<StoredSettings> {
  const before = await readSettings(tx, websiteId);
  const scheduleFrom =
    before && !before.isDefault && before.scheduleFrom && sameSchedule(before.settings.schedule, settings.schedule)
      ? before.scheduleFrom
      : now;
  await tx.run(
    `INSERT INTO crawl_settings (website_id, settings, schedule_from, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (website_id) DO UPDATE SET settings = excluded.settings, schedule_from = excluded.schedule_from,
       updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [websiteId, JSON.stringify(settings), scheduleFrom, now, by],
  );
  await tx.changed('crawl-runs');
  return { settings, isDefault: false, scheduleFrom };
}

/** Every website's saved settings with a schedule. */
export async function scheduledSettings(
  sql: Sql,
): Promise<{ websiteId: string; settings: CrawlSettings; scheduleFrom: Date }[]> {
  const rows = await sql.cached<SettingsRow>('crawl-runs', 'SELECT * FROM crawl_settings ORDER BY website_id');
  return rows
    .map((r) => ({
      websiteId: r.website_id,
      settings: parseSettings(r.settings),
      scheduleFrom: r.schedule_from,
    }))
    .filter((s) => s.settings.schedule !== null);
}

export async function listRuns(sql: Sql, websiteId: string): Promise<CrawlRun[]> {
  const rows = await sql.all<RunRow>('SELECT * FROM crawl_runs WHERE website_id = ? ORDER BY id DESC LIMIT ?', [
    websiteId,
    RUN_HISTORY_LIMIT,
  ]);
  return rows.map(toCrawlRun);
}

export async function getRun(sql: Sql, websiteId: string, runId: number): Promise<RunRow | undefined> {
  const [row] = await sql.all<RunRow>('SELECT * FROM crawl_runs WHERE website_id = ? AND id = ?', [websiteId, runId]);
  return row;
}

export interface NewRun {
  websiteId: string;
  trigger: CrawlRunTrigger;
  startedBy: string | null;
  scheduledFor: Date | null;
  settings: CrawlSettings;
  now: Date;
}

/** Queues a run; undefined when the website has one queued or running already, or the scheduled time has its run. */
export async function queueRun(sql: Sql, run: NewRun): Promise<RunRow | undefined> {
  const [row] = await sql.all<RunRow>(
    `INSERT INTO crawl_runs (website_id, trigger, started_by, scheduled_for, queued_at, status, settings)
     VALUES (?, ?, ?, ?, ?, 'queued', ?) ON CONFLICT DO NOTHING RETURNING *`,
    [run.websiteId, run.trigger, run.startedBy, run.scheduledFor, run.now, JSON.stringify(run.settings)],
  );
  if (row) await sql.changed('crawl-runs');
  return row;
}

/** Whether the website has a run for this scheduled time, whatever became of it. */
export async function hasScheduledRun(sql: Sql, websiteId: string, scheduledFor: Date): Promise<boolean> {
  const rows = await sql.cached('crawl-runs', 'SELECT 1 FROM crawl_runs WHERE website_id = ? AND scheduled_for = ?', [
    websiteId,
    scheduledFor,
  ]);
  return rows.length > 0;
}

/**
 * Asks for a run to stop: a queued one is cancelled at once; a running or loading one is marked for its owner,
 * which acts on it at its next heartbeat. A second cancel is taken only to drop what a first one kept: resolves with
 * the run as it now is, `ended` when it had ended, or the reason a second cancel changes nothing.
 */
export async function requestCancel(
  tx: Sql,
  runId: number,
  keepCrawled: boolean,
  now: Date,
): Promise<{ run: RunRow } | { refused: string } | 'ended'> {
  const [cancelled] = await tx.all<RunRow>(
    `UPDATE crawl_runs SET status = 'cancelled', ended_at = ?, cancel_requested_at = ?, keep_crawled = ?
     WHERE id = ? AND status = 'queued' RETURNING *`,
    [now, now, keepCrawled, runId],
  );
  if (cancelled) {
    await tx.changed('crawl-runs');
    return { run: cancelled };
  }
  const [requested] = await tx.all<RunRow>(
    `UPDATE crawl_runs SET cancel_requested_at = coalesce(cancel_requested_at, ?), keep_crawled = ?
     WHERE id = ? AND status IN ('running', 'loading') AND (cancel_requested_at IS NULL OR keep_crawled AND NOT ?)
     RETURNING *`,
    [now, keepCrawled, runId, keepCrawled],
  );
  if (requested) {
    await tx.changed('crawl-runs');
    return { run: requested };
  }
  const [active] = await tx.all<RunRow>(
    `SELECT * FROM crawl_runs WHERE id = ? AND status IN ('running', 'loading') FOR UPDATE`,
    [runId],
  );
  if (!active) return 'ended';
  return { refused: active.keep_crawled ? ALREADY_KEEPING : ALREADY_DROPPING };
}

/** Whether any run waits; a cached read, so an idle poll leaves every cache as it was. */
export async function hasQueuedRuns(sql: Sql): Promise<boolean> {
  return (await sql.cached('crawl-runs', `SELECT 1 FROM crawl_runs WHERE status = 'queued' LIMIT 1`)).length > 0;
}

/** Takes the oldest queued run for `owner`; two replicas never take the same one. */
export async function claimQueuedRun(sql: Sql, owner: string, now: Date): Promise<RunRow | undefined> {
  const [row] = await sql.all<RunRow>(
    `UPDATE crawl_runs SET status = 'running', started_at = ?, owner = ?, heartbeat_at = ?
     WHERE id = (SELECT id FROM crawl_runs WHERE status = 'queued' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       AND status = 'queued'
     RETURNING *`,
    [now, owner, now],
  );
  if (row) await sql.changed('crawl-runs');
  return row;
}

/** Writes the progress and heartbeat of a run this owner runs; resolves with its cancel request (null: none). */
export async function beat(
  sql: Sql,
  runId: number,
  owner: string,
  progress: CrawlRunProgress,
  now: Date,
): Promise<{ cancelRequestedAt: Date | null; keepCrawled: boolean } | undefined> {
  const [row] = await sql.all<{ cancel_requested_at: Date | null; keep_crawled: boolean }>(
    `UPDATE crawl_runs SET pages_done = ?, queued_urls = ?, errors = ?, parse_failures = ?, pages_per_second = ?,
       elapsed_ms = ?,
       phase = ?, last_activity_at = ?, progress_at = ?, heartbeat_at = ?
     WHERE id = ? AND owner = ? AND status IN ('running', 'loading')
     RETURNING cancel_requested_at, keep_crawled`,
    [
      progress.pagesDone,
      progress.queued,
      progress.errors,
      progress.parseFailures ?? 0,
      progress.pagesPerSecond,
      Math.round(progress.elapsedMs),
      progress.phase ?? null,
      dateOf(progress.lastActivityAt),
      dateOf(progress.progressAt),
      now,
      runId,
      owner,
    ],
  );
  if (row) await sql.changed('crawl-runs');
  return row && { cancelRequestedAt: row.cancel_requested_at, keepCrawled: row.keep_crawled };
}

const dateOf = (ms: number | undefined): Date | null => (ms === undefined ? null : new Date(ms));

export async function markLoading(sql: Sql, runId: number, owner: string): Promise<void> {
  await sql.run(`UPDATE crawl_runs SET status = 'loading' WHERE id = ? AND owner = ? AND status = 'running'`, [
    runId,
    owner,
  ]);
  await sql.changed('crawl-runs');
}

export interface RunEnd {
  status: Extract<CrawlRunStatus, 'loaded' | 'cancelled' | 'failed'>;
  crawlId?: number | null;
  reason?: string | null;
}

/** Ends a run its owner still holds, and tells its website's staff (notifications/); false when it had ended. */
export async function endRun(sql: Sql, runId: number, owner: string, end: RunEnd, now: Date): Promise<boolean> {
  const ended = await sql.all(
    `UPDATE crawl_runs SET status = ?, crawl_id = ?, reason = ?, ended_at = ?
     WHERE id = ? AND owner = ? AND status IN ('running', 'loading') RETURNING 1`,
    [end.status, end.crawlId ?? null, end.reason ?? null, now, runId, owner],
  );
  if (ended.length === 0) return false;
  await sql.changed('crawl-runs');
  await queueRunNotices(sql, runId, now);
  return true;
}

/** Runs in progress on any host, for the restart check. */
export async function activeRuns(
  sql: Sql,
): Promise<readonly { id: number; owner: string | null; heartbeat_at: Date | null }[]> {
  return sql.cached(
    'crawl-runs',
    `SELECT id, owner, heartbeat_at FROM crawl_runs WHERE status IN ('running', 'loading') ORDER BY id`,
  );
}
