/** The x-axis of 'Issues over time': its domain, and ticks at the crawl dates, so every point sits on a label. */

/** Room one 'd MMM yyyy' label needs, with a gap, at the chart's 11px font. */
export const TICK_LABEL_WIDTH = 84;

/** About the width of one character of the chart's 11px font, and the gap kept between two labels. */
const CHAR_WIDTH = 6.1;
const GAP = 16;

/** The room a tick's (possibly multi-line) text needs: its longest line, and a gap; never below TICK_LABEL_WIDTH. */
export function tickWidth(text: string): number {
  const longest = Math.max(...text.split('\n').map((line) => line.length));
  return Math.max(TICK_LABEL_WIDTH, Math.ceil(longest * CHAR_WIDTH + GAP));
}

/**
 * The crawl dates inside the shown domain, thinned to fit `plotWidth`: walking back from the newest, a date keeps its
 * tick when its label clears the last one kept. So the newest crawl is always labelled, evenly spaced crawls keep
 * evenly spaced labels, and crawls of one day (a few pixels apart) never print over each other.
 */
export function crawlTicks(
  dates: readonly Date[],
  domain: readonly [Date, Date],
  plotWidth: number,
  widthOf: (date: Date) => number = () => TICK_LABEL_WIDTH,
): Date[] {
  const [from, to] = domain;
  const span = Math.max(1, to.getTime() - from.getTime());
  const x = (d: Date) => ((d.getTime() - from.getTime()) / span) * plotWidth;
  const inside = [...dates]
    .filter((d) => d.getTime() >= from.getTime() && d.getTime() <= to.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
  const kept: Date[] = [];
  for (let i = inside.length - 1; i >= 0; i--) {
    const date = inside[i]!;
    const last = kept.at(-1);
    if (!last || x(last) - x(date) >= (widthOf(last) + widthOf(date)) / 2) kept.push(date);
  }
  return kept.reverse();
}

const DAY_MS = 86_400_000;
/** What a lone crawl is shown against: the week up to it, so key dates of that week show and none after it. */
export const SINGLE_CRAWL_DAYS = 7;

/**
 * The x domain: the zoomed span, else the first crawl to the newest. It never runs past the newest crawl, so no key
 * date after the data (possibly in the future) is drawn.
 */
export function chartDomain(dates: readonly Date[], zoom: readonly [Date, Date] | null): [Date, Date] {
  if (zoom) return [zoom[0], zoom[1]];
  const times = dates.map((d) => d.getTime());
  const first = Math.min(...times);
  const last = Math.max(...times);
  return [new Date(first === last ? last - SINGLE_CRAWL_DAYS * DAY_MS : first), new Date(last)];
}
