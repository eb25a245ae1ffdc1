/**
 * A read-only map that looks in its own entries first and then in a parent's.
 * A scenario's types sit on top of the Background's without copying them, so
 * building a contract stays linear in its size however many types it shares.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  constructor(
    private readonly own: ReadonlyMap<K, V>,
    private readonly parent: ReadonlyMap<K, V>,
  ) {}

  get(key: K): V | undefined {
    const v = this.own.get(key);
    return v !== undefined || this.own.has(key) ? v : this.parent.get(key);
  }

  has(key: K): boolean {
    return this.own.has(key) || this.parent.has(key);
  }

  get size(): number {
    let n = this.own.size;
    for (const k of this.parent.keys()) if (!this.own.has(k)) n++;
    return n;
  }

  *entries(): MapIterator<[K, V]> {
    yield* this.own.entries();
    for (const [k, v] of this.parent) if (!this.own.has(k)) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}
