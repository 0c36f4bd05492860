/**
 * The benchmark's statistics: percentiles of a set of samples, and how far a ratio of two backends' percentiles can
 * be trusted (a bootstrap interval), so that "slower than 1.2×" is told apart from the noise of a few slow samples.
 */

export interface Stats {
  runs: number;
  p50: number;
  p95: number;
  mean: number;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** The nearest-rank percentile of samples sorted ascending: the smallest sample with at least q of them at or below. */
const atRank = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

export const stats = (samples: readonly number[]): Stats => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    p50: round(atRank(sorted, 0.5)),
    p95: round(atRank(sorted, 0.95)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
};

/** A seeded uniform generator on [0, 1) (an LCG), so that runs draw the same pauses and the same resamples. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

export interface Comparison {
  /** `other` ÷ `base` at the median and at p95. */
  p50Ratio: number;
  p95Ratio: number;
  /** The central 95% of each ratio over bootstrap resamples of both sample sets. */
  p50RatioInterval: [number, number];
  p95RatioInterval: [number, number];
}

/**
 * Compares two sets of timings of the same requests: the ratios of their percentiles, and percentile bootstrap
 * intervals of those ratios (each set resampled with replacement, `resamples` times, from a fixed seed).
 */
export function compare(base: readonly number[], other: readonly number[], resamples = 2000): Comparison {
  const sorted = (samples: readonly number[]): number[] => [...samples].sort((a, b) => a - b);
  const random = seededRandom(20261123);
  const resample = (samples: readonly number[]): number[] =>
    sorted(Array.from(samples, () => samples[Math.floor(random() * samples.length)]!));
  const p50s: number[] = [];
  const p95s: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const [b, o] = [resample(base), resample(other)];
    p50s.push(atRank(o, 0.5) / atRank(b, 0.5));
    p95s.push(atRank(o, 0.95) / atRank(b, 0.95));
  }
  const interval = (ratios: number[]): [number, number] => {
    const s = sorted(ratios);
    return [round(atRank(s, 0.025), 2), round(atRank(s, 0.975), 2)];
  };
  const ratio = (q: number): number => round(atRank(sorted(other), q) / atRank(sorted(base), q), 2);
  return {
    p50Ratio: ratio(0.5),
    p95Ratio: ratio(0.95),
    p50RatioInterval: interval(p50s),
    p95RatioInterval: interval(p95s),
  };
}

/** The geometric mean: the overall factor of a set of per-case ratios, none weighing more for being a slow case. */
export const geometricMean = (values: readonly number[]): number =>
  round(Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length), 2);

/** A comparison's two ratios as table cells, each with its interval. */
export const ratios = (c: Comparison): string =>
  `${c.p50Ratio} (${c.p50RatioInterval.join('–')}) | ${c.p95Ratio} (${c.p95RatioInterval.join('–')})`;
