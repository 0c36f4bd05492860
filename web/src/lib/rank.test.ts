import { describe, expect, it } from 'vitest';
import { clampRank, rankBand, reportIndicatorKind } from './rank.ts';

describe('rank bands 0-24, 25-49, 50-74, 75-100', () => {
  it.each([
    [0, 'green'],
    [24, 'green'],
    [25, 'yellow'],
    [49, 'yellow'],
    [50, 'orange'],
    [74, 'orange'],
    [75, 'red'],
    [100, 'red'],
  ])('rank %i is %s', (rank, colour) => {
    expect(rankBand(rank).colour).toBe(colour);
  });

  it('rounds and clamps out-of-range ranks', () => {
    expect(clampRank(24.4)).toBe(24);
    expect(rankBand(24.6).colour).toBe('yellow');
    expect(clampRank(-5)).toBe(0);
    expect(clampRank(140)).toBe(100);
    expect(clampRank(Number.NaN)).toBe(0);
  });
});

describe('report indicator', () => {
  const base = { isLoading: false, severity: 'HIGH', rank: 40, rows: 12 };
  it('is a spinner while loading, whatever the data', () => {
    expect(reportIndicatorKind({ ...base, isLoading: true, severity: 'NONE' })).toBe('loading');
  });
  it('is a lock for NONE severity', () => {
    expect(reportIndicatorKind({ ...base, severity: 'NONE' })).toBe('locked');
    expect(reportIndicatorKind({ ...base, isUnavailable: true, rank: 0, rows: 0 })).toBe('unavailable');
    expect(reportIndicatorKind({ ...base, isUnavailable: true, severity: 'NONE' })).toBe('unavailable');
  });
  it('is a green tick at rank 0 with 0 rows', () => {
    expect(reportIndicatorKind({ ...base, rank: 0, rows: 0 })).toBe('clean');
    expect(reportIndicatorKind({ ...base, rank: undefined, rows: undefined })).toBe('clean');
  });
  it('is a ring otherwise', () => {
    expect(reportIndicatorKind(base)).toBe('rank');
    expect(reportIndicatorKind({ ...base, rank: 0, rows: 3 })).toBe('rank');
  });
});
