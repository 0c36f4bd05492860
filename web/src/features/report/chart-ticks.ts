/** The x-axis ticks of 'Issues over time': the crawl dates themselves, so every point sits on a labelled tick. */

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
