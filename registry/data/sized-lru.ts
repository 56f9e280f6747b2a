import { LRUCache } from "lru-cache";

/**
 * A least-recently-used map that keeps the summed size of its values within a budget, dropping
 * the least recently used first. A value bigger than an eighth of the budget is not kept (and
 * setting one drops what its key held): one large entry would otherwise push out many small
 * ones. lru-cache does the keeping (`maxSize`, `maxEntrySize`, `sizeCalculation`); this only
 * states those rules once for the registry's caches, and keeps nothing when the budget is too
 * small for any value (lru-cache takes no budget of 0). A value is counted as at least one byte.
 */
export class SizedLru<K extends {}, V extends {}> {
  private readonly cache: LRUCache<K, V> | undefined;

  constructor(budget: number, sizeOf: (value: V) => number) {
    const largest = Math.floor(budget / 8);
    this.cache =
      largest < 1
        ? undefined
        : new LRUCache<K, V>({
            maxSize: Math.floor(budget),
            maxEntrySize: largest,
            sizeCalculation: (value) => Math.max(1, Math.ceil(sizeOf(value))),
          });
  }

  get(key: K): V | undefined {
    return this.cache?.get(key);
  }

  set(key: K, value: V): void {
    this.cache?.set(key, value);
  }

  delete(key: K): void {
    this.cache?.delete(key);
  }

  clear(): void {
    this.cache?.clear();
  }

  /** Summed size of the values kept. */
  get bytes(): number {
    return this.cache?.calculatedSize ?? 0;
  }

  get count(): number {
    return this.cache?.size ?? 0;
  }
}
