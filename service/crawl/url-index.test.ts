import { describe, expect, it } from 'vitest';
import { UrlIndex, fingerprint } from './url-index.ts';

describe('UrlIndex', () => {
  it('gives each text one id, in order, across the growth of its table', () => {
    const index = new UrlIndex();
    const urls = Array.from({ length: 200_000 }, (_, i) => `https://example.com/p/${i}?q=${i % 7}`);
    urls.forEach((url, i) => expect(index.add(url)).toEqual({ id: i, isNew: true }));
    expect(index.size).toBe(urls.length);
    expect(index.add(urls[123_456]!)).toEqual({ id: 123_456, isNew: false });
    for (let i = 0; i < urls.length; i += 997) expect(index.get(urls[i]!)).toBe(i);
    expect(index.get('https://example.com/p/200000?q=0')).toBeUndefined();
  });

  it('tells apart texts that differ by one character, their order, or their length', () => {
    const seen = new Set<string>();
    for (const text of ['a', 'b', 'ab', 'ba', 'aa', 'a\u0000', '', 'https://x/é', 'https://x/e'])
      seen.add(fingerprint(text).join(':'));
    expect(seen.size).toBe(9);
  });
});
