// ManualClock: virtual time that moves only when told to; an aux state so snapshots include it.
import type { ManualClockLike } from '../../ports/clock.js';
import type { AuxState } from '../../ports/store.js';

/** A clock that stands still until `set` is called. */
export class ManualClock implements ManualClockLike, AuxState {
  constructor(private ms: number) {
    if (!Number.isFinite(ms)) throw new Error('ManualClock needs a finite start time');
  }

  now(): number {
    return this.ms;
  }

  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new Error('ManualClock.set needs a finite time');
    this.ms = ms;
  }

  capture(): unknown {
    return this.ms;
  }

  apply(v: unknown): void {
    if (typeof v === 'number') this.ms = v;
  }
}
