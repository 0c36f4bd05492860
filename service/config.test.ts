import { describe, expect, it } from 'vitest';
import { readClock, readCrawlSilenceMs, readCrawlWorkers, readStorePollMs } from './config.ts';

describe('STORE_POLL_SECONDS', () => {
  it('defaults to 2 s and takes seconds, fractions too', () => {
    expect(readStorePollMs({})).toBe(2000);
    expect(readStorePollMs({ STORE_POLL_SECONDS: '0.5' })).toBe(500);
    expect(readStorePollMs({ STORE_POLL_SECONDS: '600' })).toBe(600_000);
  });

  it('refuses what is not a positive number, naming the variable', () => {
    for (const value of ['0', '-1', 'often', ''])
      expect(() => readStorePollMs({ STORE_POLL_SECONDS: value })).toThrow(
        `STORE_POLL_SECONDS must be a positive number, got ${value}`,
      );
  });
});

describe('CRAWL_WORKERS', () => {
  it('defaults to 1 and takes a whole number', () => {
    expect(readCrawlWorkers({})).toBe(1);
    expect(readCrawlWorkers({ CRAWL_WORKERS: '3' })).toBe(3);
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['0', '1.5', 'two', '65', ''])
      expect(() => readCrawlWorkers({ CRAWL_WORKERS: value })).toThrow(
        `CRAWL_WORKERS must be a whole number from 1 to 64, got ${value}`,
      );
  });
});

describe('CRAWL_SILENCE_SECONDS', () => {
  it('defaults to a minute and takes seconds, fractions too', () => {
    expect(readCrawlSilenceMs({})).toBe(60_000);
    expect(readCrawlSilenceMs({ CRAWL_SILENCE_SECONDS: '1.5' })).toBe(1500);
  });

  it('refuses what is not a positive number, naming the variable', () => {
    for (const value of ['0', '-2', 'long', ''])
      expect(() => readCrawlSilenceMs({ CRAWL_SILENCE_SECONDS: value })).toThrow(
        `CRAWL_SILENCE_SECONDS must be a positive number, got ${value}`,
      );
  });
});

describe('CLOCK_START', () => {
  it('starts the clock at the instant given, running at normal speed', async () => {
    const { clock, start } = readClock({ CLOCK_START: '2026-03-30T05:59:00Z' });
    expect(start?.toISOString()).toBe('2026-03-30T05:59:00.000Z');
    const first = clock().getTime();
    expect(first - start!.getTime()).toBeGreaterThanOrEqual(0);
    expect(first - start!.getTime()).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(clock().getTime() - first).toBeGreaterThanOrEqual(45);
  });

  it('is the real clock without it, and refuses what is not a date-time', () => {
    expect(readClock({}).start).toBeUndefined();
    expect(Math.abs(readClock({}).clock().getTime() - Date.now())).toBeLessThan(1000);
    for (const value of ['tomorrow', '2026-03-30', '2026-13-01T00:00:00Z'])
      expect(() => readClock({ CLOCK_START: value })).toThrow(`CLOCK_START must be an ISO date-time`);
  });
});
