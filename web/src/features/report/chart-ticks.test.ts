import { describe, expect, it } from 'vitest';
import { chartDomain, crawlTicks, TICK_LABEL_WIDTH } from './chart-ticks.ts';

const day = (iso: string) => new Date(`${iso}T06:00:00Z`);
const mondays = ['2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09'].map(day);
const whole: [Date, Date] = [day('2026-10-10'), day('2026-11-11')];

describe('crawlTicks', () => {
  it('puts a tick on every crawl date when the labels fit', () => {
    expect(crawlTicks(mondays, whole, 5 * TICK_LABEL_WIDTH)).toEqual(mondays);
  });

  it('keeps the dates in order whatever order the crawls come in', () => {
    expect(crawlTicks([...mondays].reverse(), whole, 1000)).toEqual(mondays);
  });

  it('thins crowded ticks evenly, always keeping the newest crawl', () => {
    expect(crawlTicks(mondays, whole, 3 * TICK_LABEL_WIDTH)).toEqual([mondays[0], mondays[2], mondays[4]]);
    expect(crawlTicks(mondays, whole, 2 * TICK_LABEL_WIDTH)).toEqual([mondays[1], mondays[4]]);
    expect(crawlTicks(mondays, whole, 2 * TICK_LABEL_WIDTH - 1)).toEqual([mondays[4]]);
    expect(crawlTicks(mondays.slice(0, 4), whole, 2 * TICK_LABEL_WIDTH)).toEqual([mondays[1], mondays[3]]);
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
