import { describe, expect, it } from 'vitest';
import { compare, geometricMean, seededRandom, stats } from './stats.ts';

const range = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('stats', () => {
  it('takes nearest-rank percentiles whatever the order of the samples', () => {
    expect(stats(range(40).reverse())).toEqual({ runs: 40, p50: 20, p95: 38, mean: 20.5 });
    expect(stats([7])).toEqual({ runs: 1, p50: 7, p95: 7, mean: 7 });
  });
});

describe('compare', () => {
  it('finds no difference between the same timings, with an interval around 1', () => {
    const samples = range(40, 10);
    const { p50Ratio, p95Ratio, p95RatioInterval } = compare(samples, [...samples].reverse());
    expect([p50Ratio, p95Ratio]).toEqual([1, 1]);
    expect(p95RatioInterval[0]).toBeLessThan(1);
    expect(p95RatioInterval[1]).toBeGreaterThan(1);
  });

  it('gives a wide interval for one slow sample, so a 4× p95 of a few samples is not taken as slower', () => {
    const base = [10, 11, 12];
    const other = [10, 11, 40];
    const { p95Ratio, p95RatioInterval } = compare(base, other);
    expect(p95Ratio).toBeGreaterThan(3);
    expect(p95RatioInterval[0]).toBeLessThanOrEqual(1);
  });

  it('puts a steady 1.5× slowdown of many samples above 1.2 with all of its interval', () => {
    const random = seededRandom(1);
    const base = range(60).map(() => 10 + random() * 4);
    const other = base.map((x) => x * 1.5);
    const { p50Ratio, p95Ratio, p50RatioInterval, p95RatioInterval } = compare(base, other);
    expect(p50Ratio).toBe(1.5);
    expect(p95Ratio).toBe(1.5);
    expect(p50RatioInterval[0]).toBeGreaterThan(1.2);
    expect(p95RatioInterval[0]).toBeGreaterThan(1.2);
  });
});

describe('geometricMean', () => {
  it('weighs a halving and a doubling alike', () => {
    expect(geometricMean([0.5, 2])).toBe(1);
    expect(geometricMean([1.21, 1.21])).toBe(1.21);
  });
});
