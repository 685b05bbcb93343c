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

/**
 * A chunk of an {@link OrdList}: a growing array while it is written, an Int32Array (4 bytes a
 * value, nothing for the garbage collector to trace) once appends have moved past it.
 */
interface OrdChunk { gen: number; a: number[] | Int32Array }

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

  /** Chunk `ci` as an array this generation may change (a filled or shared chunk is copied first). */
  private writable(ci: number): number[] {
    const c = this.chunks[ci]!;
    if (c.gen === this.gen && Array.isArray(c.a)) return c.a;
    const copy = { gen: this.gen, a: Array.from(c.a) };
    this.chunks[ci] = copy;
    return copy.a;
  }

  /** Adds `v` (a no-op if present). */
  add(v: number): void {
    const n = this.chunks.length;
    if (n === 0 || v > this.last()) {
      const last = this.chunks[n - 1];
      if (last !== undefined && last.a.length < CHUNK) this.writable(n - 1).push(v);
      else {
        // A full tail chunk is done growing: sealed before the next one starts.
        if (last !== undefined && Array.isArray(last.a)) this.chunks[n - 1] = { gen: this.gen, a: Int32Array.from(last.a) };
        this.chunks.push({ gen: this.gen, a: [v] });
      }
      this.size += 1;
      return;
    }
    const ci = this.chunkFor(v);
    const at = lowerBound(this.chunks[ci]!.a, v);
    if (this.chunks[ci]!.a[at] === v) return;
    const a = this.writable(ci);
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
    for (const c of this.chunks) {
      const a = c.a;
      for (let k = 0; k < a.length; k++) fn(a[k]!);
    }
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

function lowerBound(a: ArrayLike<number>, v: number): number {
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

/** FNV-1a steps over characters `from` .. `to - 1` of `k`. */
function fnv(h: number, k: string, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
  return h;
}

/** Final mix: low and high bits both usable. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Hash of a number's bits. */
function numberHash(k: number): number {
  return mix((k | 0) === k ? k : Math.trunc(k) ^ Math.trunc(k / 4294967296) ^ Math.trunc((k % 1) * 4294967296));
}

/**
 * Hash of a key over every character of a string, for {@link IdMap}: its open addressing needs
 * keys alike at both ends to spread too.
 */
export function hashKey(k: Key): number {
  return typeof k === 'number' ? numberHash(k) : mix(fnv(0x811c9dc5 ^ k.length, k, 0, k.length));
}

/**
 * Shard hash of a {@link ShardMap} key: the length and the first and last 8 characters (random ids
 * and composite index keys differ in one or the other). Keys alike at both ends only make shards
 * uneven, never slow or wrong: each shard is a native Map.
 */
function shardHash(k: Key): number {
  if (typeof k === 'number') return numberHash(k);
  const n = k.length;
  const h = 0x811c9dc5 ^ n;
  return mix(n <= 16 ? fnv(h, k, 0, n) : fnv(fnv(h, k, 0, 8), k, n - 8, n));
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

/** The key of the row at an ordinal (undefined for an empty slot): an {@link IdMap} stores ordinals only and reads keys back. */
export type KeyAt = (ord: number) => Key | undefined;

/**
 * One open-addressing table of `slots.length / 2` slots: slot `i` is the pair `slots[2i]` (the
 * key's hash, as a signed 32-bit value) and `slots[2i + 1]` (ordinal + 1; 0 is empty, -1 a
 * deleted entry).
 */
interface IdShard { gen: number; slots: Int32Array; live: number; used: number }

/** An id map as a snapshot holds it (never mutated). */
export interface FrozenIdMap { readonly shards: readonly IdShard[]; readonly size: number; readonly bits: number }

const EMPTY = 0;
const DELETED = -1;
/** Smallest slot count of a shard. */
const MIN_SLOTS = 8;

/** Same key as a Map compares (SameValueZero): NaN equals NaN. */
function sameKey(a: Key | undefined, b: Key): boolean {
  return a === b || (a !== a && b !== b);
}

/** A slot array with room for `live` entries filling at most half of it. */
function slotsFor(live: number): Int32Array {
  let n = MIN_SLOTS;
  while (n < live * 2) n *= 2;
  return new Int32Array(n * 2);
}

/** Puts the pair (hash, ordinal) into the first empty slot of its probe run (the key is not present). */
function place(slots: Int32Array, bits: number, h: number, ord1: number): void {
  const m = (slots.length >> 1) - 1;
  let i = (h >>> bits) & m;
  while (slots[2 * i + 1] !== EMPTY) i = (i + 1) & m;
  slots[2 * i] = h;
  slots[2 * i + 1] = ord1;
}

/**
 * Row id -> ordinal, for ids held by the rows themselves. Each shard is an open-addressing table
 * (linear probing) of 32-bit pairs, the key's hash and its ordinal; a lookup compares hashes and
 * confirms a match with the id of the row at that ordinal (`keyAt`). Keys are not stored twice,
 * an entry costs about 16 bytes instead of a native Map entry's thirty-odd, holds no pointer for
 * the garbage collector to trace, and growing never reads a row. Shards are copy-on-write per
 * {@link Generation}, as in {@link ShardMap}.
 *
 * Callers keep `keyAt` consistent: an entry is added after its row is readable at its ordinal, and
 * removed before the row leaves it.
 */
export class IdMap {
  private shards: IdShard[];
  private spineGen: number;
  /** log2 of the shard count; a hash picks its shard with the low bits and its slot with the bits above. */
  private bits: number;
  size: number;

  constructor(private readonly g: Generation, private readonly keyAt: KeyAt, from?: FrozenIdMap) {
    if (from) {
      this.shards = from.shards as IdShard[];
      this.size = from.size;
      this.bits = from.bits;
      this.spineGen = 0;
    } else {
      this.shards = [{ gen: g.current, slots: slotsFor(0), live: 0, used: 0 }];
      this.size = 0;
      this.bits = 0;
      this.spineGen = g.current;
    }
  }

  get(k: Key): number | undefined {
    return this.getAt(hashKey(k), k);
  }

  has(k: Key): boolean {
    return this.getAt(hashKey(k), k) !== undefined;
  }

  /** Lookup with the key's {@link hashKey} (one hash for a lookup and a write). */
  getAt(h: number, k: Key): number | undefined {
    const slots = this.shards[h & ((1 << this.bits) - 1)]!.slots;
    const i = this.slotOf(slots, h, k);
    return i < 0 ? undefined : slots[2 * i + 1]! - 1;
  }

  /** The slot of `k` (hash `h`) among a shard's slots, or -1. */
  private slotOf(slots: Int32Array, h: number, k: Key): number {
    const m = (slots.length >> 1) - 1;
    const hs = h | 0;
    for (let i = (h >>> this.bits) & m; ; i = (i + 1) & m) {
      const v = slots[2 * i + 1]!;
      if (v === EMPTY) return -1;
      if (v > 0 && slots[2 * i] === hs && sameKey(this.keyAt(v - 1), k)) return i;
    }
  }

  set(k: Key, ord: number): void {
    this.setAt(hashKey(k), k, ord);
  }

  /** `set` with the key's {@link hashKey}. */
  setAt(h: number, k: Key, ord: number): void {
    const s = this.writable(h & ((1 << this.bits) - 1));
    const slots = s.slots;
    const m = (slots.length >> 1) - 1;
    const hs = h | 0;
    let free = -1;
    let i = (h >>> this.bits) & m;
    for (; ; i = (i + 1) & m) {
      const v = slots[2 * i + 1]!;
      if (v === EMPTY) break;
      if (v === DELETED) {
        if (free < 0) free = i;
      } else if (slots[2 * i] === hs && sameKey(this.keyAt(v - 1), k)) {
        slots[2 * i + 1] = ord + 1;
        return;
      }
    }
    if (free >= 0) i = free;
    else s.used += 1;
    slots[2 * i] = hs;
    slots[2 * i + 1] = ord + 1;
    s.live += 1;
    this.size += 1;
    if (this.size > SHARD_FILL << this.bits) this.grow();
    else if (s.used * 8 > slots.length * 3) this.rebuild(s);
  }

  delete(k: Key): boolean {
    const h = hashKey(k);
    const si = h & ((1 << this.bits) - 1);
    const i = this.slotOf(this.shards[si]!.slots, h, k);
    if (i < 0) return false;
    // A shared shard is copied slot for slot, so the slot found is the copy's too.
    const s = this.writable(si);
    s.slots[2 * i + 1] = DELETED;
    s.live -= 1;
    this.size -= 1;
    return true;
  }

  /** The current contents for a snapshot; the caller starts a new generation right after. */
  freeze(): FrozenIdMap {
    return { shards: this.shards, size: this.size, bits: this.bits };
  }

  private writable(i: number): IdShard {
    const gen = this.g.current;
    if (this.spineGen !== gen) {
      this.shards = this.shards.slice();
      this.spineGen = gen;
    }
    let s = this.shards[i]!;
    if (s.gen !== gen) this.shards[i] = s = { gen, slots: s.slots.slice(), live: s.live, used: s.used };
    return s;
  }

  /** Re-lays a (writable) shard that growth and deleted entries filled: half full or less afterwards. */
  private rebuild(s: IdShard): void {
    const old = s.slots;
    const slots = slotsFor(s.live);
    for (let i = 1; i < old.length; i += 2) if (old[i]! > 0) place(slots, this.bits, old[i - 1]!, old[i]!);
    s.slots = slots;
    s.used = s.live;
  }

  /** Four times the shards, every entry placed again by its stored hash. */
  private grow(): void {
    const gen = this.g.current;
    const bits = this.bits + 2;
    const n = 1 << bits;
    // Each new shard is sized for what lands in it before anything is placed.
    const counts = new Int32Array(n);
    for (const s of this.shards) for (let i = 1; i < s.slots.length; i += 2) if (s.slots[i]! > 0) counts[s.slots[i - 1]! & (n - 1)]! += 1;
    const shards: IdShard[] = [];
    for (let j = 0; j < n; j++) shards.push({ gen, slots: slotsFor(counts[j]!), live: 0, used: 0 });
    for (const s of this.shards) {
      const old = s.slots;
      for (let i = 1; i < old.length; i += 2) {
        if (old[i]! <= 0) continue;
        const t = shards[old[i - 1]! & (n - 1)]!;
        place(t.slots, bits, old[i - 1]!, old[i]!);
        t.live += 1;
        t.used += 1;
      }
    }
    this.shards = shards;
    this.bits = bits;
    this.spineGen = gen;
  }
}
