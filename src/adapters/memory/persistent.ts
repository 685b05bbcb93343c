// Copy-on-write building blocks of the memory store: chunked vectors, sorted ordinal lists and hash-sharded maps whose nodes snapshots share.

/**
 * Generation counter of one store. Every node (vector chunk, list, map shard, spine) records the
 * generation it was created in and is written in place only while that is the current one; a
 * snapshot or a restore moves to a new generation, so from then on the live structures copy a node
 * before changing it and the snapshot's nodes are never touched again.
 */
export class Generation {
  current = 1;

  /** Starts a new generation: every existing node becomes shared (read-only). */
  next(): void {
    this.current += 1;
  }
}

const CHUNK_BITS = 9;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

interface VecChunk<T> { gen: number; items: (T | undefined)[] }

/** A vector as a snapshot holds it (never mutated). */
export interface FrozenVec<T> { readonly spine: readonly VecChunk<T>[]; readonly length: number }

/** A vector indexed by ordinal, in chunks of 512 slots; `undefined` is an empty slot. */
export class ChunkVec<T> {
  private spine: VecChunk<T>[];
  private spineGen: number;
  /** One past the highest slot written. */
  length: number;

  constructor(private readonly g: Generation, from?: FrozenVec<T>) {
    this.spine = from ? (from.spine as VecChunk<T>[]) : [];
    this.length = from ? from.length : 0;
    this.spineGen = from ? 0 : g.current;
  }

  get(i: number): T | undefined {
    const c = this.spine[i >>> CHUNK_BITS];
    return c === undefined ? undefined : c.items[i & CHUNK_MASK];
  }

  set(i: number, v: T | undefined): void {
    const gen = this.g.current;
    let spine = this.spine;
    if (this.spineGen !== gen) {
      spine = this.spine = spine.slice();
      this.spineGen = gen;
    }
    const ci = i >>> CHUNK_BITS;
    while (spine.length < ci) spine.push({ gen, items: [] });
    let c = spine[ci];
    if (c === undefined) spine[ci] = c = { gen, items: [] };
    else if (c.gen !== gen) spine[ci] = c = { gen, items: c.items.slice() };
    const k = i & CHUNK_MASK;
    // Keep the chunk's element array packed: fill any gap with empty slots first.
    while (c.items.length < k) c.items.push(undefined);
    c.items[k] = v;
    if (i >= this.length) this.length = i + 1;
  }

  /** Forgets slots from `n` on (they must be empty); the next append reuses slot `n`. */
  truncate(n: number): void {
    if (n < this.length) this.length = n;
  }

  /** Calls `fn` for every filled slot, in slot order. */
  forEach(fn: (v: T, i: number) => void): void {
    const spine = this.spine;
    const n = this.length;
    for (let ci = 0; ci < spine.length && ci << CHUNK_BITS < n; ci++) {
      const items = spine[ci]!.items;
      const base = ci << CHUNK_BITS;
      const end = Math.min(items.length, n - base);
      for (let k = 0; k < end; k++) {
        const v = items[k];
        if (v !== undefined) fn(v, base + k);
      }
    }
  }

  /** The current contents for a snapshot; the caller starts a new generation right after. */
  freeze(): FrozenVec<T> {
    return { spine: this.spine, length: this.length };
  }
}

interface OrdChunk { gen: number; a: number[] }

/**
 * A sorted list of non-negative integers (row ordinals of one index key), in chunks. Appending
 * a value larger than all others, the common case, is O(1); inserting or removing elsewhere
 * touches one chunk.
 */
export class OrdList {
  constructor(readonly gen: number, private chunks: OrdChunk[] = [], public size = 0) {}

  /** A copy for generation `gen` that shares its chunks until they change. */
  clone(gen: number): OrdList {
    return new OrdList(gen, this.chunks.slice(), this.size);
  }

  /** Largest value (-1 when empty). */
  last(): number {
    const c = this.chunks[this.chunks.length - 1];
    return c === undefined ? -1 : c.a[c.a.length - 1]!;
  }

  private writable(ci: number): number[] {
    const c = this.chunks[ci]!;
    if (c.gen === this.gen) return c.a;
    const copy = { gen: this.gen, a: c.a.slice() };
    this.chunks[ci] = copy;
    return copy.a;
  }

