/** The x-axis of 'Issues over time': its domain, and ticks at the crawl dates, so every point sits on a label. */

/** Room one 'd MMM yyyy' label needs, with a gap, at the chart's 11px font. */
export const TICK_LABEL_WIDTH = 84;

/**
 * The crawl dates inside the shown domain, thinned to fit `plotWidth`: every k-th date counted back from the newest,
 * so the newest crawl is always labelled and the labels stay evenly spaced.
 */
export function crawlTicks(dates: readonly Date[], domain: readonly [Date, Date], plotWidth: number): Date[] {
  const [from, to] = domain;
  const inside = [...dates]
    .filter((d) => d.getTime() >= from.getTime() && d.getTime() <= to.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
  const room = Math.max(1, Math.floor(plotWidth / TICK_LABEL_WIDTH));
  if (inside.length <= room) return inside;
  const step = Math.ceil(inside.length / room);
  return inside.filter((_, index) => (inside.length - 1 - index) % step === 0);
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
