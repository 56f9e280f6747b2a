/**
 * A least-recently-used map that keeps the summed size of its values within a budget, dropping
 * the least recently used first. A value bigger than an eighth of the budget is not kept: one
 * large entry would otherwise push out many small ones.
 */
export class SizedLru<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  private readonly entries = new Map<K, { value: V; size: number }>();
  private used = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.budget / 8) return;
    this.entries.set(key, { value, size });
    this.used += size;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= entry.size;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.size;
  }

  /** Summed size of the values kept. */
  get bytes(): number {
    return this.used;
  }

  get count(): number {
    return this.entries.size;
  }
}
