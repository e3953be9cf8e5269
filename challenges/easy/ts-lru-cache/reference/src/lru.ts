/** A least-recently-used cache with a fixed capacity. */

export interface LRUOptions<K, V> {
  /** Called for every entry evicted to make room (not for delete, clear or replacement). */
  onEvict?: (key: K, value: V) => void;
}

/**
 * Map iteration order is insertion order, so the least recently used entry is the first one;
 * re-inserting an entry makes it the most recently used. Every operation is O(1).
 */
export class LRUCache<K, V> {
  readonly capacity: number;
  private readonly entries = new Map<K, V>();
  private readonly onEvict: ((key: K, value: V) => void) | undefined;

  constructor(capacity: number, options: LRUOptions<K, V> = {}) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.onEvict = options.onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) {
      return undefined;
    }
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      this.evictOldest();
    }
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  keys(): K[] {
    return [...this.entries.keys()].reverse();
  }

  private evictOldest(): void {
    const [key, value] = this.entries.entries().next().value as [K, V];
    this.entries.delete(key);
    this.onEvict?.(key, value);
  }
}
