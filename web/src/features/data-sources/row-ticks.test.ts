import { describe, expect, it } from 'vitest';
import { rowTicks } from './row-ticks.ts';

describe('the coverage chart row axis', () => {
  it('ticks whole rows only, from 0 to at least the largest day', () => {
    expect(rowTicks(2)).toEqual([0, 1, 2]);
    expect(rowTicks(4)).toEqual([0, 2, 4]);
    expect(rowTicks(1)).toEqual([0, 1]);
    expect(rowTicks(0)).toEqual([0, 1]);
    expect(rowTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(rowTicks(30_000_000)).toEqual([0, 10_000_000, 20_000_000, 30_000_000]);
  });
});
