/** How the Crawls page words and times runs: every date-time in the schedule's zone, Europe/London. */
import {
  ACTIVE_RUN_STATUSES,
  SCHEDULE_TIME_ZONE,
  STALLED_AFTER_MS,
  type CrawlRun,
  type CrawlRunPhase,
  type CrawlRunProgress,
  type CrawlRunStatus,
  type CrawlRunTrigger,
} from '../../../../catalog/crawl-runs.ts';
import type { Tone } from '../../components/tone-badge.tsx';

const partsOf = (format: Intl.DateTimeFormat, date: Date): Record<string, string> =>
  Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));

const LONG = new Intl.DateTimeFormat('en-GB', {
  timeZone: SCHEDULE_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const SHORT = new Intl.DateTimeFormat('en-GB', {
  timeZone: SCHEDULE_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "Monday 30 November 2026, 06:00 (London)". */
export function formatNextRun(iso: string): string {
  const p = partsOf(LONG, new Date(iso));
  return `${p.weekday} ${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} (London)`;
}

/** "23 Nov 2026, 20:15", London time; a dash when there is no time. */
export function formatRunTime(iso: string | null): string {
  if (!iso) return '—';
  const p = partsOf(SHORT, new Date(iso));
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`;
}

/** mm:ss, minutes going past 59 rather than wrapping into hours. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Done ÷ (done + queued), as a percentage; 0 before anything is known. */
export function progressPercent(progress: CrawlRunProgress): number {
  const total = progress.pagesDone + progress.queued;
  return total === 0 ? 0 : Math.min(100, (progress.pagesDone / total) * 100);
}

export function isActiveRun(run: CrawlRun): boolean {
  return ACTIVE_RUN_STATUSES.includes(run.status);
}

export const TRIGGER_LABELS: Record<CrawlRunTrigger, string> = { manual: 'Manual', schedule: 'Scheduled' };

export const STATUS_LABELS: Record<CrawlRunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  loading: 'Loading',
  loaded: 'Loaded',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const STATUS_TONES: Record<CrawlRunStatus, Tone> = {
  queued: 'gray',
  running: 'blue',
  loading: 'brand',
  loaded: 'green',
  cancelled: 'orange',
  failed: 'red',
};

/** The history's outcome, in one line: "Loaded as crawl 3", "Cancelled", "Failed: reason". */
export function outcomeText(run: CrawlRun): string {
  switch (run.status) {
    case 'loaded':
      return run.crawlId === null ? 'Loaded' : `Loaded as crawl ${run.crawlId}`;
    case 'failed':
      return `Failed: ${oneLine(run.reason ?? 'no reason given')}`;
    default:
      return STATUS_LABELS[run.status];
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-GB');
}

/** "3 pages not parsed" (their HTML could not be parsed); undefined when every page was. */
export function parseFailuresText(progress: CrawlRunProgress): string | undefined {
  const count = progress.parseFailures ?? 0;
  if (count === 0) return undefined;
  return `${formatCount(count)} ${count === 1 ? 'page' : 'pages'} not parsed`;
}

export function formatRate(pagesPerSecond: number): string {
  return pagesPerSecond.toLocaleString('en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
}

export const PHASE_LABELS: Record<CrawlRunPhase, string> = {
  fetching: 'Fetching pages',
  waiting: "Waiting on robots.txt's crawl-delay",
  exporting: 'Writing the export',
  loading: 'Loading the crawl',
};

const LAST_ACTIVITY: Record<CrawlRunPhase, string> = {
  fetching: 'last response',
  waiting: 'last response',
  exporting: 'last export step',
  loading: 'last load step',
};

/** "4 s", "3 min", "2 h 5 min": how long ago, coarse enough to stay put for a while. */
export function formatAgo(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

export interface RunActivity {
  /** "Fetching pages · last response 3 s ago". */
  line: string | undefined;
  /**
   * "Stalled: no progress for 2 min", once nothing has moved for STALLED_AFTER_MS while fetching. Only then: a pause
   * between requests may be set to a minute, and one step of writing the export or loading may take minutes.
   */
  stalled: string | undefined;
}

/** What a running or loading run is doing, by the service's clock `nowMs`; nothing for a queued one. */
export function runActivity(run: CrawlRun, nowMs: number): RunActivity {
  const { phase, lastActivityAt, progressAt } = run.progress;
  if (run.status === 'queued' || phase === undefined) return { line: undefined, stalled: undefined };
  const last = LAST_ACTIVITY[phase];
  const line =
    lastActivityAt === undefined
      ? PHASE_LABELS[phase]
      : `${PHASE_LABELS[phase]} · ${last} ${formatAgo(nowMs - lastActivityAt)} ago`;
  const still = progressAt === undefined ? 0 : nowMs - progressAt;
  const isStalled = phase === 'fetching' && still >= STALLED_AFTER_MS;
  const stalled = isStalled ? `Stalled: no progress for ${Math.floor(still / 60_000)} min` : undefined;
  return { line, stalled };
}
