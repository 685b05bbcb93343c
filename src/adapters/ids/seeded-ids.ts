// SeededIds: the Ids port on top of one sfc32 generator; also an aux state for snapshots and rollbacks.
import type { Ids, IdsState } from '../../ports/ids.js';
import type { AuxState } from '../../ports/store.js';
import { Sfc32 } from './rng.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALGORITHM = 'sfc32';

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
    let out = '';
    for (let i = 0; i < bytes; i++) out += (this.rng.nextUint32() & 0xff).toString(16).padStart(2, '0');
    return out;
  }

  uuid(): string {
    const h = this.hex(16).split('');
    h[12] = '4';
    h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
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
