import { describe, expect, it } from 'vitest';
import { chartDomain, crawlTicks, TICK_LABEL_WIDTH, tickWidth } from './chart-ticks.ts';

const day = (iso: string) => new Date(`${iso}T06:00:00Z`);
const mondays = ['2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09'].map(day);
const whole: [Date, Date] = [day('2026-10-10'), day('2026-11-11')];
/** Pixels a week takes when `plotWidth` spans the whole domain (32 days). */
const week = (plotWidth: number) => (7 / 32) * plotWidth;

describe('crawlTicks', () => {
  it('puts a tick on every crawl date when the labels fit', () => {
    const plotWidth = Math.ceil((TICK_LABEL_WIDTH * 32) / 7);
    expect(week(plotWidth)).toBeGreaterThanOrEqual(TICK_LABEL_WIDTH);
    expect(crawlTicks(mondays, whole, plotWidth)).toEqual(mondays);
  });

  it('keeps the dates in order whatever order the crawls come in', () => {
    expect(crawlTicks([...mondays].reverse(), whole, 1000)).toEqual(mondays);
  });

  it('thins crowded ticks evenly, always keeping the newest crawl', () => {
    // A week is 55 px: every other label; 37 px: every third.
    expect(crawlTicks(mondays, whole, 3 * TICK_LABEL_WIDTH)).toEqual([mondays[0], mondays[2], mondays[4]]);
    expect(crawlTicks(mondays, whole, 2 * TICK_LABEL_WIDTH)).toEqual([mondays[1], mondays[4]]);
    expect(crawlTicks(mondays.slice(0, 4), whole, 2 * TICK_LABEL_WIDTH)).toEqual([mondays[0], mondays[3]]);
    expect(crawlTicks(mondays, whole, TICK_LABEL_WIDTH)).toEqual([mondays[4]]);
  });

  it('labels one of the crawls made on one day, the newest, when they sit a few pixels apart', () => {
    const sameDay = [new Date('2026-11-09T06:00:00Z'), new Date('2026-11-09T09:41:00Z'), day('2026-11-09')];
    const dates = [...mondays.slice(0, 4), ...sameDay.slice(0, 2)];
    expect(crawlTicks(dates, whole, 1000)).toEqual([...mondays.slice(0, 4), sameDay[1]]);
  });

  it('gives a wide label more room', () => {
    const wide = tickWidth('25 Nov 2026\n09:41, crawl 3, partial');
    expect(wide).toBeGreaterThan(TICK_LABEL_WIDTH);
    expect(tickWidth('25 Nov 2026\ncrawl 3')).toBe(TICK_LABEL_WIDTH);
    // At 100 px a week, narrow labels all fit; a wide newest label pushes its neighbour out.
    const plotWidth = (100 * 32) / 7;
    expect(crawlTicks(mondays, whole, plotWidth)).toEqual(mondays);
    const widthOf = (d: Date) => (d === mondays[4] ? wide : TICK_LABEL_WIDTH);
    expect(crawlTicks(mondays, whole, plotWidth, widthOf)).toEqual([mondays[0], mondays[1], mondays[2], mondays[4]]);
  });

  it('labels only the crawls inside a zoomed domain', () => {
    expect(crawlTicks(mondays, [day('2026-10-18'), day('2026-10-27')], 600)).toEqual([mondays[1], mondays[2]]);
  });
});

describe('chartDomain', () => {
  it('runs from the first crawl to the newest, in whatever order they come', () => {
    expect(chartDomain([...mondays].reverse(), null)).toEqual([mondays[0], mondays[4]]);
  });

  it('shows a lone crawl at the end of the week before it, never past it', () => {
    expect(chartDomain([day('2026-11-25')], null)).toEqual([day('2026-11-18'), day('2026-11-25')]);
  });

  it('keeps a zoom as it is', () => {
    const zoom: [Date, Date] = [day('2026-10-18'), day('2026-10-27')];
    expect(chartDomain(mondays, zoom)).toEqual(zoom);
  });
});
