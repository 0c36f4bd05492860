/**
 * Weekly crawl schedules in Europe/London, with croner's calendar as the auto-approval uses it (summer time
 * included). A due time queues one run whatever the number of replicas: the run is identified by its scheduled
 * time (crawl_runs_scheduled), so the later insert does nothing. After downtime only the latest missed time is made
 * up, and only if it came after the schedule was set.
 */
import { Cron } from 'croner';
import { SCHEDULE_TIME_ZONE, WEEKDAYS, type CrawlSchedule } from '../../catalog/crawl-runs.ts';
import type { Sql } from '../app-db/sql.ts';
import { hasScheduledRun, queueRun, scheduledSettings, type RunRow } from './runs.ts';

const calendars = new Map<string, Cron>();

function calendarOf(schedule: CrawlSchedule): Cron {
  const [hour, minute] = schedule.time.split(':').map(Number);
  // cron weekdays count from Sunday (0); WEEKDAYS from Monday.
  const pattern = `${minute} ${hour} * * ${(WEEKDAYS.indexOf(schedule.day) + 1) % 7}`;
  let calendar = calendars.get(pattern);
  if (!calendar) {
    calendar = new Cron(pattern, { timezone: SCHEDULE_TIME_ZONE, paused: true });
    calendars.set(pattern, calendar);
  }
  return calendar;
}

export function nextDue(schedule: CrawlSchedule | null, now: Date): Date | null {
  return schedule ? calendarOf(schedule).nextRun(now) : null;
}

/** The latest scheduled time at or before `now`. */
export function lastDue(schedule: CrawlSchedule, now: Date): Date | undefined {
  return calendarOf(schedule).previousRuns(1, new Date(now.getTime() + 1))[0];
}

/** Queues the runs due at `now` that no process queued yet; resolves with the ones this call queued. */
export async function queueDueRuns(sql: Sql, now: Date): Promise<RunRow[]> {
  const queued: RunRow[] = [];
  for (const { websiteId, settings, scheduleFrom } of await scheduledSettings(sql)) {
    const due = lastDue(settings.schedule!, now);
    if (!due || due <= scheduleFrom || (await hasScheduledRun(sql, websiteId, due))) continue;
    const run = await queueRun(sql, {
      websiteId,
      trigger: 'schedule',
      startedBy: null,
      scheduledFor: due,
      settings,
      now,
    });
    if (run) queued.push(run);
  }
  return queued;
}
