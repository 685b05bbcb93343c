// ChunkVec: a copy-on-write vector of rows by ordinal, in chunks of 512 slots that snapshots share.
import { CHUNK_BITS, CHUNK_MASK, type Generation } from './generation.js';

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
