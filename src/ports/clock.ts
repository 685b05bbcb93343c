// Clock port: the only source of "now" for the domain, the store and the scheduler.

/** A source of the current instant in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** A clock whose time is moved explicitly (tests, scenarios, `serve --clock manual`). */
export interface ManualClockLike extends Clock {
  set(ms: number): void;
}
