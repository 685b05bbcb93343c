// Clock port: the only source of "now" for the domain, the store and the scheduler.

/** A source of the current instant in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** A clock whose time is moved explicitly (tests, scenarios, `serve --clock manual`). */
export interface ManualClockLike extends Clock {
  set(ms: number): void;
}

/**
 * The instants a world's clock may show: 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.
 * Start times, clock moves, fixture dates and loaded clocks outside it are refused, so every
 * instant a world reaches has a four-digit ISO year and a JavaScript `Date`.
 */
export const CLOCK_RANGE = { min: 0, max: 253_402_300_799_999 } as const;

/** True when `ms` is an instant of {@link CLOCK_RANGE}. */
export function inClockRange(ms: number): boolean {
  return ms >= CLOCK_RANGE.min && ms <= CLOCK_RANGE.max;
}

/** The range as the messages give it. */
export const CLOCK_RANGE_TEXT = '1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z';
