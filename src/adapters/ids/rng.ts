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

/** Mixes two 32-bit values into one well-distributed 32-bit value (stateless). */
export function mix32(a: number, b: number): number {
  return splitmix32((Math.imul(a >>> 0, 0x9e3779b1) ^ (b >>> 0)) >>> 0)[0];
}

/** Turns a number or string seed into a 32-bit seed. */
export function seedToUint32(seed: number | string): number {
  if (typeof seed === 'string') return hashString(seed);
  if (!Number.isFinite(seed)) throw new Error('seed must be a finite number or a string');
  // Fold the high bits in so large integer seeds still differ.
  return (Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32)) >>> 0;
}

/** sfc32 generator with explicit, serialisable state. */
export class Sfc32 {
  private a: number; private b: number; private c: number; private d: number;

  constructor(seed: number | string) {
    let s = seedToUint32(seed);
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [v, n] = splitmix32(s);
      out.push(v);
      s = n;
    }
    [this.a, this.b, this.c, this.d] = out as [number, number, number, number];
    for (let i = 0; i < 12; i++) this.nextUint32(); // warm up
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  state(): number[] {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }

  setState(s: number[]): void {
    if (!Array.isArray(s) || s.length !== 4 || !s.every((x) => Number.isInteger(x))) throw new Error('bad sfc32 state');
    [this.a, this.b, this.c, this.d] = s.map((x) => x >>> 0) as [number, number, number, number];
  }
}
