/**
 * Resets of stores that come with a lazily loaded page (the report store, and Arrow with it): each registers itself
 * when its module loads, so code in the first bundle can reset it without importing it, and a store never loaded
 * has nothing to reset.
 */
const resets = new Set<() => void>();

export function registerLazyStoreReset(reset: () => void): void {
  resets.add(reset);
}

export function resetLazyStores(): void {
  for (const reset of resets) reset();
}
