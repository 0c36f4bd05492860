import { describe, expect, it } from 'vitest';
import { estimateBytes, LruCache } from './cache.ts';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond maxEntries', () => {
    const cache = new LruCache<number>({ maxEntries: 2, maxBytes: 1e6 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.size).toBe(2);
  });

  it('stays within maxBytes and refuses a value larger than the whole cache', () => {
    const cache = new LruCache<string>({ maxEntries: 100, maxBytes: 100 }, (value) => value.length);
    cache.set('a', 'x'.repeat(60));
    cache.set('b', 'x'.repeat(30));
    cache.set('c', 'x'.repeat(30));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([false, true, true]);
    expect(cache.bytes).toBe(60);
    cache.set('huge', 'x'.repeat(101));
    expect(cache.has('huge')).toBe(false);
    expect(cache.bytes).toBe(60);
    cache.set('b', 'x');
    expect(cache.bytes).toBe(31);
  });

  it('computes once, bypasses on request, and counts hits and misses', async () => {
    const cache = new LruCache<number>({ maxEntries: 10, maxBytes: 1e6 });
    let calls = 0;
    const compute = () => Promise.resolve(++calls);
    expect(await cache.getOrCompute('k', compute)).toBe(1);
    expect(await cache.getOrCompute('k', compute)).toBe(1);
    expect(await cache.getOrCompute('k', compute, true)).toBe(2);
    expect(await cache.getOrCompute('k', compute)).toBe(2);
    expect(cache.stats).toEqual({ hits: 2, misses: 1 });
  });

  it('does not store a value computed across a clear', async () => {
    const cache = new LruCache<number>({ maxEntries: 10, maxBytes: 1e6 });
    let release: (n: number) => void = () => {};
    const pending = cache.getOrCompute('k', () => new Promise<number>((resolve) => (release = resolve)));
    cache.clear();
    release(7);
    expect(await pending).toBe(7);
    expect(cache.has('k')).toBe(false);
  });

  it('rejects non-positive bounds', () => {
    expect(() => new LruCache({ maxEntries: 0, maxBytes: 1 })).toThrow();
  });
});

describe('estimateBytes', () => {
  it('grows with content', () => {
    expect(estimateBytes(['abc', 1, null])).toBeGreaterThan(estimateBytes([]));
    expect(estimateBytes({ a: 'x'.repeat(100) })).toBeGreaterThan(200);
  });
});
