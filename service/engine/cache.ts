/**
 * A least-recently-used cache bounded by entry count and by an estimate of the bytes it holds. Keys are compiled
 * queries (SQL plus bound values); the engine bypasses it on refresh/skipCache and clears it when the crawl store
 * changes.
 */
export interface LruCacheOptions {
  maxEntries: number;
  maxBytes: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

export class LruCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  /** Bumped by clear(), so a computation that started before a clear does not store a stale value after it. */
  #generation = 0;

  constructor(
    readonly options: LruCacheOptions,
    readonly sizeOf: (value: V, key: string) => number = (_value, key) => key.length * 2,
  ) {
    if (!(options.maxEntries > 0) || !(options.maxBytes > 0)) throw new Error('cache bounds must be positive');
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get stats(): { hits: number; misses: number } {
    return { hits: this.#hits, misses: this.#misses };
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    // Re-inserting moves the key to the most recent end of the Map's order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  set(key: string, value: V): void {
    const bytes = this.sizeOf(value, key);
    this.delete(key);
    // A value larger than the whole cache is not kept: it would evict everything else for nothing.
    if (bytes > this.options.maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.options.maxEntries || this.#bytes > this.options.maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
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
