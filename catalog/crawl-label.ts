/**
 * How a crawl is named wherever it is shown (dropdowns, overview, chart, CSV file names, emails), and what makes a
 * crawl partial. A label is unique among a website's crawls: the date, the time when the day holds several crawls,
 * and the crawl number, e.g. "18 Nov 2026 (crawl 2)", "25 Nov 2026, 14:05 (crawl 3, partial)". Dates and times are in
 * the agency's zone, as the Crawls page's History shows them.
 */
// From constants.ts, not crawl-runs.ts: the dashboard's first bundle shows labels, and crawl-runs.ts brings re2js.
import { SCHEDULE_TIME_ZONE } from './constants.ts';
import type { PartialReason } from './export-contract.ts';

export const PARTIAL_REASON_TEXT: Record<PartialReason, string> = {
  stopped: 'it was stopped before it finished',
  'time-limit': 'it was stopped at its time limit',
  'max-urls': 'it reached its Max URLs setting',
};

/** What a crawl export's manifest says about how the crawl ended. */
export interface CrawlEnding {
  stoppedEarly?: boolean | undefined;
  partialReason?: PartialReason | undefined;
}

/** The partial reason of a crawl; an export from before `partialReason` that stopped early was stopped. */
export function partialReasonOf(ending: CrawlEnding): PartialReason | null {
  return ending.partialReason ?? (ending.stoppedEarly === true ? 'stopped' : null);
}

export interface LabelledCrawl {
  crawlId: number;
  /** ISO date-time. */
  crawledAt: string;
  partial: PartialReason | null;
}

interface CrawlLabelParts {
  /** 'd MMM yyyy'. */
  date: string;
  /** HH:MM, only when another crawl of the website was made on the same day. */
  time: string | null;
  crawlId: number;
  isPartial: boolean;
}

const DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: SCHEDULE_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: SCHEDULE_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function dayOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(DAY.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year}`;
}

const timeOf = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : TIME.format(date);
};

/** "25 Nov 2026, 14:05" in the agency's zone, for what has no crawl label (a run that failed). */
export function crawlTimeText(iso: string): string {
  return `${dayOf(iso)}, ${timeOf(iso)}`;
}

/** The parts of every crawl's label, by crawl id; `crawls` are all the website's crawls, in any order. */
function crawlLabelParts(crawls: readonly LabelledCrawl[]): Map<number, CrawlLabelParts> {
  const days = new Map<string, number>();
  const dayById = new Map(crawls.map((c) => [c.crawlId, dayOf(c.crawledAt)]));
  for (const day of dayById.values()) days.set(day, (days.get(day) ?? 0) + 1);
  return new Map(
    crawls.map((c) => {
      const date = dayById.get(c.crawlId)!;
      const time = (days.get(date) ?? 0) > 1 ? timeOf(c.crawledAt) : null;
      return [c.crawlId, { date, time, crawlId: c.crawlId, isPartial: c.partial !== null }];
    }),
  );
}

/** "25 Nov 2026, 14:05 (crawl 3, partial)". */
function formatCrawlLabel(parts: CrawlLabelParts): string {
  const when = parts.time === null ? parts.date : `${parts.date}, ${parts.time}`;
  return `${when} (crawl ${parts.crawlId}${parts.isPartial ? ', partial' : ''})`;
}

/**
 * A label on two short lines, for a chart's axis: "25 Nov 2026" over "14:05, crawl 3, partial". Any other text is
 * given back as it is.
 */
export function crawlTickText(label: string): string {
  const match = /^(\d{1,2} [A-Z][a-z]{2} \d{4})(?:, (\d\d:\d\d))? \((crawl [^)]*)\)$/.exec(label);
  if (!match) return label;
  const [, date, time, crawl] = match;
  return `${date}\n${time ? `${time}, ${crawl}` : crawl}`;
}

/** A label as a file name takes it, without colon, comma or brackets: "25 Nov 2026 1405 crawl 3 partial". */
export function crawlFileLabel(label: string): string {
  return label.replace(/[,:()]/g, '');
}

/** Every crawl's label by crawl id. */
export function crawlLabels(crawls: readonly LabelledCrawl[]): Map<number, string> {
  return new Map([...crawlLabelParts(crawls)].map(([id, parts]) => [id, formatCrawlLabel(parts)]));
}

/**
 * The comparison a crawl gets when none is chosen: the next older crawl that is not partial, since a partial crawl
 * makes Added/Removed count what it missed. Undefined when every older crawl is partial, or there is none.
 */
export function defaultComparison<T extends { crawlId: number }>(
  crawls: readonly T[],
  currentId: number,
  isPartial: (crawl: T) => boolean,
): T | undefined {
  let found: T | undefined;
  for (const c of crawls) {
    if (c.crawlId < currentId && !isPartial(c) && (!found || c.crawlId > found.crawlId)) found = c;
  }
  return found;
}

/** The warning beside Added/Removed when the comparison is a partial crawl. */
export const PARTIAL_COMPARISON_WARNING =
  'Compared with a partial crawl: Added/Removed may be incomplete, as pages it did not reach count as added.';
