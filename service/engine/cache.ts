import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache (lru-cache) bounded by entry count and by an estimate of the bytes it holds, which
 * never keeps a value computed across a clear. Keys are compiled queries (SQL plus bound values); the engine bypasses
 * it on refresh/skipCache and clears it when the crawl store changes.
 */
export interface LruCacheOptions {
  maxEntries: number;
  maxBytes: number;
}

export class LruCache<V extends NonNullable<unknown>> {
  readonly #entries: LRUCache<string, V>;
  #hits = 0;
  #misses = 0;
  /** Bumped by clear(), so a computation that started before a clear does not store a stale value after it. */
  #generation = 0;

  constructor(
    readonly options: LruCacheOptions,
    readonly sizeOf: (value: V, key: string) => number = (_value, key) => key.length * 2,
  ) {
    if (!(options.maxEntries > 0) || !(options.maxBytes > 0)) throw new Error('cache bounds must be positive');
    // A value larger than the whole cache is not kept (lru-cache refuses it): it would evict everything for nothing.
    this.#entries = new LRUCache<string, V>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  get stats(): { hits: number; misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) this.#misses += 1;
    else this.#hits += 1;
    return value;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#generation += 1;
  }

  /** Returns the cached value, or computes, stores and returns it; `bypass` skips the read but stores the result. */
  async getOrCompute(key: string, compute: () => Promise<V>, bypass = false): Promise<V> {
    if (!bypass) {
      const cached = this.get(key);
      if (cached !== undefined) return cached;
    }
    const generation = this.#generation;
    const value = await compute();
    if (generation === this.#generation) this.set(key, value);
    return value;
  }
}

/** A rough size in bytes of JSON-like data, for cache bounds. */
export function estimateBytes(value: unknown): number {
  if (value === null || value === undefined) return 8;
  switch (typeof value) {
    case 'string':
      return 16 + value.length * 2;
    case 'number':
    case 'boolean':
    case 'bigint':
      return 8;
    case 'object': {
      if (Array.isArray(value)) return value.reduce((n: number, v) => n + estimateBytes(v), 16);
      let n = 16;
      for (const [k, v] of Object.entries(value)) n += k.length * 2 + estimateBytes(v);
      return n;
    }
    default:
      return 8;
  }
}
