import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './client.ts';

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2025-03-03T09:00:00Z');
    expect(parseRetryAfter('349', now)).toBe(349);
    expect(parseRetryAfter(' 30 ', now)).toBe(30);
    expect(parseRetryAfter('Mon, 03 Mar 2025 09:15:00 GMT', now)).toBe(900);
    expect(parseRetryAfter('Mon, 03 Mar 2025 08:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
