// OrdList: a copy-on-write sorted list of row ordinals (one index key), in chunks that snapshots share.
import { CHUNK } from './generation.js';

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
