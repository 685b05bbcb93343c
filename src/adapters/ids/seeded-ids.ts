// SeededIds: the Ids port on top of one sfc32 generator; also an aux state for snapshots and rollbacks.
import type { Ids, IdsState } from '../../ports/ids.js';
import type { AuxState } from '../../ports/store.js';
import { Sfc32 } from './rng.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALGORITHM = 'sfc32';
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const DASH = '-'.charCodeAt(0);

/** One reusable buffer of character codes (ids are built synchronously, one at a time). */
const codeBuffer: number[] = [];

function scratch(): number[] {
  codeBuffer.length = 0;
  return codeBuffer;
}

function pushHex(codes: number[], byte: number): void {
  codes.push(HEX_CODES[byte >> 4]!, HEX_CODES[byte & 15]!);
}

/**
 * One flat string from character codes. Ids are stored in millions of rows: a string built by
 * concatenation is a rope of several objects, this is a single sequential one (about half the memory).
 */
function fromCodes(codes: number[]): string {
  return String.fromCharCode.apply(null, codes);
}

/** Every identifier and random draw of a world comes from here. */
export class SeededIds implements Ids, AuxState {
  private readonly rng: Sfc32;

  constructor(seed: number | string) {
    this.rng = new Sfc32(seed);
  }

  random(): number {
    return this.rng.nextUint32() / 2 ** 32;
  }

  hex(bytes: number): string {
    const codes = scratch();
    for (let i = 0; i < bytes; i++) pushHex(codes, this.rng.nextUint32() & 0xff);
    return fromCodes(codes);
  }

  uuid(): string {
    // Sixteen draws as hex, version nibble 4, variant nibble 8-b, dashes after 4, 6, 8 and 10 bytes.
    const codes = scratch();
    for (let i = 0; i < 16; i++) {
      let b = this.rng.nextUint32() & 0xff;
      if (i === 6) b = 0x40 | (b & 0x0f);
      else if (i === 8) b = ((8 | ((b >> 4) & 3)) << 4) | (b & 0x0f);
      if (i === 4 || i === 6 || i === 8 || i === 10) codes.push(DASH);
      pushHex(codes, b);
    }
    return fromCodes(codes);
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
