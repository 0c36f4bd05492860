/** The coverage chart's row axis: whole numbers only (a day has 3 rows, never 2.5), about `count` of them from 0. */
export function rowTicks(max: number, count = 3): number[] {
  const top = Math.max(1, Math.ceil(max));
  const rough = top / count;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks: number[] = [];
  for (let t = 0; t < top + step; t += step) ticks.push(t);
  return ticks;
}
