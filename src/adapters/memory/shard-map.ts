// ShardMap: a copy-on-write hash map split into native Maps by key hash, so a write copies one shard.
import type { Generation } from './generation.js';
import { SHARD_FILL, shardHash, type Key } from './hash-keys.js';

interface Shard<V> { gen: number; map: Map<Key, V> }

/** A map as a snapshot holds it (never mutated). */
export interface FrozenShardMap<V> { readonly shards: readonly Shard<V>[]; readonly size: number }

/**
 * A hash map split into native Maps by key hash: a write copies one shard (at most a few hundred
 * entries) the first time it touches it in a generation, so snapshots share everything else.
 */
export class ShardMap<V> {
  private shards: Shard<V>[];
  private spineGen: number;
  private mask: number;
  size: number;

  constructor(private readonly g: Generation, from?: FrozenShardMap<V>) {
    if (from) {
      this.shards = from.shards as Shard<V>[];
      this.size = from.size;
      this.spineGen = 0;
    } else {
      this.shards = [{ gen: g.current, map: new Map() }];
      this.size = 0;
      this.spineGen = g.current;
    }
    this.mask = this.shards.length - 1;
  }

  get(k: Key): V | undefined {
    return (this.mask === 0 ? this.shards[0]! : this.shards[shardHash(k) & this.mask]!).map.get(k);
  }

  /** Shard number of `k`, for {@link getAt} and {@link setAt} (one hash for a lookup and a write). */
  slot(k: Key): number {
    return this.mask === 0 ? 0 : shardHash(k) & this.mask;
  }

  getAt(slot: number, k: Key): V | undefined {
    return this.shards[slot]!.map.get(k);
  }

  /** `set` with the key's {@link slot} (taken before any other write). */
  setAt(slot: number, k: Key, v: V): void {
    const m = this.writable(slot);
    const before = m.size;
    m.set(k, v);
    if (m.size !== before) {
      this.size += 1;
      if (this.size > this.shards.length * SHARD_FILL) this.grow();
    }
  }

  has(k: Key): boolean {
    return (this.mask === 0 ? this.shards[0]! : this.shards[shardHash(k) & this.mask]!).map.has(k);
  }

  set(k: Key, v: V): void {
    this.setAt(this.slot(k), k, v);
  }

  delete(k: Key): boolean {
    const i = this.mask === 0 ? 0 : shardHash(k) & this.mask;
    if (!this.shards[i]!.map.has(k)) return false;
    this.writable(i).delete(k);
    this.size -= 1;
    return true;
  }

  /** Calls `fn` for every entry (shard order, not insertion order). */
  forEach(fn: (v: V, k: Key) => void): void {
    for (const s of this.shards) s.map.forEach(fn);
  }

  /** The current contents for a snapshot; the caller starts a new generation right after. */
  freeze(): FrozenShardMap<V> {
    return { shards: this.shards, size: this.size };
  }

  private writable(i: number): Map<Key, V> {
    const gen = this.g.current;
    if (this.spineGen !== gen) {
      this.shards = this.shards.slice();
      this.spineGen = gen;
    }
    let s = this.shards[i]!;
    if (s.gen !== gen) this.shards[i] = s = { gen, map: new Map(s.map) };
    return s.map;
  }

  private grow(): void {
    const gen = this.g.current;
    const n = this.shards.length * 4;
    const shards: Shard<V>[] = [];
    for (let i = 0; i < n; i++) shards.push({ gen, map: new Map() });
    const mask = n - 1;
    for (const s of this.shards) for (const [k, v] of s.map) shards[shardHash(k) & mask]!.map.set(k, v);
    this.shards = shards;
    this.spineGen = gen;
    this.mask = mask;
  }
}
