import { describe, expect, it } from 'vitest';
import { readStorePollMs } from './config.ts';

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
