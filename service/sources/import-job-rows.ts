/**
 * The Data sources page's jobs in the app database (table import_jobs), so that every replica over one PostgreSQL
 * server sees them: the page's poll may reach any replica, and an upload sent to one while another imports for the
 * same website is refused (one running job per website, a unique index). The replica that runs a job writes its
 * steps and a heartbeat; a job whose replica is gone (a dead pid on this host, or silent for STALE_HEARTBEAT_MS)
 * counts as failed. The newest JOBS_KEPT jobs of each website are kept (in the order they started: seq).
 */
import os from 'node:os';
import type { ImportJob, ImportStep } from '../../catalog/data-source-calls.ts';
import type { DataSourceId } from '../../catalog/data-sources.ts';
import type { Sql } from '../app-db/sql.ts';
import { isPidAlive } from '../pid-lock.ts';

export const JOBS_KEPT = 10;
export const STALE_HEARTBEAT_MS = 60_000;
export const ABANDONED =
  'the import stopped: the service running it ended; nothing was imported unless its summary says so';

interface JobRow {
  id: string;
  website_id: string;
  source: DataSourceId;
  kind: ImportJob['kind'];
  files: string[];
  started_by: string;
  status: ImportJob['status'];
  step: string | null;
  started_at: Date;
  ended_at: Date | null;
  summary: string | null;
  owner: string;
  heartbeat_at: Date;
}

const jobOf = (r: JobRow): ImportJob => ({
  id: r.id,
  websiteId: r.website_id,
  source: r.source,
  kind: r.kind,
  status: r.status,
  step: r.step === null ? null : (JSON.parse(r.step) as ImportStep),
  files: [...r.files],
  by: r.started_by,
  startedAt: r.started_at.toISOString(),
  endedAt: r.ended_at?.toISOString() ?? null,
  summary: r.summary,
});

/** Adds a running job; false when the website has one running already (here or on another replica). */
export async function insertJob(sql: Sql, job: ImportJob, owner: string, now: Date): Promise<boolean> {
  const rows = await sql.all<{ id: string }>(
    `INSERT INTO import_jobs (id, website_id, source, kind, files, started_by, status, step, started_at, owner,
       heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, 'running', NULL, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
    [job.id, job.websiteId, job.source, job.kind, job.files, job.by, new Date(job.startedAt), owner, now],
  );
  return rows.length > 0;
}

export const writeStep = (sql: Sql, id: string, step: ImportStep, now: Date): Promise<void> =>
  sql.run(`UPDATE import_jobs SET step = ?, heartbeat_at = ? WHERE id = ? AND status = 'running'`, [
    JSON.stringify(step),
    now,
    id,
  ]);

/** Every running job of `owner` is alive. */
export const beat = (sql: Sql, owner: string, now: Date): Promise<void> =>
  sql.run(`UPDATE import_jobs SET heartbeat_at = ? WHERE owner = ? AND status = 'running'`, [now, owner]);

/** Ends a job, then drops the website's ended jobs beyond the newest JOBS_KEPT. */
export async function endJob(
  sql: Sql,
  job: Pick<ImportJob, 'id' | 'websiteId' | 'status' | 'summary' | 'endedAt'>,
): Promise<void> {
  await sql.run(`UPDATE import_jobs SET status = ?, summary = ?, ended_at = ? WHERE id = ? AND status = 'running'`, [
    job.status,
    job.summary,
    job.endedAt === null ? null : new Date(job.endedAt),
    job.id,
  ]);
  await sql.run(
    `DELETE FROM import_jobs WHERE website_id = ? AND status <> 'running' AND id NOT IN
       (SELECT id FROM import_jobs WHERE website_id = ? ORDER BY seq DESC LIMIT ${JOBS_KEPT})`,
    [job.websiteId, job.websiteId],
  );
}

/** Whether a job's replica is gone: a dead process on this host, or no heartbeat for STALE_HEARTBEAT_MS. */
function isAbandoned(row: Pick<JobRow, 'owner' | 'heartbeat_at'>, self: string, now: Date): boolean {
  if (row.owner === self) return false;
  const [host, pid] = row.owner.split(':');
  if (host === os.hostname() && Number(pid) !== process.pid && !isPidAlive(Number(pid))) return true;
  return now.getTime() - row.heartbeat_at.getTime() > STALE_HEARTBEAT_MS;
}

/** The website's jobs, newest first, after failing those whose replica is gone. */
export async function jobsOf(sql: Sql, websiteId: string, self: string, now: Date): Promise<ImportJob[]> {
  const rows = await sql.all<JobRow>(`SELECT * FROM import_jobs WHERE website_id = ? ORDER BY seq DESC`, [websiteId]);
  for (const row of rows.filter((r) => r.status === 'running' && isAbandoned(r, self, now))) {
    await endJob(sql, { id: row.id, websiteId, status: 'failed', summary: ABANDONED, endedAt: now.toISOString() });
    Object.assign(row, { status: 'failed', summary: ABANDONED, ended_at: now });
  }
  return rows.map(jobOf);
}