  /** Adds `v` (a no-op if present). */
  add(v: number): void {
    const n = this.chunks.length;
    if (n === 0 || v > this.last()) {
      const last = this.chunks[n - 1];
      if (last === undefined || last.a.length >= CHUNK) this.chunks.push({ gen: this.gen, a: [v] });
      else this.writable(n - 1).push(v);
      this.size += 1;
      return;
    }
    const ci = this.chunkFor(v);
    const a = this.writable(ci);
    const at = lowerBound(a, v);
    if (a[at] === v) return;
    a.splice(at, 0, v);
    this.size += 1;
    if (a.length > 2 * CHUNK) this.chunks.splice(ci + 1, 0, { gen: this.gen, a: a.splice(CHUNK) });
  }

  /** Removes `v`; false when absent. */
  remove(v: number): boolean {
    if (this.chunks.length === 0 || v > this.last()) return false;
    const ci = this.chunkFor(v);
    const c = this.chunks[ci]!.a;
    const at = lowerBound(c, v);
    if (c[at] !== v) return false;
    const a = this.writable(ci);
    if (at === a.length - 1) a.pop();
    else a.splice(at, 1);
    if (a.length === 0) this.chunks.splice(ci, 1);
    this.size -= 1;
    return true;
  }

  /** Calls `fn` for every value, ascending. */
  forEach(fn: (v: number) => void): void {
    for (const c of this.chunks) for (const v of c.a) fn(v);
  }

  /** Values at positions `start` .. `end - 1` (already clamped to 0 .. size), ascending; walks chunks, not values. */
  range(start: number, end: number): number[] {
    const out: number[] = [];
    let base = 0;
    for (const c of this.chunks) {
      const n = c.a.length;
      if (base + n > start) {
        for (let k = Math.max(0, start - base); k < n && base + k < end; k++) out.push(c.a[k]!);
      }
      base += n;
      if (base >= end) break;
    }
    return out;
  }

  /** First chunk whose last value is >= v (the list is non-empty and v <= last()). */
  private chunkFor(v: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const a = this.chunks[mid]!.a;
      if (a[a.length - 1]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lowerBound(a: readonly number[], v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A map key: row ids and index keys. */
export type Key = string | number;

/**
 * Shard hash of a key. Strings hash their length and their first and last 8 characters (random
 * ids and composite index keys differ in one or the other; keys alike at both ends only make
 * shards uneven, never wrong), numbers their bits.
 */
export function hashKey(k: Key): number {
  let h: number;
  if (typeof k === 'number') {
    h = (k | 0) === k ? k : Math.trunc(k) ^ Math.trunc(k / 4294967296) ^ Math.trunc((k % 1) * 4294967296);
  } else {
    const n = k.length;
    h = 0x811c9dc5 ^ n;
    if (n <= 16) {
      for (let i = 0; i < n; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
    } else {
      for (let i = 0; i < 8; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
      for (let i = n - 8; i < n; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
    }
  }
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

interface Shard<V> { gen: number; map: Map<Key, V> }

/** A map as a snapshot holds it (never mutated). */
export interface FrozenShardMap<V> { readonly shards: readonly Shard<V>[]; readonly size: number }

/** Average entries per shard before the shard count quadruples. */
const SHARD_FILL = 256;

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
    return (this.mask === 0 ? this.shards[0]! : this.shards[hashKey(k) & this.mask]!).map.get(k);
  }

  /** Shard number of `k`, for {@link getAt} and {@link setAt} (one hash for a lookup and a write). */
  slot(k: Key): number {
    return this.mask === 0 ? 0 : hashKey(k) & this.mask;
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
    return (this.mask === 0 ? this.shards[0]! : this.shards[hashKey(k) & this.mask]!).map.has(k);
  }

  set(k: Key, v: V): void {
    this.setAt(this.slot(k), k, v);
  }

  delete(k: Key): boolean {
    const i = this.mask === 0 ? 0 : hashKey(k) & this.mask;
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
    for (const s of this.shards) for (const [k, v] of s.map) shards[hashKey(k) & mask]!.map.set(k, v);
    this.shards = shards;
    this.spineGen = gen;
    this.mask = mask;
  }
}
