// Seeded PRNG: sfc32 seeded through splitmix32 from a number or a string; state is four uint32s.

/** 32-bit hash of a string (FNV-1a), used to turn string seeds into numbers. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 step: returns [output, nextState]. */
export function splitmix32(state: number): [number, number] {
  const next = (state + 0x9e3779b9) >>> 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [(z ^ (z >>> 16)) >>> 0, next];
}

/**
 * Mixes two 32-bit values into one well-distributed 32-bit value (stateless): the output of one
 * splitmix32 step from their combination, computed without the pair splitmix32 allocates (a
 * random walk draws millions of these).
 */
export function mix32(a: number, b: number): number {
  let z = ((((Math.imul(a >>> 0, 0x9e3779b1) ^ (b >>> 0)) >>> 0) + 0x9e3779b9) >>> 0);
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Turns a number or string seed into a 32-bit seed. */
export function seedToUint32(seed: number | string): number {
  if (typeof seed === 'string') return hashString(seed);
  if (!Number.isFinite(seed)) throw new Error('seed must be a finite number or a string');
  // Fold the high bits in so large integer seeds still differ.
  return (Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32)) >>> 0;
}

/**
 * sfc32 generator with explicit, serialisable state. The four words live in a Uint32Array: as
 * object fields, every word at or above 2^31 was a freshly allocated heap number on each draw.
 */
export class Sfc32 {
  private readonly s = new Uint32Array(4);

  constructor(seed: number | string) {
    let s = seedToUint32(seed);
    for (let i = 0; i < 4; i++) {
      const [v, n] = splitmix32(s);
      this.s[i] = v;
      s = n;
    }
    for (let i = 0; i < 12; i++) this.nextUint32(); // warm up
  }

  nextUint32(): number {
    // Stores into the Uint32Array take each word modulo 2^32 (what `>>> 0` did).
    const s = this.s;
    const a = s[0]!;
    const b = s[1]!;
    const c = s[2]!;
    const d = s[3]!;
    const t = (((a + b) >>> 0) + d) >>> 0;
    s[3] = d + 1;
    s[0] = b ^ (b >>> 9);
    s[1] = c + (c << 3);
    s[2] = ((c << 21) | (c >>> 11)) + t;
    return t;
  }

  state(): number[] {
    return [this.s[0]!, this.s[1]!, this.s[2]!, this.s[3]!];
  }

  setState(s: number[]): void {
    if (!Array.isArray(s) || s.length !== 4 || !s.every((x) => Number.isInteger(x))) throw new Error('bad sfc32 state');
    for (let i = 0; i < 4; i++) this.s[i] = s[i]! >>> 0;
  }
}
