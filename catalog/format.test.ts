import { describe, expect, it } from 'vitest';
import {
  capitalise,
  formatChange,
  formatCompactNumber,
  formatShortCount,
  formatCurrency,
  formatDate,
  formatNumber,
  formatPercent,
  formatWait,
  pluralise,
  toNumber,
} from './format.ts';

describe('British number formats', () => {
  it('groups thousands with commas and keeps the decimals asked for', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(0)).toBe('0');
  });

  it('shortens large numbers', () => {
    expect(formatCompactNumber(950)).toBe('950');
    expect(formatCompactNumber(12_345)).toBe('12k');
    expect(formatCompactNumber(1_234_567, 2)).toBe('1.23m');
  });

  it('keeps short counts exact up to 9,999, then one decimal, so none is rounded so far as to mislead', () => {
    expect(formatShortCount(7)).toBe('7');
    expect(formatShortCount(1_830)).toBe('1,830');
    expect(formatShortCount(9_999)).toBe('9,999');
    expect(formatShortCount(10_000)).toBe('10k');
    expect(formatShortCount(12_345)).toBe('12.3k');
    expect(formatShortCount(110_000)).toBe('110k');
    expect(formatShortCount(1_234_567)).toBe('1.2m');
  });

  it('shows money in pounds', () => {
    expect(formatCurrency(1234.5)).toBe('£1,234.50');
    expect(formatCurrency(0)).toBe('£0.00');
  });

  it('shows ratios as percentages', () => {
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatPercent(1)).toBe('100%');
  });

  it('signs changes and leaves zero unsigned', () => {
    expect(formatChange(1234)).toBe('+1,234');
    expect(formatChange(-56)).toBe('-56');
    expect(formatChange(0)).toBe('0');
  });

  it('reads numbers from API values', () => {
    expect(toNumber(12n)).toBe(12);
    expect(toNumber('3.5')).toBe(3.5);
    expect(toNumber('')).toBeNull();
    expect(toNumber(null)).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
  });

  it('pluralises with a formatted count', () => {
    expect(pluralise(1, 'row')).toBe('1 row');
    expect(pluralise(1200, 'row')).toBe('1,200 rows');
  });
});

describe('dates', () => {
  it("formats as 'd MMM yyyy'", () => {
    expect(formatDate('2025-03-04')).toBe('4 Mar 2025');
    expect(formatDate('2025-11-21T10:30:00Z')).toMatch(/^2[01] Nov 2025$/);
    expect(formatDate(new Date(2024, 0, 31))).toBe('31 Jan 2024');
    expect(formatDate(Date.UTC(2024, 5, 15, 12))).toBe('15 Jun 2024');
  });

  it('gives an empty string for missing or bad dates', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('capitalise', () => {
  it('turns identifiers into words', () => {
    expect(capitalise('robots_disallowed')).toBe('Robots disallowed');
    expect(capitalise('xml')).toBe('Xml');
    expect(capitalise('')).toBe('');
  });
});

describe('formatWait', () => {
  it('says a wait in seconds under a minute and in whole minutes, rounded up, beyond', () => {
    expect([0, 1, 30, 59, 60, 61, 349, 900].map(formatWait)).toEqual([
      '1 second',
      '1 second',
      '30 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes',
      '6 minutes',
      '15 minutes',
    ]);
  });
});
