// IdMap: row id -> ordinal as copy-on-write open-addressing tables of 32-bit pairs, keys read back from the rows.
import type { Generation } from './generation.js';
import { hashKey, SHARD_FILL, type Key } from './hash-keys.js';

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
