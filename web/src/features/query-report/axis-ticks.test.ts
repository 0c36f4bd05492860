import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent } from '../../../../catalog/format.ts';
import { axisTicks, distinctDecimals, niceTicks } from './axis-ticks.ts';

describe('axis ticks', () => {
  it('takes round steps that cover the values', () => {
    expect(niceTicks(12.1, 12.6, 3)).toEqual([12, 12.2, 12.4, 12.6]);
    expect(niceTicks(0, 950, 3)).toEqual([0, 500, 1000]);
    expect(niceTicks(0.1, 0.3, 2)).toEqual([0.1, 0.2, 0.3]);
    expect(niceTicks(4, 4, 3)).toEqual([4]);
  });

  it('keeps whole counts whole', () => {
    expect(niceTicks(0, 1, 3, true)).toEqual([0, 1]);
    expect(niceTicks(0, 1, 3)).toEqual([0, 0.5, 1]);
  });

  it('labels positions and click-through rates apart', () => {
    const position = (n: number, d: number) => formatNumber(n, d);
    expect(axisTicks([12.1, 12.3, 12.6], position)).toEqual({ ticks: [12, 12.2, 12.4, 12.6], decimals: 1 });
    const ctr = (n: number, d: number) => formatPercent(n, d);
    const { ticks, decimals } = axisTicks([0.021, 0.024, 0.026], ctr);
    expect(ticks.map((t) => ctr(t, decimals))).toEqual(['2%', '2.2%', '2.4%', '2.6%']);
    expect(axisTicks([3, 40, 900], position, { fromZero: true, isWhole: true }).decimals).toBe(0);
  });

  it('stops at four decimals when the labels never part', () => {
    expect(distinctDecimals([1, 1.00001], (n, d) => n.toFixed(d))).toBe(4);
  });
});
