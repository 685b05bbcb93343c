// SeededIds: the Ids port on top of one sfc32 generator; also an aux state for snapshots and rollbacks.
import type { Ids, IdsState } from '../../ports/ids.js';
import type { AuxState } from '../../ports/store.js';
import { Sfc32 } from './rng.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALGORITHM = 'sfc32';
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const DASH = '-'.charCodeAt(0);

/** Writes the two hex digits of `byte` at `at`; returns the next position. */
function putHex(codes: number[], at: number, byte: number): number {
  codes[at] = HEX_CODES[byte >> 4]!;
  codes[at + 1] = HEX_CODES[byte & 15]!;
  return at + 2;
}

/** Every identifier and random draw of a world comes from here. */
export class SeededIds implements Ids, AuxState {
  private readonly rng: Sfc32;
  /**
   * Character codes of a uuid, reused (ids are built synchronously, one at a time) and turned into
   * one flat one-byte string by String.fromCharCode: ids are stored in millions of rows, and a string
   * built by concatenation is a rope of several objects (about twice the memory).
   */
  private readonly uuidCodes: number[] = new Array<number>(36).fill(0);

  constructor(seed: number | string) {
    this.rng = new Sfc32(seed);
  }

  random(): number {
    return this.rng.nextUint32() / 2 ** 32;
  }

  hex(bytes: number): string {
    const codes = new Array<number>(2 * bytes);
    let at = 0;
    for (let i = 0; i < bytes; i++) at = putHex(codes, at, this.rng.nextUint32() & 0xff);
    return String.fromCharCode.apply(null, codes);
  }

  uuid(): string {
    // Sixteen draws as hex, version nibble 4, variant nibble 8-b, dashes after 4, 6, 8 and 10 bytes.
    const codes = this.uuidCodes;
    let at = 0;
    for (let i = 0; i < 16; i++) {
      let b = this.rng.nextUint32() & 0xff;
      if (i === 6) b = 0x40 | (b & 0x0f);
      else if (i === 8) b = ((8 | ((b >> 4) & 3)) << 4) | (b & 0x0f);
      if (i === 4 || i === 6 || i === 8 || i === 10) codes[at++] = DASH;
      at = putHex(codes, at, b);
    }
    return String.fromCharCode.apply(null, codes);
  }

  apiKey(): string {
    return `${this.hex(8)}_${this.hex(8)}`;
  }

  nonce(): string {
    let out = '';
    for (let i = 0; i < 17; i++) out += ALNUM[this.rng.nextUint32() % ALNUM.length];
    return out;
  }

  wallet(): string {
    return `0x${this.hex(20)}`;
  }

  state(): IdsState {
    return { algorithm: ALGORITHM, state: this.rng.state() };
  }

  setState(s: IdsState): void {
    if (!s || s.algorithm !== ALGORITHM) throw new Error('SeededIds: unknown state');
    this.rng.setState(s.state);
  }

  capture(): unknown {
    return this.state();
  }

  apply(v: unknown): void {
    this.setState(v as IdsState);
  }
}
