/**
 * The coverage chart's date axis: ticks on UTC midnights only, a day, two days, a week or two weeks apart, else on
 * the first of every one, two, three, six or twelve months, as many as fit the width. A date axis never shows hours:
 * the data has no finer grain than a day.
 */
const DAY_MS = 86_400_000;
const DAY_STEPS = [1, 2, 7, 14] as const;
const MONTH_STEPS = [1, 2, 3, 6, 12] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A few days drawn over the whole width read as one block: the axis spans at least two weeks, the data centred. */
const MIN_SPAN_DAYS = 14;

/**
 * The chart's span: from the first day's midnight to the midnight after the last day (whole days, as the data knows
 * them), widened by whole days on both sides to MIN_SPAN_DAYS; `firstDay` is the first day with data.
 */
export function coverageSpan(spans: readonly { start: Date; end: Date }[]): { start: Date; end: Date; firstDay: Date } {
  const first = Math.min(...spans.map((s) => s.start.getTime()));
  const last = Math.max(...spans.map((s) => s.end.getTime()));
  const missingDays = Math.max(0, MIN_SPAN_DAYS - Math.round((last - first) / DAY_MS));
  const before = Math.floor(missingDays / 2) * DAY_MS;
  return {
    start: new Date(first - before),
    end: new Date(last + missingDays * DAY_MS - before),
    firstDay: new Date(first),
  };
}

export interface DateTicks {
  ticks: Date[];
  format: (date: Date) => string;
}

const dayLabel = (d: Date): string => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
const monthLabel = (d: Date): string => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

/**
 * Ticks over the days from `start` (a UTC midnight) up to `end` (the UTC midnight after the last day), at least
 * `gap` pixels apart on a chart `width` pixels wide. Day ticks fall on `anchor` (a UTC midnight in the span, the
 * first day with data) and whole steps either side of it.
 */
export function dateTicks(
  start: Date,
  end: Date,
  width: number,
  { gap = 70, anchor = start }: { gap?: number; anchor?: Date } = {},
): DateTicks {
  const fit = Math.max(2, Math.floor(width / gap));
  const days = Math.max(1, Math.round((end.getTime() - start.getTime()) / DAY_MS));
  const step = DAY_STEPS.find((s) => Math.ceil(days / s) <= fit);
  if (step !== undefined) {
    const ticks: Date[] = [];
    const stepMs = step * DAY_MS;
    const first = anchor.getTime() - Math.floor((anchor.getTime() - start.getTime()) / stepMs) * stepMs;
    for (let t = first; t < end.getTime(); t += stepMs) ticks.push(new Date(t));
    return { ticks, format: dayLabel };
  }
  const firstMonth = start.getUTCFullYear() * 12 + start.getUTCMonth() + (start.getUTCDate() > 1 ? 1 : 0);
  const lastMonth = end.getUTCFullYear() * 12 + end.getUTCMonth();
  const months = lastMonth - firstMonth + 1;
  const every = MONTH_STEPS.find((s) => Math.ceil(months / s) <= fit) ?? Math.ceil(months / fit / 12) * 12;
  const ticks: Date[] = [];
  for (let m = Math.ceil(firstMonth / every) * every; m <= lastMonth; m += every) {
    const tick = new Date(Date.UTC(Math.floor(m / 12), m % 12, 1));
    if (tick.getTime() <= end.getTime()) ticks.push(tick);
  }
  return { ticks, format: monthLabel };
}
