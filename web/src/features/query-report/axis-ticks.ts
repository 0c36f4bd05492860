/**
 * The value axis of a small chart: a few round ticks (steps of 1, 2 or 5 × 10^k) and the fewest decimals that label
 * them apart, so a position between 12.1 and 12.6 reads 12.2, 12.4, 12.6 rather than 12, 12, 12.
 */
export interface AxisTicks {
  ticks: number[];
  decimals: number;
}

const MAX_DECIMALS = 4;

/** Round values from at most `min` to at least `max`, about `count` steps apart; whole numbers when `isWhole`. */
export function niceTicks(min: number, max: number, count: number, isWhole = false): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const rough = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(isWhole ? 1 : 0, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const first = Math.floor(min / step);
  const last = Math.ceil(max / step);
  // Multiples of the step, so 0.1 + 0.2 never shows as 0.30000000000000004.
  return Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
}

/** The fewest decimals, from `from` up, at which `format` gives every tick its own label. */
export function distinctDecimals(
  ticks: readonly number[],
  format: (value: number, decimals: number) => string,
  from = 0,
) {
  for (let decimals = from; decimals < MAX_DECIMALS; decimals++)
    if (new Set(ticks.map((t) => format(t, decimals))).size === ticks.length) return decimals;
  return MAX_DECIMALS;
}

export function axisTicks(
  values: readonly number[],
  format: (value: number, decimals: number) => string,
  { count = 3, isWhole = false, fromZero = false }: { count?: number; isWhole?: boolean; fromZero?: boolean } = {},
): AxisTicks {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { ticks: [], decimals: 0 };
  const min = fromZero ? Math.min(0, ...finite) : Math.min(...finite);
  const ticks = niceTicks(min, Math.max(...finite), count, isWhole);
  return { ticks, decimals: distinctDecimals(ticks, format) };
}
