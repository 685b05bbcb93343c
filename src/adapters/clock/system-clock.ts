// SystemClock: wall-clock time for `serve --clock system`, settable forward like a manual clock.
import type { ManualClockLike } from '../../ports/clock.js';
import type { AuxState } from '../../ports/store.js';

/**
 * Wall time plus an offset. `set` moves the offset (so `world.setTime` works too); snapshots
 * capture the offset, never the wall time itself.
 */
export class SystemClock implements ManualClockLike, AuxState {
  private offset = 0;

  constructor(private readonly wall: () => number = Date.now) {}

  now(): number {
    return this.wall() + this.offset;
  }

  set(ms: number): void {
    this.offset = ms - this.wall();
  }

  capture(): unknown {
    return this.offset;
  }

  apply(v: unknown): void {
    if (typeof v === 'number') this.offset = v;
  }
}
